/**
 * Sign in with 42 (the 42 school network's intranet API).
 * @module providers/42-school
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as 42's `GET /v2/me` returns it (the fields Authchart reads). */
export interface FortyTwoProfile {
  id: number
  login: string
  email: string
  usual_full_name: string
  displayname?: string
  image: { link: string | null; versions?: Record<string, string | null> }
  [field: string]: unknown
}

/**
 * 42 as an OAuth 2 provider.
 * @see https://api.intra.42.fr/apidoc/guides/web_application_flow
 */
export default function FortyTwo(options: OAuthUserConfig<FortyTwoProfile> = {}): OAuthConfig<FortyTwoProfile> {
  return {
    id: '42-school',
    name: '42 School',
    type: 'oauth',
    authorization: { url: 'https://api.intra.42.fr/oauth/authorize', params: { scope: 'public' } },
    token: { url: 'https://api.intra.42.fr/oauth/token' },
    userinfo: { url: 'https://api.intra.42.fr/v2/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.usual_full_name,
      email: profile.email,
      image: profile.image.link,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
