/**
 * Sign in with Keycloak (OpenID Connect).
 * @module providers/keycloak
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Keycloak ID token. */
export type KeycloakProfile = StandardOidcProfile

/**
 * Keycloak as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: the realm, e.g. https://sso.example.com/realms/main), `clientId`, `clientSecret`
 * @see https://www.keycloak.org/docs/latest/securing_apps/#_oidc
 */
export default function Keycloak(options: OIDCUserConfig<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  // Keycloak: every realm is its own issuer (…/realms/<realm>), with its own keys and endpoints.
  return issuerOidcProvider(
    { id: 'keycloak', name: 'Keycloak', brandColor: '#428bca', fallbackNameClaim: 'preferred_username' },
    options,
  )
}
