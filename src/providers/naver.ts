/**
 * Sign in with Naver.
 * @module providers/naver
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What Naver's `GET /v1/nid/me` returns: the user under `response`. */
export interface NaverProfile {
  resultcode: string
  message: string
  response: {
    id: string
    nickname?: string
    name?: string
    email?: string
    profile_image?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Naver as an OAuth 2 provider.
 * @see https://developers.naver.com/docs/login/devguide/devguide.md
 */
export default function Naver(options: OAuthUserConfig<NaverProfile> = {}): OAuthConfig<NaverProfile> {
  return {
    id: 'naver',
    name: 'Naver',
    type: 'oauth',
    authorization: { url: 'https://nid.naver.com/oauth2.0/authorize' },
    token: { url: 'https://nid.naver.com/oauth2.0/token' },
    userinfo: { url: 'https://openapi.naver.com/v1/nid/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    // Naver: state is required on the authorization request.
    checks: ['state'],
    profile: ({ response }) => ({
      id: response.id,
      name: response.nickname ?? response.name ?? null,
      email: response.email ?? null,
      image: response.profile_image ?? null,
    }),
    style: { brandColor: '#03c75a' },
    options,
  }
}
