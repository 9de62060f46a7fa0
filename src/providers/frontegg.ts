/**
 * Sign in with Frontegg (OpenID Connect).
 * @module providers/frontegg
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
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
  return {
    id: 'frontegg',
    name: 'Frontegg',
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
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
