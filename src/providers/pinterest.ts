/**
 * Sign in with Pinterest.
 * @module providers/pinterest
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The account as Pinterest's `GET /v5/user_account` returns it. */
export interface PinterestProfile {
  account_type: 'BUSINESS' | 'PINNER'
  profile_image: string
  website_url?: string
  username: string
  [field: string]: unknown
}

/**
 * Pinterest as an OAuth 2 provider. Pinterest gives no e-mail address; the username is the stable id.
 * @see https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 */
export default function Pinterest(options: OAuthUserConfig<PinterestProfile> = {}): OAuthConfig<PinterestProfile> {
  return {
    id: 'pinterest',
    name: 'Pinterest',
    type: 'oauth',
    authorization: { url: 'https://www.pinterest.com/oauth', params: { scope: 'user_accounts:read' } },
    token: { url: 'https://api.pinterest.com/v5/oauth/token' },
    userinfo: { url: 'https://api.pinterest.com/v5/user_account' },
    checks: ['state'],
    profile: (profile) => ({ id: profile.username, name: profile.username, email: null, image: profile.profile_image }),
    style: { brandColor: '#e60023' },
    options,
  }
}
