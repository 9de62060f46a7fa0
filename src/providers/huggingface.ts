/**
 * Sign in with Hugging Face (OpenID Connect).
 * @module providers/huggingface
 */
import type { StandardOidcProfile } from '../providers-internal/issuer-oidc.js'
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Hugging Face ID token (`profile` and `email` scopes). */
export interface HuggingfaceProfile extends StandardOidcProfile {
  isPro?: boolean
  canPay?: boolean
  orgs?: { sub: string; name: string; preferred_username: string; picture: string }[]
}

/**
 * Hugging Face as an OIDC provider.
 * @see https://huggingface.co/docs/hub/oauth
 */
export default function Huggingface(options: OIDCUserConfig<HuggingfaceProfile> = {}): OIDCConfig<HuggingfaceProfile> {
  return {
    id: 'huggingface',
    name: 'Hugging Face',
    type: 'oidc',
    issuer: 'https://huggingface.co',
    // Auth.js's default scope; an OAuth app without the e-mail scope enabled sets `authorization.params.scope`.
    authorization: { url: 'https://huggingface.co/oauth/authorize', params: { scope: 'openid profile email' } },
    checks: ['state', 'pkce'],
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#ffd21e' },
    options,
  }
}
