/**
 * Sign in with a Mastodon server.
 * @module providers/mastodon
 */
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The account as Mastodon's `GET /api/v1/accounts/verify_credentials` returns it. */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  avatar: string
  avatar_static: string
  url: string
  [field: string]: unknown
}

/**
 * Mastodon as an OAuth 2 provider. Mastodon gives no e-mail address.
 * @param options `issuer` (required: the server, e.g. https://mastodon.social), `clientId`, `clientSecret`
 * @see https://docs.joinmastodon.org/spec/oauth/
 */
export default function Mastodon(options: OAuthUserConfig<MastodonProfile> = {}): OAuthConfig<MastodonProfile> {
  const { issuer: _serverUrl, ...rest } = options
  return {
    id: 'mastodon',
    name: 'Mastodon',
    type: 'oauth',
    ...instanceEndpoints(options.issuer, (base) => ({
      authorization: { url: `${base}/oauth/authorize`, params: { scope: 'read' } },
      token: { url: `${base}/oauth/token` },
      userinfo: { url: `${base}/api/v1/accounts/verify_credentials` },
    })),
    profile: (profile) => ({ id: profile.id, name: profile.username, email: null, image: profile.avatar_static }),
    style: { brandColor: '#6364ff' },
    // The server URL only builds the endpoints: Mastodon's authorization response carries no `iss`.
    options: rest,
  }
}
