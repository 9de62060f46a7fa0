/**
 * Sign in with Threads (Meta).
 * @module providers/threads
 */
import { bearerWhenUntyped } from '../providers-internal/token-type.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The account as the Threads API's `GET /me` returns it for the fields asked. */
export interface ThreadsUser {
  id: string
  username: string
  threads_profile_picture_url?: string
  threads_biography?: string
  [field: string]: unknown
}

/** What profile() receives: the account, or (as Auth.js types it) the account under `data`. */
export type ThreadsProfile = ThreadsUser | { data: ThreadsUser; [field: string]: unknown }

/**
 * Threads as an OAuth 2 provider. Threads gives no e-mail address.
 * @see https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 */
export default function Threads(options: OAuthUserConfig<ThreadsProfile> = {}): OAuthConfig<ThreadsProfile> {
  return {
    id: 'threads',
    name: 'Threads',
    type: 'oauth',
    authorization: { url: 'https://threads.net/oauth/authorize', params: { scope: 'threads_basic' } },
    // Threads: the short-lived token answer has no token_type; the secret goes in the body.
    token: { url: 'https://graph.threads.net/oauth/access_token', conform: bearerWhenUntyped },
    userinfo: {
      url: 'https://graph.threads.net/v1.0/me',
      params: { fields: 'id,username,threads_profile_picture_url' },
    },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => {
      const wrapped = (profile as { data?: ThreadsUser }).data
      const user = wrapped ?? (profile as ThreadsUser)
      return { id: user.id, name: user.username || null, email: null, image: user.threads_profile_picture_url || null }
    },
    style: { brandColor: '#000000' },
    options,
  }
}
