/**
 * Sign in with Google (OpenID Connect).
 * @module providers/google
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Google ID token. */
export interface GoogleProfile {
  iss: string
  sub: string
  aud: string
  email: string
  email_verified: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  /** The Google Workspace domain of the account, when it belongs to one. */
  hd?: string
  [claim: string]: unknown
}

/**
 * Google as an OIDC provider; endpoints come from its discovery document.
 * Pass `authorization: { params: { hd: 'example.com' } }` to suggest a Workspace domain, and check `profile.hd` in the
 * `signIn` callback to enforce it: Google documents `hd` in the request as a hint only.
 * @see https://developers.google.com/identity/openid-connect/openid-connect
 */
export default function Google(options: OIDCUserConfig<GoogleProfile> = {}): OIDCConfig<GoogleProfile> {
  return {
    id: 'google',
    name: 'Google',
    type: 'oidc',
    issuer: 'https://accounts.google.com',
    authorization: { params: { scope: 'openid email profile' } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#1a73e8' },
    options,
  }
}
