/**
 * Sign in with FreshBooks.
 * @module providers/freshbooks
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What FreshBooks's `GET /auth/api/v1/users/me` returns: the identity under `response`. */
export interface FreshbooksProfile {
  response: {
    id: number
    identity_id?: number
    first_name: string
    last_name: string
    email: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * FreshBooks as an OAuth 2 provider.
 * @see https://www.freshbooks.com/api/authenticating-with-oauth-2-0-on-the-new-freshbooks-api
 */
export default function Freshbooks(options: OAuthUserConfig<FreshbooksProfile> = {}): OAuthConfig<FreshbooksProfile> {
  return {
    id: 'freshbooks',
    name: 'Freshbooks',
    type: 'oauth',
    authorization: { url: 'https://auth.freshbooks.com/service/auth/oauth/authorize' },
    token: { url: 'https://api.freshbooks.com/auth/oauth/token' },
    userinfo: { url: 'https://api.freshbooks.com/auth/api/v1/users/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: ({ response }) => ({
      id: profileId(response.id),
      name: joinName(response.first_name, response.last_name),
      email: response.email,
      image: null,
    }),
    style: { brandColor: '#0075dd' },
    options,
  }
}
