/**
 * Sign in with Salesforce (OpenID Connect).
 * @module providers/salesforce
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** What Salesforce's userinfo endpoint returns. */
export interface SalesforceProfile {
  sub: string
  user_id: string
  organization_id?: string
  name?: string
  email?: string
  picture?: string
  [claim: string]: unknown
}

/**
 * Salesforce as an OIDC provider; the profile comes from the userinfo endpoint. For a sandbox or My Domain, set
 * `issuer` (e.g. https://test.salesforce.com). As in Auth.js, the account is keyed on `sub` (the identity URL) and
 * the user's name, e-mail and photo come from userinfo. Accounts are linked by e-mail only where the app allows it
 * (`allowDangerousEmailAccountLinking`): an org administrator can set any address on a Salesforce user.
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm
 */
export default function Salesforce(options: OIDCUserConfig<SalesforceProfile> = {}): OIDCConfig<SalesforceProfile> {
  return {
    id: 'salesforce',
    name: 'Salesforce',
    type: 'oidc',
    issuer: 'https://login.salesforce.com',
    // Salesforce: the ID token holds ids only; name, e-mail and photo come from userinfo.
    idToken: false,
    checks: ['pkce', 'state', 'nonce'],
    // Auth.js keys the account on `sub` (the user's identity URL), so the same Salesforce user is the same account.
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#00a1e0' },
    options,
  }
}
