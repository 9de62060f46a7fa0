/**
 * Sign in with LinkedIn (OpenID Connect).
 * @module providers/linkedin
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a LinkedIn ID token. */
export interface LinkedInProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string | { country: string; language: string }
  [claim: string]: unknown
}

/**
 * LinkedIn as an OIDC provider ("Sign In with LinkedIn using OpenID Connect").
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 */
export default function LinkedIn(options: OIDCUserConfig<LinkedInProfile> = {}): OIDCConfig<LinkedInProfile> {
  return {
    id: 'linkedin',
    name: 'LinkedIn',
    type: 'oidc',
    issuer: 'https://www.linkedin.com/oauth',
    authorization: { params: { scope: 'openid profile email' } },
    // LinkedIn: the token endpoint wants the client secret in the form body.
    client: { token_endpoint_auth_method: 'client_secret_post' },
    // LinkedIn: PKCE is offered to native apps only; a web app's flow is bound to the browser by state.
    checks: ['state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#0a66c2' },
    options,
  }
}
