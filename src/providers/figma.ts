/**
 * Sign in with Figma.
 * @module providers/figma
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Figma's `GET /v1/me` returns it. */
export interface FigmaProfile {
  id: string
  handle: string
  email: string
  img_url: string
  [field: string]: unknown
}

/**
 * Figma as an OAuth 2 provider.
 * @see https://www.figma.com/developers/api#oauth2
 */
export default function Figma(options: OAuthUserConfig<FigmaProfile> = {}): OAuthConfig<FigmaProfile> {
  return {
    id: 'figma',
    name: 'Figma',
    type: 'oauth',
    authorization: { url: 'https://www.figma.com/oauth', params: { scope: 'current_user:read' } },
    token: { url: 'https://api.figma.com/v1/oauth/token' },
    userinfo: { url: 'https://api.figma.com/v1/me' },
    // Figma: state is required on the authorization request.
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({ id: profile.id, name: profile.handle, email: profile.email, image: profile.img_url }),
    style: { brandColor: '#0d99ff' },
    options,
  }
}
