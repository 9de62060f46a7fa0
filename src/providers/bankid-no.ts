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
 * BankID Norway as an OIDC provider; the profile comes from the userinfo endpoint, which answers with a signed JWT
 * (verified against BankID's JWKS like an ID token). The default issuer is BankID's test environment ("current"), as
 * in Auth.js; production apps set `issuer: 'https://auth.bankid.no/auth/realms/prod'`.
 * @see https://developer.bankid.no/bankid-with-biometrics/apis/oidc/
 */
export default function BankIDNorway(options: OIDCUserConfig<BankIDNorwayProfile> = {}): OIDCConfig<BankIDNorwayProfile> {
  return {
    id: 'bankid-no',
    name: 'BankID Norge',
    type: 'oidc',
    issuer: 'https://auth.current.bankid.no/auth/realms/current',
    authorization: { params: { ui_locales: 'no' } },
    // BankID: the e-mail address is never in the ID token, only in the (signed) userinfo answer.
    idToken: false,
    client: { token_endpoint_auth_method: 'client_secret_post', userinfo_signed_response_alg: 'RS256' },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    style: { brandColor: '#39134c' },
    options,
  }
}
