/**
 * Sign in with Facebook (Meta).
 * @module providers/facebook
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as the Graph API's `GET /me?fields=id,name,email,picture` returns it. */
export interface FacebookProfile {
  id: string
  name?: string
  email?: string
  picture?: { data?: { url?: string; is_silhouette?: boolean } }
  [field: string]: unknown
}

/**
 * Facebook as an OAuth 2 provider.
 * @see https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 */
export default function Facebook(options: OAuthUserConfig<FacebookProfile> = {}): OAuthConfig<FacebookProfile> {
  return {
    id: 'facebook',
    name: 'Facebook',
    type: 'oauth',
    authorization: { url: 'https://www.facebook.com/v19.0/dialog/oauth', params: { scope: 'email' } },
    token: 'https://graph.facebook.com/oauth/access_token',
    // Facebook: the Graph API returns only id and name unless the fields are listed.
    userinfo: { url: 'https://graph.facebook.com/me', params: { fields: 'id,name,email,picture' } },
    // Facebook: the token endpoint documents client_id and client_secret as request parameters.
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profile.id,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture?.data?.url ?? null,
    }),
    style: { brandColor: '#0866ff' },
    options,
  }
}
