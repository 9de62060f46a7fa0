/**
 * Sign in with Duende IdentityServer 6 (OpenID Connect).
 * @module providers/duende-identity-server6
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Duende IdentityServer ID token. */
export type DuendeISUser = StandardOidcProfile

/**
 * Duende IdentityServer 6 as an OIDC provider; endpoints from the discovery document of your server.
 * @param options `issuer` (required: your IdentityServer's URL), `clientId`, `clientSecret`
 * @see https://docs.duendesoftware.com/identityserver/v6
 */
export default function DuendeIdentityServer6(options: OIDCUserConfig<DuendeISUser> = {}): OIDCConfig<DuendeISUser> {
  return issuerOidcProvider(
    {
      id: 'duende-identity-server6',
      name: 'DuendeIdentityServer6',
      brandColor: '#2a67b1',
      fallbackNameClaim: 'preferred_username',
    },
    options,
  )
}
