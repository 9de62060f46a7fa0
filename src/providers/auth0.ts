/**
 * Sign in with Auth0 (OpenID Connect).
 * @module providers/auth0
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Auth0 ID token. */
export type Auth0Profile = StandardOidcProfile

/**
 * Auth0 as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your tenant, e.g. https://tenant.eu.auth0.com/), `clientId`, `clientSecret`
 * @see https://auth0.com/docs/authenticate/protocols/openid-connect-protocol
 */
export default function Auth0(options: OIDCUserConfig<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  // Auth0: the issuer ends with a slash (https://tenant.auth0.com/), and ID token `iss` claims carry it too.
  return issuerOidcProvider(
    { id: 'auth0', name: 'Auth0', brandColor: '#eb5424', fallbackNameClaim: 'nickname' },
    options,
  )
}
