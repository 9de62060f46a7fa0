/**
 * Sign in with Spotify.
 * @module providers/spotify
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Spotify's `GET /v1/me` returns it. */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  email?: string
  images?: { url: string; height: number | null; width: number | null }[]
  [field: string]: unknown
}

/**
 * Spotify as an OAuth 2 provider.
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-flow
 */
export default function Spotify(options: OAuthUserConfig<SpotifyProfile> = {}): OAuthConfig<SpotifyProfile> {
  return {
    id: 'spotify',
    name: 'Spotify',
    type: 'oauth',
    authorization: 'https://accounts.spotify.com/authorize?scope=user-read-email',
    token: 'https://accounts.spotify.com/api/token',
    userinfo: 'https://api.spotify.com/v1/me',
    // Spotify: images come in several sizes, largest first; the first is the one to show.
    profile: (profile) => ({
      id: profile.id,
      name: profile.display_name,
      email: profile.email ?? null,
      image: profile.images?.[0]?.url ?? null,
    }),
    style: { brandColor: '#1db954' },
    options,
  }
}
