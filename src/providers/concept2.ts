/**
 * Sign in with Concept2 Logbook.
 * @module providers/concept2
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What the Logbook's `GET /api/users/me` returns: the user under `data`. */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name?: string
    last_name?: string
    email: string
    profile_image: string | null
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Concept2 Logbook as an OAuth 2 provider.
 * @see https://log.concept2.com/developers/documentation/
 */
export default function Concept2(options: OAuthUserConfig<Concept2Profile> = {}): OAuthConfig<Concept2Profile> {
  return {
    id: 'concept2',
    name: 'Concept2',
    type: 'oauth',
    // Concept2: scopes are comma-separated.
    authorization: { url: 'https://log.concept2.com/oauth/authorize', params: { scope: 'user:read,results:write' } },
    token: { url: 'https://log.concept2.com/oauth/access_token' },
    userinfo: { url: 'https://log.concept2.com/api/users/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: ({ data }) => ({
      id: profileId(data.id),
      name: data.username,
      email: data.email,
      image: data.profile_image,
    }),
    style: { brandColor: '#1e3f72' },
    options,
  }
}
