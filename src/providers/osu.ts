/**
 * Sign in with osu!.
 * @module providers/osu
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as osu!'s `GET /api/v2/me` returns it (fields Authchart reads). */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code?: string
  [field: string]: unknown
}

/**
 * osu! as an OAuth 2 provider. osu! gives no e-mail address.
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 */
export default function Osu(options: OAuthUserConfig<OsuProfile> = {}): OAuthConfig<OsuProfile> {
  return {
    id: 'osu',
    name: 'Osu!',
    type: 'oauth',
    authorization: { url: 'https://osu.ppy.sh/oauth/authorize', params: { scope: 'identify' } },
    token: { url: 'https://osu.ppy.sh/oauth/token' },
    userinfo: { url: 'https://osu.ppy.sh/api/v2/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.username,
      email: null,
      image: profile.avatar_url,
    }),
    style: { brandColor: '#ff66aa' },
    options,
  }
}
