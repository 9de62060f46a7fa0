/**
 * Sign in with BankID Norway (OpenID Connect).
 * @module providers/bankid-no
 */
import { verifiedUserinfo } from '../providers-internal/signed-userinfo.js'
import { customFetch } from '../types/symbols.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** BankID's test environment, Auth.js's default too. */
// Production, as in Auth.js; BankID's test environment is https://auth.current.bankid.no/auth/realms/current.
const defaultIssuer = 'https://auth.bankid.no/auth/realms/prod'

/** The ID token's claims merged with what BankID's signed userinfo answer holds. */
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
 * BankID Norway as an OIDC provider; the profile is the ID token's claims with those of the userinfo endpoint, which
 * answers with a signed JWT that `profile()` verifies against BankID's JWKS before using it. The default issuer is BankID's test environment ("current"), as
 * in Auth.js; production apps set `issuer: 'https://auth.bankid.no/auth/realms/prod'`.
 * @see https://developer.bankid.no/bankid-with-biometrics/apis/oidc/
 */
export default function BankIDNorway(
  options: OIDCUserConfig<BankIDNorwayProfile> = {},
): OIDCConfig<BankIDNorwayProfile> {
  return {
    id: 'bankid-no',
    name: 'BankID Norge',
    type: 'oidc',
    issuer: defaultIssuer,
    authorization: { params: { ui_locales: 'no', login_hint: 'BIS' } },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['pkce', 'state', 'nonce'],
    async profile(idTokenClaims, tokens) {
      // BankID: the e-mail address is never in the ID token, only in the userinfo answer, a JWT signed by BankID.
      const claims = await verifiedUserinfo(
        options.issuer ?? defaultIssuer,
        tokens.access_token ?? '',
        idTokenClaims.sub,
        options[customFetch],
      )
      const profile = { ...idTokenClaims, ...claims } as BankIDNorwayProfile
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: '#39134c' },
    options,
  }
}
