/**
 * Sign in with Auth0 (OpenID Connect).
 * @module providers/auth0
 */
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a Auth0 ID token. */
export interface Auth0Profile {
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
 * Auth0 as an OIDC provider; endpoints come from the issuer's discovery document.
 * @param options `issuer` (required: your tenant, e.g. https://tenant.eu.auth0.com/), `clientId`, `clientSecret`
 * @see https://auth0.com/docs/authenticate/protocols/openid-connect-protocol
 */
export default function Auth0(options: OIDCUserConfig<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  return {
    id: 'auth0',
    name: 'Auth0',
    type: 'oidc',
    // Auth0: the issuer ends with a slash (https://tenant.auth0.com/), and ID token `iss` claims carry it too.
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.nickname ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#eb5424' },
    options,
  }
}
