/**
 * Sign in with Amazon Cognito user pools (OpenID Connect).
 * @module providers/cognito
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Cognito ID token. */
export interface CognitoProfile {
  sub: string
  'cognito:username'?: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Cognito as an OIDC provider.
 * @param options `issuer` (required: `https://cognito-idp.<region>.amazonaws.com/<userPoolId>`), `clientId`,
 *   `clientSecret`
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-oidc-flow.html
 */
export default function Cognito(options: OIDCUserConfig<CognitoProfile> = {}): OIDCConfig<CognitoProfile> {
  return {
    id: 'cognito',
    name: 'Cognito',
    type: 'oidc',
    // Cognito: the issuer is the user pool on cognito-idp, while the authorize and token endpoints live on the
    // pool's hosted-UI domain; discovery connects the two.
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({
      id: profile.sub,
      // Cognito: users without a name attribute still have their pool username.
      name: profile.name ?? profile['cognito:username'] ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#c17b9e' },
    options,
  }
}
