/**
 * Sign in with Frontegg (OpenID Connect).
 * @module providers/frontegg
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import { trimSlash } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Frontegg ID token. */
export interface FronteggProfile extends StandardOidcProfile {
  profilePictureUrl?: string
}

/**
 * Frontegg as an OIDC provider.
 * @param options `issuer` (required: your Frontegg domain, `https://<app>.frontegg.com`), `clientId`, `clientSecret`
 * @see https://docs.frontegg.com/docs/using-frontegg-as-an-oidc-provider
 */
export default function Frontegg(options: OIDCUserConfig<FronteggProfile> = {}): OIDCConfig<FronteggProfile> {
  const base = options.issuer ? trimSlash(options.issuer) : undefined
  return {
    id: 'frontegg',
    name: 'Frontegg',
    type: 'oidc',
    // Auth.js's fixed endpoints under the Frontegg domain: Frontegg serves its discovery document under /oauth.
    ...(base
      ? {
          issuer: base,
          wellKnown: `${base}/oauth/.well-known/openid-configuration`,
          token: `${base}/oauth/token`,
          userinfo: `${base}/identity/resources/users/v2/me`,
        }
      : {}),
    authorization: { ...(base ? { url: `${base}/oauth/authorize` } : {}), params: { scope: 'openid profile email' } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.profilePictureUrl ?? profile.picture ?? null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
