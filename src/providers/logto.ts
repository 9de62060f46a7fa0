/**
 * Sign in with Logto (OpenID Connect).
 * @module providers/logto
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Logto ID token. */
export interface LogtoProfile extends StandardOidcProfile {
  username?: string
}

/**
 * Logto as an OIDC provider.
 * @param options `issuer` (required: `https://<tenant>.logto.app/oidc`), `clientId`, `clientSecret`
 * @see https://docs.logto.io/docs/references/openid-connect
 */
export default function Logto(options: OIDCUserConfig<LogtoProfile> = {}): OIDCConfig<LogtoProfile> {
  return {
    id: 'logto',
    name: 'Logto',
    type: 'oidc',
    authorization: { params: { scope: 'offline_access openid email profile' } },
    checks: ['pkce', 'state'],
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.username ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#5d34f2' },
    options,
  }
}
