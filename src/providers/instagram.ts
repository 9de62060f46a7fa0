/**
 * Sign in with Instagram (Instagram API with Instagram Login, professional accounts).
 * @module providers/instagram
 */
import { bearerWhenUntyped } from '../providers-internal/token-type.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The account as Instagram's `GET /me` returns it for the fields asked. */
export interface InstagramProfile {
  id: string
  username: string
  account_type?: string
  name?: string
  profile_picture_url?: string
  [field: string]: unknown
}

/**
 * Instagram as an OAuth 2 provider. Instagram gives no e-mail address.
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 */
export default function Instagram(options: OAuthUserConfig<InstagramProfile> = {}): OAuthConfig<InstagramProfile> {
  return {
    id: 'instagram',
    name: 'Instagram',
    type: 'oauth',
    authorization: { url: 'https://api.instagram.com/oauth/authorize', params: { scope: 'user_profile' } },
    // Instagram: the token answer has no token_type, and the secret goes in the form body.
    token: { url: 'https://api.instagram.com/oauth/access_token', conform: bearerWhenUntyped },
    userinfo: { url: 'https://graph.instagram.com/me', params: { fields: 'id,username,account_type,name' } },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.username,
      email: null,
      image: profile.profile_picture_url ?? null,
    }),
    style: { brandColor: '#e1306c' },
    options,
  }
}
