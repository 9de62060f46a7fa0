/**
 * Sign in with Netlify.
 * @module providers/netlify
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Netlify's `GET /api/v1/user` returns it. */
export interface NetlifyProfile {
  id: string
  full_name: string
  email: string
  avatar_url: string | null
  [field: string]: unknown
}

/**
 * Netlify as an OAuth 2 provider.
 * @see https://docs.netlify.com/api/get-started/#authentication
 */
export default function Netlify(options: OAuthUserConfig<NetlifyProfile> = {}): OAuthConfig<NetlifyProfile> {
  return {
    id: 'netlify',
    name: 'Netlify',
    type: 'oauth',
    authorization: { url: 'https://app.netlify.com/authorize' },
    token: { url: 'https://api.netlify.com/oauth/token' },
    userinfo: { url: 'https://api.netlify.com/api/v1/user' },
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profile.id,
      name: profile.full_name,
      email: profile.email,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#32e6e2' },
    options,
  }
}
