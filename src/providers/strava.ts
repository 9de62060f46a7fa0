/**
 * Sign in with Strava.
 * @module providers/strava
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The athlete as Strava's `GET /api/v3/athlete` returns it. */
export interface StravaProfile {
  id: number
  username?: string | null
  firstname: string
  lastname: string
  profile: string
  profile_medium?: string
  [field: string]: unknown
}

/**
 * Strava as an OAuth 2 provider. Strava gives no e-mail address.
 * @see https://developers.strava.com/docs/authentication/
 */
export default function Strava(options: OAuthUserConfig<StravaProfile> = {}): OAuthConfig<StravaProfile> {
  return {
    id: 'strava',
    name: 'Strava',
    type: 'oauth',
    authorization: {
      url: 'https://www.strava.com/api/v3/oauth/authorize',
      params: { scope: 'read', approval_prompt: 'auto' },
    },
    token: { url: 'https://www.strava.com/api/v3/oauth/token' },
    userinfo: { url: 'https://www.strava.com/api/v3/athlete' },
    // Strava: the client id and secret go in the token request's body; there is no PKCE.
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.id),
      name: joinName(profile.firstname, profile.lastname),
      email: null,
      image: profile.profile,
    }),
    style: { brandColor: '#fc4c02' },
    options,
  }
}
