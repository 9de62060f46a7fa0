/**
 * Sign in with Medium. Medium no longer registers new API integrations; existing ones keep working.
 * @module providers/medium
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Medium's `GET /v1/me` returns: the user under `data`. */
export interface MediumProfile {
  data: { id: string; username: string; name: string; url?: string; imageUrl: string }
  [field: string]: unknown
}

/**
 * Medium as an OAuth 2 provider. Medium gives no e-mail address.
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 */
export default function Medium(options: OAuthUserConfig<MediumProfile> = {}): OAuthConfig<MediumProfile> {
  return {
    id: 'medium',
    name: 'Medium',
    type: 'oauth',
    authorization: { url: 'https://medium.com/m/oauth/authorize', params: { scope: 'basicProfile' } },
    token: { url: 'https://api.medium.com/v1/tokens' },
    userinfo: { url: 'https://api.medium.com/v1/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: ({ data }) => ({ id: data.id, name: data.name, email: null, image: data.imageUrl }),
    style: { brandColor: '#000000' },
    options,
  }
}
