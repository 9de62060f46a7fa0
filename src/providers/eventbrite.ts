/**
 * Sign in with Eventbrite.
 * @module providers/eventbrite
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Eventbrite's `GET /v3/users/me/` returns it. */
export interface EventbriteProfile {
  id: string
  name: string
  first_name?: string
  last_name?: string
  emails: { email: string; verified: boolean; primary: boolean }[]
  image_id: string | null
  [field: string]: unknown
}

/**
 * Eventbrite as an OAuth 2 provider.
 * @see https://www.eventbrite.com/platform/api#/introduction/authentication
 */
export default function Eventbrite(options: OAuthUserConfig<EventbriteProfile> = {}): OAuthConfig<EventbriteProfile> {
  return {
    id: 'eventbrite',
    name: 'Eventbrite',
    type: 'oauth',
    authorization: { url: 'https://www.eventbrite.com/oauth/authorize', params: { scope: 'user.profile' } },
    token: { url: 'https://www.eventbrite.com/oauth/token' },
    userinfo: { url: 'https://www.eventbriteapi.com/v3/users/me/' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profile.id,
      name: profile.name,
      email: profile.emails.find((entry) => entry.primary)?.email ?? null,
      // Eventbrite: the profile names an image by id; its original sits on Eventbrite's CDN behind the image proxy.
      image: profile.image_id
        ? `https://img.evbuc.com/${encodeURIComponent(`https://cdn.evbuc.com/images/${profile.image_id}/1/original.jpg`)}`
        : null,
    }),
    style: { brandColor: '#f05537' },
    options,
  }
}
