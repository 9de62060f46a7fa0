/**
 * Sign in with FusionAuth.
 * @module providers/fusionauth
 */
import { trimSlash } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The user as FusionAuth's userinfo endpoint returns it. */
export interface FusionAuthProfile {
  sub: string
  aud?: string
  applicationId?: string
  email?: string
  email_verified?: boolean
  preferred_username?: string
  roles?: string[]
  tid?: string
  [claim: string]: unknown
}

/** Options of `FusionAuth()`: the usual ones, plus the tenant when the instance has several. */
export type FusionAuthUserConfig = OAuthUserConfig<FusionAuthProfile> & { tenantId?: string }

/**
 * FusionAuth as an OAuth 2 provider whose endpoints come from its discovery document (as in Auth.js, the type is
 * `oauth`: the profile is read from the userinfo endpoint).
 * @param options `issuer` (required: your FusionAuth URL), `clientId`, `clientSecret`, and `tenantId` on an instance
 *   with several tenants (FusionAuth then serves discovery, and signs in, per tenant)
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/
 */
export default function FusionAuth(options: FusionAuthUserConfig = {}): OAuthConfig<FusionAuthProfile> {
  const { tenantId, ...rest } = options
  const base = rest.issuer ? trimSlash(rest.issuer) : undefined
  const tenantQuery = tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : ''
  return {
    id: 'fusionauth',
    name: 'FusionAuth',
    type: 'oauth',
    ...(base ? { wellKnown: `${base}/.well-known/openid-configuration${tenantQuery}` } : {}),
    authorization: { params: { scope: 'openid offline_access', ...(tenantId ? { tenantId } : {}) } },
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: null,
    }),
    style: { brandColor: '#f58320' },
    options: rest,
  }
}
