/**
 * Sign in through WorkOS SSO (enterprise SAML / OIDC connections).
 * @module providers/workos
 */
import { joinName, trimSlash } from '../providers-internal/names.js'
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** The profile as WorkOS's `GET /sso/profile` returns it. */
export interface WorkOSProfile {
  id: string
  email: string
  first_name: string | null
  last_name: string | null
  connection_id: string
  connection_type: string
  organization_id: string | null
  idp_id: string
  raw_attributes?: { picture?: string; [attribute: string]: unknown }
  [field: string]: unknown
}

/**
 * WorkOS as an OAuth 2 provider. Which connection to use is set with the `connection` option, or chosen per sign-in
 * with an authorization parameter: `connection`, `organization`, `domain` or `provider`
 * (`signIn('workos', {}, { organization: 'org_...' })`).
 * @param options `clientId`, `clientSecret` (the WorkOS API key), `connection`; `issuer` for another API host
 * @see https://workos.com/docs/reference/sso
 */
export default function WorkOS(
  options: OAuthUserConfig<WorkOSProfile> & { connection?: string } = {},
): OAuthConfig<WorkOSProfile> {
  const base = trimSlash(options.issuer ?? 'https://api.workos.com')
  const { issuer: _apiHost, connection, ...rest } = options
  return {
    id: 'workos',
    name: 'WorkOS',
    type: 'oauth',
    authorization: { url: `${base}/sso/authorize`, params: connection ? { connection } : {} },
    token: { url: `${base}/sso/token` },
    userinfo: { url: `${base}/sso/profile` },
    client: { token_endpoint_auth_method: 'client_secret_post' },
    checks: ['state'],
    profile: (profile) => ({
      id: profile.id,
      name: joinName(profile.first_name, profile.last_name),
      email: profile.email,
      image: profile.raw_attributes?.picture ?? null,
    }),
    style: { brandColor: '#6363f1' },
    options: rest,
  }
}
