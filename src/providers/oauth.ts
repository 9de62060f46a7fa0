/**
 * A generic OAuth 2 provider, for identity providers without a built-in factory.
 * @module providers/oauth
 */
import type { OAuth2Config, OAuthUserConfig } from '../types/providers.js'
import type { Profile } from '../types/index.js'

export type {
  OAuth2Config,
  OAuthConfig,
  OAuthUserConfig,
  OAuthConfigInternal,
  OIDCConfig,
  OIDCUserConfig,
  ChecksType,
  EndpointHandler,
} from '../types/providers.js'

/** What `OAuth()` takes: any provider setting, with `id` and `name` required to tell providers apart. */
export type GenericOAuthOptions<P = Profile> = OAuthUserConfig<P> & { id: string; name: string }

/**
 * A plain OAuth 2 provider (`type: "oauth"`): the profile comes from the userinfo endpoint (or `userinfo.request`),
 * never from an ID token.
 * @param options `id`, `name`, `clientId`, `clientSecret`, and either `issuer` / `wellKnown` (RFC 8414 discovery)
 *   or `authorization` and `token` URLs, plus usually `userinfo`
 * @example
 * ```ts
 * OAuth({ id: 'acme', name: 'Acme', clientId, clientSecret,
 *   authorization: { url: 'https://acme.example/oauth/authorize', params: { scope: 'profile' } },
 *   token: 'https://acme.example/oauth/token', userinfo: 'https://api.acme.example/me' })
 * ```
 */
export default function OAuth<P = Profile>(options: GenericOAuthOptions<P>): OAuth2Config<P> {
  return { id: options.id, name: options.name, type: 'oauth', options }
}
