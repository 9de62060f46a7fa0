/**
 * Sign in with FusionAuth.
 * @module providers/fusionauth
 */
import { trimSlash } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** The user as FusionAuth's userinfo endpoint returns it. */
export interface FusionAuthProfile {
  sub: string
  aud?: string
  applicationId?: string
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  picture?: string
  roles?: string[]
  tid?: string
  [claim: string]: unknown
}

/** Options of `FusionAuth()`: the usual ones, plus the tenant when the instance has several. */
export type FusionAuthUserConfig = OIDCUserConfig<FusionAuthProfile> & { tenantId?: string }

/**
 * FusionAuth as an OpenID Connect provider, as in Auth.js: its endpoints come from the discovery document (per
 * tenant when `tenantId` is given), and it asks for `openid offline_access email profile`.
 * @param options `issuer` (required: your FusionAuth URL), `clientId`, `clientSecret`, and `tenantId` on an instance
 *   with several tenants (FusionAuth then serves discovery, and signs in, per tenant)
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/
 */
export default function FusionAuth(options: FusionAuthUserConfig = {}): OIDCConfig<FusionAuthProfile> {
  const { tenantId, ...rest } = options
  const base = rest.issuer ? trimSlash(rest.issuer) : undefined
  const tenantQuery = tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : ''
  return {
    id: 'fusionauth',
    name: 'FusionAuth',
    type: 'oidc',
    ...(base ? { issuer: base, wellKnown: `${base}/.well-known/openid-configuration${tenantQuery}` } : {}),
    authorization: {
      params: { scope: 'openid offline_access email profile', ...(tenantId ? { tenantId } : {}) },
    },
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      name:
        profile.name ??
        profile.preferred_username ??
        ([profile.given_name, profile.middle_name, profile.family_name].filter(Boolean).join(' ') || null),
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#f58320' },
    options: rest,
  }
}
