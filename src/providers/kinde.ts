/**
 * Sign in with Kinde (OpenID Connect).
 * @module providers/kinde
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import { joinName } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Kinde ID token. */
export interface KindeProfile extends StandardOidcProfile {
  given_name?: string
  family_name?: string
}

/**
 * Kinde as an OIDC provider.
 * @param options `issuer` (required: `https://<your business>.kinde.com`), `clientId`, `clientSecret`
 * @see https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 */
export default function Kinde(options: OIDCUserConfig<KindeProfile> = {}): OIDCConfig<KindeProfile> {
  return {
    id: 'kinde',
    name: 'Kinde',
    type: 'oidc',
    // Kinde: add the `offline` scope (not offline_access) for a refresh token.
    authorization: { params: { scope: 'openid profile email' } },
    checks: ['state', 'pkce'],
    profile: (profile) => ({
      id: profile.sub,
      name:
        profile.name ??
        profile.nickname ??
        profile.preferred_username ??
        joinName(profile.given_name, profile.family_name),
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
