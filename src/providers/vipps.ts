/**
 * Sign in with Vipps MobilePay (Vipps Login, OpenID Connect).
 * @module providers/vipps
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** What Vipps's userinfo endpoint returns for the `name email` scopes. */
export interface VippsProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  [claim: string]: unknown
}

/**
 * Vipps as an OIDC provider; the profile comes from the userinfo endpoint. The default issuer is Vipps's test
 * environment, as in Auth.js; production apps set `issuer: 'https://api.vipps.no/access-management-1.0/access/'`.
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/
 */
export default function Vipps(options: OIDCUserConfig<VippsProfile> = {}): OIDCConfig<VippsProfile> {
  return {
    id: 'vipps',
    name: 'Vipps',
    type: 'oidc',
    // Production, as in Auth.js; the test environment is https://apitest.vipps.no/access-management-1.0/access/.
    issuer: 'https://api.vipps.no/access-management-1.0/access/',
    authorization: { params: { scope: 'openid name email' } },
    // Vipps: the ID token carries only `sub`; the scoped claims are served by userinfo.
    idToken: false,
    checks: ['pkce', 'state', 'nonce'],
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    style: { brandColor: '#ff5b24' },
    options,
  }
}
