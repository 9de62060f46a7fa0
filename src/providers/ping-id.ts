/**
 * Sign in with PingOne (Ping Identity, OpenID Connect).
 * @module providers/ping-id
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import { joinName } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a PingOne ID token. */
export interface PingProfile extends StandardOidcProfile {
  given_name?: string
  family_name?: string
}

/**
 * PingOne as an OIDC provider.
 * @param options `issuer` (required: `https://auth.pingone.<region>/<environment id>/as`), `clientId`, `clientSecret`
 * @see https://docs.pingidentity.com/r/en-us/pingone/p1_c_connections_oidc
 */
export default function PingId(options: OIDCUserConfig<PingProfile> = {}): OIDCConfig<PingProfile> {
  return {
    id: 'ping-id',
    name: 'Ping Identity',
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? joinName(profile.given_name, profile.family_name),
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#b3282d' },
    options,
  }
}
