/**
 * Sign in with Patreon.
 * @module providers/patreon
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Patreon's `GET /api/oauth2/v2/identity` returns: the user under `data.attributes`. */
export interface PatreonProfile {
  data: {
    id: string
    type?: 'user'
    attributes: { full_name: string; email?: string; image_url: string; [field: string]: unknown }
  }
  [field: string]: unknown
}

/**
 * Patreon as an OAuth 2 provider (API v2).
 * @see https://docs.patreon.com/#oauth
 */
export default function Patreon(options: OAuthUserConfig<PatreonProfile> = {}): OAuthConfig<PatreonProfile> {
  return {
    id: 'patreon',
    name: 'Patreon',
    type: 'oauth',
    authorization: { url: 'https://www.patreon.com/oauth2/authorize', params: { scope: 'identity identity[email]' } },
    token: { url: 'https://www.patreon.com/api/oauth2/token' },
    // Patreon v2: attributes beyond the id must be listed in `fields[user]`.
    userinfo: {
      url: 'https://www.patreon.com/api/oauth2/v2/identity',
      params: { 'fields[user]': 'full_name,email,image_url' },
    },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: ({ data }) => ({
      id: data.id,
      name: data.attributes.full_name,
      email: data.attributes.email ?? null,
      image: data.attributes.image_url,
    }),
    style: { brandColor: '#e85b46' },
    options,
  }
}
