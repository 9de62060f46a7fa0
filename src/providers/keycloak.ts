/**
 * Sign in with Keycloak (OpenID Connect).
 * @module providers/keycloak
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a Keycloak ID token. */
export interface KeycloakProfile {
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
 * Keycloak as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: the realm, e.g. https://sso.example.com/realms/main), `clientId`, `clientSecret`
 * @see https://www.keycloak.org/docs/latest/securing_apps/#_oidc
 */
export default function Keycloak(options: OIDCUserConfig<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  return {
    id: 'keycloak',
    name: 'Keycloak',
    type: 'oidc',
    // Keycloak: every realm is its own issuer (…/realms/<realm>), with its own keys and endpoints.
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#428bca' },
    options,
  }
}
