/**
 * Sign in with Trakt.
 * @module providers/trakt
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'

/** The user as Trakt's `GET /users/me?extended=full` returns it. */
export interface TraktUser {
  username: string
  name: string | null
  ids: { slug: string; uuid?: string }
  images?: { avatar?: { full?: string } }
  [field: string]: unknown
}

async function fetchMe({ tokens, provider }: { tokens: TokenSet; provider: OAuthConfigInternal }): Promise<unknown> {
  // Trakt: every API call names the API version and the app (its client id) in headers.
  return requestJsonWithBearer(provider, 'https://api.trakt.tv/users/me?extended=full', tokens.access_token, {
    headers: { 'trakt-api-version': '2', 'trakt-api-key': provider.clientId ?? '' },
  })
}

/**
 * Trakt as an OAuth 2 provider. Trakt gives no e-mail address. For the staging site, override the URLs.
 * @see https://trakt.docs.apiary.io/#reference/authentication-oauth
 */
export default function Trakt(options: OAuthUserConfig<TraktUser> = {}): OAuthConfig<TraktUser> {
  return {
    id: 'trakt',
    name: 'Trakt',
    type: 'oauth',
    authorization: { url: 'https://trakt.tv/oauth/authorize' },
    token: { url: 'https://api.trakt.tv/oauth/token' },
    userinfo: { url: 'https://api.trakt.tv/users/me', request: fetchMe },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.ids.slug,
      name: profile.name ?? profile.username,
      email: null,
      image: profile.images?.avatar?.full ?? null,
    }),
    style: { brandColor: '#ed1c24' },
    options,
  }
}
