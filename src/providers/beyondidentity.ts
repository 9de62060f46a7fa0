/**
 * Sign in with Beyond Identity (OpenID Connect, passwordless).
 * @module providers/beyondidentity
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Beyond Identity ID token. */
export interface BeyondIdentityProfile {
  sub: string
  email?: string
  name?: string
  preferred_username?: string
  [claim: string]: unknown
}

/**
 * Beyond Identity as an OIDC provider.
 * @param options `issuer` (required: the issuer URL of your application), `clientId`, `clientSecret`
 * @see https://developer.beyondidentity.com/docs
 */
export default function BeyondIdentity(
  options: OIDCUserConfig<BeyondIdentityProfile> = {},
): OIDCConfig<BeyondIdentityProfile> {
  return {
    id: 'beyondidentity',
    name: 'Beyond Identity',
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: null,
    }),
    style: { brandColor: '#5077c5' },
    options,
  }
}
