/**
 * Sign in with Zoom.
 * @module providers/zoom
 */
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Zoom's `GET /v2/users/me` returns it (fields Authchart reads). */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name?: string
  email: string
  pic_url?: string
  [field: string]: unknown
}

/**
 * Zoom as an OAuth 2 provider.
 * @see https://developers.zoom.us/docs/integrations/oauth/
 */
export default function Zoom(options: OAuthUserConfig<ZoomProfile> = {}): OAuthConfig<ZoomProfile> {
  return {
    id: 'zoom',
    name: 'Zoom',
    type: 'oauth',
    authorization: { url: 'https://zoom.us/oauth/authorize' },
    token: { url: 'https://zoom.us/oauth/token' },
    userinfo: { url: 'https://api.zoom.us/v2/users/me' },
    // Zoom: HTTP Basic client authentication at the token endpoint.
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({
      id: profile.id,
      name: profile.display_name ?? joinName(profile.first_name, profile.last_name),
      email: profile.email,
      image: profile.pic_url ?? null,
    }),
    style: { brandColor: '#0b5cff' },
    options,
  }
}
