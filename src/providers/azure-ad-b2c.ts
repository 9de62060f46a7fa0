/**
 * Sign in with Azure AD B2C (OpenID Connect).
 * @module providers/azure-ad-b2c
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of an Azure AD B2C ID token (the claims your user flow is set to return). */
export interface AzureADB2CProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  emails?: string[]
  email?: string
  [claim: string]: unknown
}

/**
 * Azure AD B2C as an OIDC provider.
 * @param options `issuer` (required: `https://<tenant>.b2clogin.com/<tenant id>/v2.0/`; the issuer of your user flow's
 *   discovery document), `clientId`, `clientSecret`
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 */
export default function AzureADB2C(options: OIDCUserConfig<AzureADB2CProfile> = {}): OIDCConfig<AzureADB2CProfile> {
  return {
    id: 'azure-ad-b2c',
    name: 'Azure Active Directory B2C',
    type: 'oidc',
    authorization: { params: { scope: 'offline_access openid' } },
    checks: ['pkce'],
    // B2C: the address comes as the `emails` array claim (the user flow's "Email Addresses" claim).
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.emails?.[0] ?? profile.email ?? null,
      image: null,
    }),
    style: { brandColor: '#0072c6' },
    options,
  }
}
