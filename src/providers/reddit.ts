/**
 * Sign in with Reddit.
 * @module providers/reddit
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Reddit's `GET /api/v1/me` returns it. */
export interface RedditProfile {
  id: string
  name: string
  icon_img?: string
  [field: string]: unknown
}

/**
 * Reddit as an OAuth 2 provider. Reddit has no e-mail scope, so users have no e-mail address. Add
 * `authorization: { params: { duration: 'permanent' } }` for a refresh token.
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 */
export default function Reddit(options: OAuthUserConfig<RedditProfile> = {}): OAuthConfig<RedditProfile> {
  return {
    id: 'reddit',
    name: 'Reddit',
    type: 'oauth',
    authorization: 'https://www.reddit.com/api/v1/authorize?scope=identity',
    // Reddit: the token endpoint only accepts HTTP Basic client authentication.
    token: 'https://www.reddit.com/api/v1/access_token',
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    // Reddit: without raw_json=1 the API HTML-escapes JSON strings, turning the & in image URLs into &amp;.
    userinfo: { url: 'https://oauth.reddit.com/api/v1/me', params: { raw_json: '1' } },
    // Reddit: the authorization request requires state; PKCE is not part of Reddit's flow.
    checks: ['state'],
    profile: (profile) => ({ id: profile.id, name: profile.name, email: null, image: profile.icon_img ?? null }),
    style: { brandColor: '#ff4500' },
    options,
  }
}
