/**
 * Sign in with Passage by 1Password (OpenID Connect, passkeys).
 * @module providers/passage
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Passage ID token. */
export interface PassageProfile {
  sub: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Passage as an OIDC provider.
 * @param options `issuer` (required: `https://<app id>.withpassage.com`), `clientId`, `clientSecret`
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 */
export default function Passage(options: OIDCUserConfig<PassageProfile> = {}): OIDCConfig<PassageProfile> {
  return {
    id: 'passage',
    name: 'Passage',
    type: 'oidc',
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    checks: ['pkce', 'state'],
    profile: (profile) => ({ id: profile.sub, name: null, email: profile.email ?? null, image: null }),
    style: { brandColor: '#000000' },
    options,
  }
}
