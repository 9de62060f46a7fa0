/**
 * Sign in with Yandex ID.
 * @module providers/yandex
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Yandex ID's `GET /info` returns it for the scopes asked. */
export interface YandexProfile {
  id: string
  login: string
  client_id?: string
  psuid?: string
  display_name?: string
  real_name?: string
  first_name?: string
  last_name?: string
  default_email?: string
  emails?: string[]
  is_avatar_empty?: boolean
  default_avatar_id?: string
  [field: string]: unknown
}

/**
 * Yandex ID as an OAuth 2 provider.
 * @see https://yandex.com/dev/id/doc/en/
 */
export default function Yandex(options: OAuthUserConfig<YandexProfile> = {}): OAuthConfig<YandexProfile> {
  return {
    id: 'yandex',
    name: 'Yandex',
    type: 'oauth',
    authorization: {
      url: 'https://oauth.yandex.ru/authorize',
      params: { scope: 'login:info login:email login:avatar' },
    },
    token: { url: 'https://oauth.yandex.ru/token' },
    userinfo: { url: 'https://login.yandex.ru/info', params: { format: 'json' } },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.display_name ?? profile.real_name ?? profile.first_name ?? profile.login,
      email: profile.default_email ?? profile.emails?.[0] ?? null,
      // Yandex: the avatar is addressed by id and size on its own host.
      image:
        !profile.is_avatar_empty && profile.default_avatar_id
          ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`
          : null,
    }),
    style: { brandColor: '#ffcc00' },
    options,
  }
}
