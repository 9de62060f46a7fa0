/**
 * A generic OpenID Connect provider, for any OP that publishes discovery metadata.
 * @module providers/oidc
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'
import type { Profile } from '../types/index.js'

export type { OIDCConfig, OIDCUserConfig, ChecksType } from '../types/providers.js'

/** What `OIDC()` takes: any provider setting, with `id`, `name` and `issuer` required. */
export type GenericOIDCOptions<P = Profile> = OIDCUserConfig<P> & { id: string; name: string; issuer: string }

/**
 * An OpenID Connect provider (`type: "oidc"`): endpoints from the issuer's discovery document, the profile from the
 * verified ID token (or, with `idToken: false`, from the userinfo endpoint).
 * @param options `id`, `name`, `issuer`, `clientId`, `clientSecret`; optionally `wellKnown`, `checks` (`nonce` is
 *   allowed here), `client.token_endpoint_auth_method`, `authorization.params`
 * @example
 * ```ts
 * OIDC({ id: 'corp', name: 'Corp SSO', issuer: 'https://sso.corp.example', clientId, clientSecret, checks: ['pkce', 'nonce'] })
 * ```
 */
export default function OIDC<P = Profile>(options: GenericOIDCOptions<P>): OIDCConfig<P> {
  return { id: options.id, name: options.name, type: 'oidc', issuer: options.issuer, options }
}
