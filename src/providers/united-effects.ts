/**
 * Sign in with United Effects (OpenID Connect).
 * @module providers/united-effects
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a United Effects ID token: an e-mail address and the subject, no name. */
export interface UnitedEffectsProfile {
  sub: string
  email?: string
  [claim: string]: unknown
}

/**
 * United Effects as an OIDC provider.
 * @param options `issuer` (required: `https://auth.unitedeffects.com/<auth group id>`), `clientId`, `clientSecret`
 * @see https://docs.unitedeffects.com/integrations/oauth-and-oidc
 */
export default function UnitedEffects(
  options: OIDCUserConfig<UnitedEffectsProfile> = {},
): OIDCConfig<UnitedEffectsProfile> {
  return {
    id: 'united-effects',
    name: 'United Effects',
    type: 'oidc',
    // United Effects: the resource indicator is the auth group's issuer URL.
    authorization: {
      params: { scope: 'openid email profile', ...(options.issuer ? { resource: options.issuer } : {}) },
    },
    // United Effects: the ID token names no user; the e-mail address is all there is.
    profile: (profile) => ({ id: profile.sub, name: null, email: profile.email ?? null, image: null }),
    style: { brandColor: '#000000' },
    options,
  }
}
