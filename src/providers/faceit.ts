/**
 * Sign in with FACEIT.
 * @module providers/faceit
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as FACEIT's userinfo endpoint returns it. */
export interface FaceItProfile {
  guid: string
  nickname: string
  name?: string
  email?: string
  picture?: string
  [field: string]: unknown
}

/**
 * FACEIT as an OAuth 2 provider.
 * @see https://cdn.faceit.com/third_party/docs/FACEIT_Connect_3.0.pdf
 */
export default function FaceIt(options: OAuthUserConfig<FaceItProfile> = {}): OAuthConfig<FaceItProfile> {
  return {
    id: 'faceit',
    name: 'FACEIT',
    type: 'oauth',
    authorization: { url: 'https://accounts.faceit.com/accounts', params: { redirect_popup: 'true' } },
    token: { url: 'https://api.faceit.com/auth/v1/oauth/token' },
    userinfo: { url: 'https://api.faceit.com/auth/v1/resources/userinfo' },
    // FACEIT: the token endpoint wants HTTP Basic client authentication.
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({
      id: profile.guid,
      name: profile.name ?? profile.nickname,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#ff5500' },
    options,
  }
}
