/**
 * Sign in with GitLab (gitlab.com or a self-managed instance).
 * @module providers/gitlab
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as GitLab's `GET /api/v4/user` returns it. */
export interface GitLabProfile {
  id: number
  username: string
  name: string | null
  email: string | null
  avatar_url: string | null
  [field: string]: unknown
}

/** Options of `GitLab()`: the usual provider options, plus the URL of a self-managed instance. */
export type GitLabUserConfig = OAuthUserConfig<GitLabProfile> & { baseUrl?: string }

/**
 * GitLab as an OAuth 2 provider.
 * @param options `clientId`, `clientSecret`; `baseUrl` for a self-managed instance (default https://gitlab.com)
 * @see https://docs.gitlab.com/api/oauth2/
 */
export default function GitLab(options: GitLabUserConfig = {}): OAuthConfig<GitLabProfile> {
  const baseUrl = (options.baseUrl ?? 'https://gitlab.com').replace(/\/+$/, '')
  return {
    id: 'gitlab',
    name: 'GitLab',
    type: 'oauth',
    // Written as URL strings (scope in the query), the shape Auth.js's GitLab provider has; apps that read or
    // compare these values see the same thing, and option merging reads either shape.
    authorization: `${baseUrl}/oauth/authorize?scope=read_user`,
    token: `${baseUrl}/oauth/token`,
    userinfo: `${baseUrl}/api/v4/user`,
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.name ?? profile.username,
      email: profile.email,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#fc6d26' },
    options,
  }
}
