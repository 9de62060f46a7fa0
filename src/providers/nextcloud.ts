/**
 * Sign in with a Nextcloud server.
 * @module providers/nextcloud
 */
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import { trimSlash } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from './provider-types.js'

/** What Nextcloud's OCS `GET /cloud/user` returns: the user under `ocs.data`. */
export interface NextcloudProfile {
  ocs: { data: { id: string; displayname: string; email: string | null; [field: string]: unknown } }
  [field: string]: unknown
}

/**
 * Nextcloud as an OAuth 2 provider.
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
      // Nextcloud: OCS answers XML unless asked for JSON.
      userinfo: { url: `${base}/ocs/v2.php/cloud/user`, params: { format: 'json' } },
    })),
    checks: ['state'],
    profile: ({ ocs: { data } }) => ({ id: data.id, name: data.displayname, email: data.email, image: `${server}/avatar/${encodeURIComponent(data.id)}/64` }),
    style: { brandColor: '#0082c9' },
    options: rest,
  }
}
