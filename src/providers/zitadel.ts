/**
 * Sign in with ZITADEL (OpenID Connect).
 * @module providers/zitadel
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a ZITADEL ID token. */
export interface ZitadelProfile {
  sub: string
  name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * ZITADEL as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your instance, e.g. https://example-abc.zitadel.cloud), `clientId`, `clientSecret`
 * @see https://zitadel.com/docs/guides/integrate/login/oidc
 */
export default function Zitadel(options: OIDCUserConfig<ZitadelProfile> = {}): OIDCConfig<ZitadelProfile> {
  return {
    id: 'zitadel',
    name: 'ZITADEL',
    type: 'oidc',
    // ZITADEL: roles and the organisation arrive in urn:zitadel:iam:* claims, kept on the profile for callbacks.
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#0d0d0d' },
    options,
  }
}
