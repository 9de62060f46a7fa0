/**
 * Sign in through SAML Jackson (BoxyHQ / Ory Polis), which turns an enterprise SAML login into OAuth 2.
 * @module providers/boxyhq-saml
 */
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as SAML Jackson's `/api/oauth/userinfo` returns it. */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  [field: string]: unknown
}

/**
 * SAML Jackson as an OAuth 2 provider. The tenant and product to sign in to are passed per sign-in as authorization
 * parameters (`signIn('boxyhq-saml', {}, { tenant, product })`).
 * @param options `issuer` (required: your SAML Jackson URL), `clientId` (`dummy` with tenant/product routing),
 *   `clientSecret`
 * @see https://boxyhq.com/docs/jackson/sso-flow/
 */
export default function BoxyHQSAML(options: OAuthUserConfig<BoxyHQSAMLProfile> = {}): OAuthConfig<BoxyHQSAMLProfile> {
  const { issuer: _issuer, ...rest } = options
  return {
    id: 'boxyhq-saml',
    name: 'BoxyHQ SAML',
    type: 'oauth',
    ...instanceEndpoints(options.issuer, (base) => ({
      authorization: { url: `${base}/api/oauth/authorize`, params: { provider: 'saml' } },
      token: { url: `${base}/api/oauth/token` },
      userinfo: { url: `${base}/api/oauth/userinfo` },
    })),
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.id,
      name: joinName(profile.firstName, profile.lastName),
      email: profile.email,
      image: null,
    }),
    style: { brandColor: '#25c2a0' },
    // The issuer only builds the endpoint URLs above: SAML Jackson's authorization response carries no `iss`.
    options: rest,
  }
}
