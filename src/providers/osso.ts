/**
 * Sign in through Osso (open-source SAML to OAuth 2 bridge).
 * @module providers/osso
 */
import { instanceEndpoints } from '../providers-internal/instance-endpoints.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as Osso's `GET /oauth/me` returns it. */
export interface OssoProfile {
  id: string
  email: string
  idp?: string
  requested?: { domain?: string; email?: string }
  [field: string]: unknown
}

/**
 * Osso as an OAuth 2 provider.
 * @param options `issuer` (required: your Osso deployment URL), `clientId`, `clientSecret`
 * @see https://ossoapp.com/docs/reference/oauth-api
 */
export default function Osso(options: OAuthUserConfig<OssoProfile> = {}): OAuthConfig<OssoProfile> {
  const { issuer: _serverUrl, ...rest } = options
  return {
    id: 'osso',
    name: 'Osso',
    type: 'oauth',
    ...instanceEndpoints(options.issuer, (base) => ({
      authorization: { url: `${base}/oauth/authorize` },
      token: { url: `${base}/oauth/token` },
      userinfo: { url: `${base}/oauth/me` },
    })),
    checks: ['state'],
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (profile) => ({ id: profile.id, name: null, email: profile.email, image: null }),
    style: { brandColor: '#5b5fc7' },
    options: rest,
  }
}
