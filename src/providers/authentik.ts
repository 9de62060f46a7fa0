/**
 * Sign in with Authentik (OpenID Connect).
 * @module providers/authentik
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a Authentik ID token. */
export interface AuthentikProfile {
  sub: string
  name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Authentik as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: the application, e.g. https://auth.example.com/application/o/my-app/), `clientId`, `clientSecret`
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
export default function Authentik(options: OIDCUserConfig<AuthentikProfile> = {}): OIDCConfig<AuthentikProfile> {
  return {
    id: 'authentik',
    name: 'Authentik',
    type: 'oidc',
    // Authentik: each application is its own issuer (…/application/o/<slug>/, with the trailing slash).
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#fd4b2d' },
    options,
  }
}
