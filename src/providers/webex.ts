/**
 * Sign in with Webex (Cisco).
 * @module providers/webex
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The person as Webex's `GET /v1/people/me` returns it. */
export interface WebexProfile {
  id: string
  emails: string[]
  displayName?: string
  avatar?: string
  [field: string]: unknown
}

/**
 * Webex as an OAuth 2 provider.
 * @param options `clientId`, `clientSecret`; `apiBaseUrl` for a FedRAMP or other Webex cloud (default
 *   https://webexapis.com/v1)
 * @see https://developer.webex.com/docs/integrations
 */
export default function Webex(
  options: OAuthUserConfig<WebexProfile> & { apiBaseUrl?: string } = {},
): OAuthConfig<WebexProfile> {
  const { apiBaseUrl = 'https://webexapis.com/v1', ...rest } = options
  return {
    id: 'webex',
    name: 'Webex',
    type: 'oauth',
    authorization: { url: `${apiBaseUrl}/authorize`, params: { scope: 'spark:kms spark:people_read' } },
    token: { url: `${apiBaseUrl}/access_token` },
    userinfo: { url: `${apiBaseUrl}/people/me` },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.displayName ?? null,
      email: profile.emails[0] ?? null,
      image: profile.avatar ?? null,
    }),
    style: { brandColor: '#07c1e4' },
    options: rest,
  }
}
