/**
 * Sign in with Dribbble.
 * @module providers/dribbble
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Dribbble's `GET /v2/user` returns it. */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  email?: string | null
  avatar_url: string
  [field: string]: unknown
}

/** Options of `Dribbble()`: the usual ones, plus the scope (`public`, or `public upload` to post shots). */
export type DribbbleUserConfig = OAuthUserConfig<DribbbleProfile> & { scope?: 'public' | 'public upload' }

/**
 * Dribbble as an OAuth 2 provider. Dribbble gives an e-mail address only to apps approved for it.
 * @see https://developer.dribbble.com/v2/oauth/
 */
export default function Dribbble(options: DribbbleUserConfig = {}): OAuthConfig<DribbbleProfile> {
  const { scope = 'public', ...rest } = options
  return {
    id: 'dribbble',
    name: 'Dribbble',
    type: 'oauth',
    authorization: { url: 'https://dribbble.com/oauth/authorize', params: { scope } },
    token: { url: 'https://dribbble.com/oauth/token' },
    userinfo: { url: 'https://api.dribbble.com/v2/user' },
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.name,
      email: profile.email ?? null,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#ea4c89' },
    options: rest,
  }
}
