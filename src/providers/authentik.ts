/**
 * Sign in with Authentik (OpenID Connect).
 * @module providers/authentik
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Authentik ID token. */
export type AuthentikProfile = StandardOidcProfile

/**
 * Authentik as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: the application, e.g. https://auth.example.com/application/o/my-app/), `clientId`, `clientSecret`
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
export default function Authentik(options: OIDCUserConfig<AuthentikProfile> = {}): OIDCConfig<AuthentikProfile> {
  // Authentik: each application is its own issuer (…/application/o/<slug>/, with the trailing slash).
  return issuerOidcProvider(
    { id: 'authentik', name: 'Authentik', brandColor: '#fd4b2d', fallbackNameClaim: 'preferred_username' },
    options,
  )
}
