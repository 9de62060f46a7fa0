/**
 * Sign in with WordPress.com.
 * @module providers/wordpress
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as WordPress.com's `GET /rest/v1/me` returns it. */
export interface WordPressProfile {
  ID: number
  username: string
  display_name: string
  email: string
  avatar_URL: string
  [field: string]: unknown
}

/**
 * WordPress.com as an OAuth 2 provider.
 * @see https://developer.wordpress.com/docs/oauth2/
 */
export default function WordPress(options: OAuthUserConfig<WordPressProfile> = {}): OAuthConfig<WordPressProfile> {
  return {
    id: 'wordpress',
    name: 'WordPress.com',
    type: 'oauth',
    // WordPress.com: the `auth` scope is what allows reading /me with the token.
    authorization: { url: 'https://public-api.wordpress.com/oauth2/authorize', params: { scope: 'auth' } },
    token: { url: 'https://public-api.wordpress.com/oauth2/token' },
    userinfo: { url: 'https://public-api.wordpress.com/rest/v1/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.ID),
      name: profile.display_name,
      email: profile.email,
      image: profile.avatar_URL,
    }),
    style: { brandColor: '#3499cd' },
    options,
  }
}
