/**
 * Sign in with FusionAuth (OpenID Connect).
 * @module providers/fusionauth
 */
import type { StandardOidcProfile } from './issuer-oidc.js'
import { trimSlash } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from './provider-types.js'

/** Claims of a FusionAuth ID token. */
export interface FusionAuthProfile extends StandardOidcProfile {
  aud: string
  applicationId?: string
  authenticationType?: string
  roles?: string[]
  tid?: string
}

/** Options of `FusionAuth()`: the usual ones, plus the tenant when the instance has several. */
export type FusionAuthUserConfig = OIDCUserConfig<FusionAuthProfile> & { tenantId?: string }

/**
 * FusionAuth as an OIDC provider.
 * @param options `issuer` (required: your FusionAuth URL), `clientId`, `clientSecret`, and `tenantId` on an instance
 *   with several tenants (FusionAuth then serves discovery per tenant)
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/
 */
export default function FusionAuth(options: FusionAuthUserConfig = {}): OIDCConfig<FusionAuthProfile> {
  const { tenantId, ...rest } = options
  return {
    id: 'fusionauth',
    name: 'FusionAuth',
    type: 'oidc',
    ...(tenantId && rest.issuer ? { wellKnown: `${trimSlash(rest.issuer)}/.well-known/openid-configuration/${tenantId}` } : {}),
    authorization: { params: { scope: 'openid offline_access email profile' } },
    checks: ['pkce', 'state'],
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    style: { brandColor: '#f58320' },
    options: rest,
  }
}
