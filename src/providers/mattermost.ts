/**
 * Sign in with a Mattermost server.
 * @module providers/mattermost
 */
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import { joinName } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Mattermost's `GET /api/v4/users/me` returns it. */
export interface MattermostProfile {
  id: string
  username: string
  first_name?: string
  last_name?: string
  nickname?: string
  email: string
  [field: string]: unknown
}

/**
 * Mattermost as an OAuth 2 provider (Mattermost acting as the OAuth 2 service provider).
 * @param options `issuer` (required: the server URL), `clientId`, `clientSecret`
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 */
export default function Mattermost(options: OAuthUserConfig<MattermostProfile> = {}): OAuthConfig<MattermostProfile> {
  const { issuer: _serverUrl, ...rest } = options
  return {
    id: 'mattermost',
    name: 'Mattermost',
    type: 'oauth',
    ...instanceEndpoints(options.issuer, (base) => ({
      authorization: { url: `${base}/oauth/authorize` },
      token: { url: `${base}/oauth/access_token` },
      userinfo: { url: `${base}/api/v4/users/me` },
    })),
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.username ?? joinName(profile.first_name, profile.last_name),
      email: profile.email,
      image: null,
    }),
    style: { brandColor: '#1e325c' },
    options: rest,
  }
}
