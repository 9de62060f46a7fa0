/**
 * Sign in with Kakao.
 * @module providers/kakao
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Kakao's `GET /v2/user/me` returns it (fields Authchart reads). */
export interface KakaoProfile {
  id: number
  kakao_account?: {
    email?: string
    is_email_verified?: boolean
    profile?: { nickname?: string; profile_image_url?: string; thumbnail_image_url?: string }
    [field: string]: unknown
  }
  properties?: { nickname?: string; profile_image?: string }
  [field: string]: unknown
}

/**
 * Kakao as an OAuth 2 provider.
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 */
export default function Kakao(options: OAuthUserConfig<KakaoProfile> = {}): OAuthConfig<KakaoProfile> {
  return {
    id: 'kakao',
    name: 'Kakao',
    type: 'oauth',
    authorization: { url: 'https://kauth.kakao.com/oauth/authorize' },
    token: { url: 'https://kauth.kakao.com/oauth/token' },
    userinfo: { url: 'https://kapi.kakao.com/v2/user/me' },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({
      id: profileId(profile.id),
      name: profile.kakao_account?.profile?.nickname ?? profile.properties?.nickname ?? null,
      email: profile.kakao_account?.email ?? null,
      image: profile.kakao_account?.profile?.profile_image_url ?? profile.properties?.profile_image ?? null,
    }),
    style: { brandColor: '#ffe600' },
    options,
  }
}
