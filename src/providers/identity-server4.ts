/**
 * Sign in with IdentityServer4 (OpenID Connect). IdentityServer4 is out of support; its successor is Duende.
 * @module providers/identity-server4
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of an IdentityServer4 ID token. */
export type IdentityServer4Profile = StandardOidcProfile

/**
 * IdentityServer4 as an OIDC provider.
 * @param options `issuer` (required), `clientId`, `clientSecret`
 * @see https://identityserver4.readthedocs.io/en/latest/
 */
export default function IdentityServer4(
  options: OIDCUserConfig<IdentityServer4Profile> = {},
): OIDCConfig<IdentityServer4Profile> {
  return issuerOidcProvider(
    { id: 'identity-server4', name: 'IdentityServer4', brandColor: '#4a79b4', fallbackNameClaim: 'preferred_username' },
    options,
  )
}
