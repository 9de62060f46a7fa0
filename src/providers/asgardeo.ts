/**
 * Sign in with Asgardeo by WSO2 (OpenID Connect).
 * @module providers/asgardeo
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import { joinName, trimSlash } from '../providers-internal/names.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of an Asgardeo ID token. */
export interface AsgardeoProfile extends StandardOidcProfile {
  given_name?: string
  family_name?: string
}

/** The issuer Asgardeo's ID tokens carry: the organisation URL followed by /oauth2/token. */
function tokenIssuer(issuer: string): string {
  const base = trimSlash(issuer)
  return base.endsWith('/oauth2/token') ? base : `${base}/oauth2/token`
}

/**
 * Asgardeo as an OIDC provider.
 * @param options `issuer` (required: `https://api.asgardeo.io/t/<organisation>`; the `/oauth2/token` suffix Asgardeo
 *   puts in its tokens is added when missing), `clientId`, `clientSecret`. `AUTH_ASGARDEO_ISSUER` is read after the
 *   factory ran, so it must be the full issuer, `https://api.asgardeo.io/t/<organisation>/oauth2/token`.
 * @see https://wso2.com/asgardeo/docs/references/app-settings/oidc-settings-for-app/
 */
export default function Asgardeo(options: OIDCUserConfig<AsgardeoProfile> = {}): OIDCConfig<AsgardeoProfile> {
  return {
    id: 'asgardeo',
    name: 'Asgardeo',
    type: 'oidc',
    authorization: { params: { scope: 'openid email profile' } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? joinName(profile.given_name, profile.family_name),
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#ff7300' },
    options: options.issuer ? { ...options, issuer: tokenIssuer(options.issuer) } : options,
  }
}
