/**
 * Sign in with Descope (OpenID Connect).
 * @module providers/descope
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Descope ID token. */
export type DescopeProfile = StandardOidcProfile

/**
 * Descope as an OIDC provider. The issuer is your project's: `https://api.descope.com/<project id>`; when `issuer` is
 * not given it is built from `clientId`, which for Descope is the project id.
 * @see https://docs.descope.com/sso-integrations/applications/oidc-apps
 */
export default function Descope(options: OIDCUserConfig<DescopeProfile> = {}): OIDCConfig<DescopeProfile> {
  return {
    id: 'descope',
    name: 'Descope',
    type: 'oidc',
    ...(options.clientId ? { issuer: `https://api.descope.com/${options.clientId}` } : {}),
    authorization: { params: { scope: 'openid email profile' } },
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#1c1c23' },
    options,
  }
}
