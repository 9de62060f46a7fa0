/**
 * Sign in with a Nextcloud server.
 * @module providers/nextcloud
 */
import { requestJsonWithBearer } from '../providers-internal/bearer-request.js'
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import { trimSlash } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthConfigInternal, OAuthUserConfig } from '../types/providers.js'
import type { TokenSet } from '../types/index.js'
import { scalarText } from '../security/scalar-text.js'

/** The user as Nextcloud's OCS user provisioning API returns it (the `ocs.data` of `GET /cloud/users/<id>`). */
export interface NextcloudProfile {
  id: string
  displayname: string
  email: string | null
  enabled?: boolean
  [field: string]: unknown
}

async function fetchOcsUser({
  tokens,
  provider,
}: {
  tokens: TokenSet
  provider: OAuthConfigInternal
}): Promise<unknown> {
  // Nextcloud: the token response names the user (`user_id`); OCS answers XML unless asked for JSON, and refuses
  // requests without the OCS-APIRequest header.
  const usersUrl = provider.userinfo && typeof provider.userinfo !== 'string' ? provider.userinfo.url : undefined
  const answer = (await requestJsonWithBearer(
    provider,
    `${usersUrl ?? ''}/${encodeURIComponent(scalarText(tokens.user_id))}`,
    tokens.access_token,
    {
      headers: { 'ocs-apirequest': 'true' },
    },
  )) as { ocs?: { data?: unknown } }
  return answer.ocs?.data
}

/**
 * Nextcloud as an OAuth 2 provider. Nextcloud tokens are not scoped: each gives full access to the account.
 * @param options `issuer` (required: the server URL), `clientId`, `clientSecret`
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 */
export default function Nextcloud(options: OAuthUserConfig<NextcloudProfile> = {}): OAuthConfig<NextcloudProfile> {
  const server = trimSlash(options.issuer ?? '')
  const { issuer: _serverUrl, ...rest } = options
  return {
    id: 'nextcloud',
    name: 'Nextcloud',
    type: 'oauth',
    ...instanceEndpoints(options.issuer, (base) => ({
      authorization: { url: `${base}/apps/oauth2/authorize` },
      token: { url: `${base}/apps/oauth2/api/v1/token` },
      userinfo: { url: `${base}/ocs/v1.php/cloud/users`, request: fetchOcsUser },
    })),
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: profile.displayname,
      email: profile.email,
      image: `${server}/avatar/${encodeURIComponent(profile.id)}/512`,
    }),
    style: { brandColor: '#0082c9' },
    options: rest,
  }
}
