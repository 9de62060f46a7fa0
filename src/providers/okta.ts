/**
 * Sign in with Okta (OpenID Connect).
 * @module providers/okta
 */
import { issuerOidcProvider, type StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Okta ID token. */
export type OktaProfile = StandardOidcProfile

/**
 * Okta as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your org or authorization server, e.g. https://org.okta.com/oauth2/default), `clientId`, `clientSecret`
 * @see https://developer.okta.com/docs/concepts/oauth-openid/
 */
export default function Okta(options: OIDCUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  // Okta: an org's sign-in policies may require state as well as PKCE.
  return issuerOidcProvider(
    {
      id: 'okta',
      name: 'Okta',
      brandColor: '#007dc1',
      fallbackNameClaim: 'preferred_username',
      checks: ['pkce', 'state'],
    },
    options,
  )
}
