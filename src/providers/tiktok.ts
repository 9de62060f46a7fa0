/**
 * Sign in with TikTok (Login Kit for Web).
 * @module providers/tiktok
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What TikTok's `GET /v2/user/info/` returns: the user under `data.user`. */
export interface TiktokProfile {
  data: {
    user: {
      open_id: string
      union_id?: string
      avatar_url?: string
      display_name: string
      username?: string
      [field: string]: unknown
    }
  }
  error?: { code: string; message: string; log_id?: string }
  [field: string]: unknown
}

/**
 * TikTok as an OAuth 2 provider. TikTok gives no e-mail address.
 * @see https://developers.tiktok.com/doc/login-kit-web/
 */
export default function TikTok(options: OAuthUserConfig<TiktokProfile> = {}): OAuthConfig<TiktokProfile> {
  const clientKey = options.clientId
  return {
    id: 'tiktok',
    name: 'TikTok',
    type: 'oauth',
    // TikTok: the app is named `client_key`, on the authorization request and at the token endpoint.
    authorization: {
      url: 'https://www.tiktok.com/v2/auth/authorize',
      // Auth.js's scope: every Login Kit app has user.info.basic (user.info.profile must be applied for).
      params: { scope: 'user.info.basic', ...(clientKey ? { client_key: clientKey } : {}) },
    },
    token: { url: 'https://open.tiktokapis.com/v2/oauth/token/', params: clientKey ? { client_key: clientKey } : {} },
    userinfo: {
      url: 'https://open.tiktokapis.com/v2/user/info/',
      params: { fields: 'open_id,avatar_url,display_name' },
    },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: ({ data: { user } }) => ({
      id: user.open_id,
      name: user.display_name,
      email: null,
      image: user.avatar_url ?? null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
