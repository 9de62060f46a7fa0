/**
 * Sign in with Oracle NetSuite.
 * @module providers/netsuite
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as your NetSuite RESTlet returns it (NetSuite has no fixed userinfo endpoint). */
export interface NetSuiteProfile {
  id: number | string
  name: string
  email: string
  location?: number
  role?: number
  [field: string]: unknown
}

/** Options of `NetSuite()`, named as Auth.js names them. */
export type NetSuiteUserConfig = Omit<OAuthUserConfig<NetSuiteProfile>, 'issuer'> & {
  /** The NetSuite account id, e.g. `TSTDRV1234567` or `81555_SB1`: the option Auth.js's provider reads. */
  accountID?: string
  /** The account id too, as Auth.js's documentation passes it (not a URL); `accountID` wins when both are given. */
  issuer?: string
  /** Sent only when given (`login`, `consent`, `login consent`, `none`): `none` fails users without a session. */
  prompt?: string
  /** Space-separated scopes: `restlets`, `rest_webservices` (default both). */
  scope?: string
}

/**
 * NetSuite as an OAuth 2 provider. Pass `userinfo` as the URL of a RESTlet that returns the current user (NetSuite
 * itself has no userinfo endpoint), and the account id as `accountID` (as Auth.js's provider reads it) or `issuer`
 * (as Auth.js's documentation passes it).
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157771733782.html
 */
export default function NetSuite(options: NetSuiteUserConfig = {}): OAuthConfig<NetSuiteProfile> {
  const { accountID, issuer, prompt, scope = 'restlets rest_webservices', ...rest } = options
  const accountId = accountID ?? issuer ?? ''
  // NetSuite: account hosts use the id in lower case with `_` as `-` (81555_SB1 becomes 81555-sb1).
  const host = accountId.toLowerCase().replace(/_/g, '-')
  return {
    id: 'netsuite',
    name: 'NetSuite',
    type: 'oauth',
    // Without an account there is no host to build; the provider then fails its configuration check by name.
    authorization: {
      ...(host ? { url: `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl` } : {}),
      params: { scope, ...(prompt ? { prompt } : {}) },
    },
    ...(host
      ? { token: { url: `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token` } }
      : {}),
    checks: ['state'],
    profile: (profile) => ({ id: profileId(profile.id), name: profile.name, email: profile.email, image: null }),
    style: { brandColor: '#125580' },
    options: rest,
  }
}
