/**
 * Sign in with ClickUp.
 * @module providers/click-up
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What ClickUp's `GET /api/v2/user` returns: the user under `user`. */
export interface ClickUpProfile {
  user: { id: number; username: string; email: string; color?: string; profilePicture: string | null }
  [field: string]: unknown
}

/**
 * ClickUp as an OAuth 2 provider.
 * @see https://clickup.com/api/developer-portal/authentication/
 */
export default function ClickUp(options: OAuthUserConfig<ClickUpProfile> = {}): OAuthConfig<ClickUpProfile> {
  return {
    id: 'click-up',
    name: 'ClickUp',
    type: 'oauth',
    authorization: { url: 'https://app.clickup.com/api' },
    token: { url: 'https://api.clickup.com/api/v2/oauth/token' },
    userinfo: { url: 'https://api.clickup.com/api/v2/user' },
    // ClickUp: no PKCE; the client id and secret go in the token request's parameters.
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: ({ user }) => ({
      id: profileId(user.id),
      name: user.username,
      email: user.email,
      image: user.profilePicture,
    }),
    style: { brandColor: '#7b68ee' },
    options,
  }
}
