/**
 * Sign in with VK (VKontakte, the classic OAuth of oauth.vk.com).
 * @module providers/vk
 */
import { profileId } from '../providers-internal/profile-defaults.js'
import { joinName } from '../providers-internal/names.js'
import { bearerWhenUntyped } from '../providers-internal/token-type.js'
import { requestVendorJson, withQuery } from '../providers-internal/vendor-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The user from VK's `users.get` (its first `response` entry), with the e-mail address of the token response. */
export interface VkProfile {
  id: number
  first_name: string
  last_name: string
  photo_100?: string
  email?: string | null
  [field: string]: unknown
}

const apiVersion = '5.131'

async function fetchUser({ tokens, provider }: { tokens: TokenSet; provider: OAuthConfigInternal }): Promise<unknown> {
  // VK: the API takes the token and the API version in the query; the e-mail address is only in the token response.
  const url = withQuery('https://api.vk.com/method/users.get', {
    fields: 'photo_100',
    v: apiVersion,
    access_token: tokens.access_token,
  })
  const answer = (await requestVendorJson(provider, url)) as { response?: Record<string, unknown>[] }
  return { ...answer.response?.[0], email: typeof tokens.email === 'string' ? tokens.email : null }
}

/**
 * VK as an OAuth 2 provider.
 * @see https://dev.vk.com/en/api/access-token/authcode-flow-user
 */
export default function VK(options: OAuthUserConfig<VkProfile> = {}): OAuthConfig<VkProfile> {
  return {
    id: 'vk',
    name: 'VK',
    type: 'oauth',
    authorization: { url: 'https://oauth.vk.com/authorize', params: { scope: 'email', v: apiVersion } },
    token: { url: 'https://oauth.vk.com/access_token', params: { v: apiVersion }, conform: bearerWhenUntyped },
    userinfo: { url: 'https://api.vk.com/method/users.get', request: fetchUser },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profileId(profile.id),
      name: joinName(profile.first_name, profile.last_name),
      email: profile.email ?? null,
      image: profile.photo_100 ?? null,
    }),
    style: { brandColor: '#0077ff' },
    options,
  }
}
