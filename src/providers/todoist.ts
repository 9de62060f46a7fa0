/**
 * Sign in with Todoist.
 * @module providers/todoist
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { requestVendorJson } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The user object of a Todoist sync answer. */
export interface TodoistProfile {
  id: string | number
  full_name: string
  email: string
  avatar_big?: string | null
  [field: string]: unknown
}

async function syncUser({ tokens, provider }: { tokens: TokenSet; provider: OAuthConfigInternal }): Promise<unknown> {
  // Todoist: the user record comes from the Sync API, a POST asking for the `user` resource only.
  const answer = (await requestVendorJson(provider, 'https://api.todoist.com/sync/v9/sync', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.access_token ?? ''}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ sync_token: '*', resource_types: '["user"]' }).toString(),
  })) as { user?: unknown }
  return answer.user
}

/**
 * Todoist as an OAuth 2 provider.
 * @see https://developer.todoist.com/guides/#oauth
 */
export default function Todoist(options: OAuthUserConfig<TodoistProfile> = {}): OAuthConfig<TodoistProfile> {
  return {
    id: 'todoist',
    name: 'Todoist',
    type: 'oauth',
    authorization: { url: 'https://todoist.com/oauth/authorize', params: { scope: 'data:read' } },
    token: { url: 'https://todoist.com/oauth/access_token' },
    userinfo: { url: 'https://api.todoist.com/sync/v9/sync', request: syncUser },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.full_name,
      email: profile.email,
      image: profile.avatar_big ?? null,
    }),
    style: { brandColor: '#e44332' },
    options,
  }
}
