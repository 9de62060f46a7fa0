/**
 * Sign in with Okta (OpenID Connect).
 * @module providers/okta
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a Okta ID token. */
export interface OktaProfile {
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
 * Okta as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your org or authorization server, e.g. https://org.okta.com/oauth2/default), `clientId`, `clientSecret`
 * @see https://developer.okta.com/docs/concepts/oauth-openid/
 */
export default function Okta(options: OIDCUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  return {
    id: 'okta',
    name: 'Okta',
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
    // Okta: an org's sign-in policies may require state as well as PKCE.
    checks: ['pkce', 'state'],
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#007dc1' },
    options,
  }
}
