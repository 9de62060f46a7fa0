/**
 * Sign in with BankID Norway (OpenID Connect).
 * @module providers/bankid-no
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** What BankID's userinfo endpoint returns for the `openid profile` scopes. */
export interface BankIDNorwayProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  birthdate?: string
  email?: string
  [claim: string]: unknown
}

/**
 * BankID Norway as an OIDC provider; the profile comes from the userinfo endpoint. For the test environment set
 * `issuer: 'https://auth.current.bankid.no/auth/realms/current'`.
 * @see https://developer.bankid.no/bankid-with-biometrics/apis/oidc/
 */
export default function BankIDNorway(options: OIDCUserConfig<BankIDNorwayProfile> = {}): OIDCConfig<BankIDNorwayProfile> {
  return {
    id: 'bankid-no',
    name: 'BankID Norge',
    type: 'oidc',
    issuer: 'https://auth.bankid.no/auth/realms/prod',
    authorization: { params: { scope: 'openid profile' } },
    idToken: false,
    checks: ['pkce', 'state', 'nonce'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    style: { brandColor: '#39134c' },
    options,
  }
}
