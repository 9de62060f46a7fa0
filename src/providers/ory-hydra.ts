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
    // Auth.js's id (its module is `ory-hydra`, its id `hydra`): the callback path, `Account.provider` and the
    // AUTH_HYDRA_* variables stay what a migrating app registered. No `offline_access` by default: Hydra refuses
    // the scope to a client not allowed it; an app that wants refresh tokens asks for it in `authorization.params`.
    id: 'hydra',
    name: 'Hydra',
    type: 'oidc',
    authorization: { params: { scope: 'openid profile email' } },
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
