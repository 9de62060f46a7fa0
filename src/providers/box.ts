/**
 * Sign in with Box.
 * @module providers/box
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Box's `GET /2.0/users/me` returns it. */
export interface BoxProfile {
  id: string
  name: string
  login: string
  avatar_url: string
  [field: string]: unknown
}

/**
 * Box as an OAuth 2 provider. Box's `login` is the user's e-mail address.
 * @see https://developer.box.com/guides/authentication/oauth2/
 */
export default function Box(options: OAuthUserConfig<BoxProfile> = {}): OAuthConfig<BoxProfile> {
  return {
    id: 'box',
    name: 'Box',
    type: 'oauth',
    authorization: { url: 'https://account.box.com/api/oauth2/authorize' },
    token: { url: 'https://api.box.com/oauth2/token' },
    userinfo: { url: 'https://api.box.com/2.0/users/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({ id: profile.id, name: profile.name, email: profile.login, image: profile.avatar_url }),
    style: { brandColor: '#0075c9' },
    options,
  }
}
