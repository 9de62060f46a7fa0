/**
 * Sign in with Ory Hydra or Ory Network (OpenID Connect).
 * @module providers/ory-hydra
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of an Ory Hydra ID token. */
export type OryHydraProfile = StandardOidcProfile

/**
 * Ory Hydra as an OIDC provider.
 * @param options `issuer` (required: your Hydra public URL or Ory project URL), `clientId`, `clientSecret`
 * @see https://www.ory.sh/docs/hydra/guides/oauth2-clients
 */
export default function OryHydra(options: OIDCUserConfig<OryHydraProfile> = {}): OIDCConfig<OryHydraProfile> {
  return {
    id: 'ory-hydra',
    name: 'Ory Hydra',
    type: 'oidc',
    // Ory: refresh tokens are issued only for the offline_access scope.
    authorization: { params: { scope: 'openid offline_access email profile' } },
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#5528ff' },
    options,
  }
}
