/**
 * Sign in with SimpleLogin (OpenID Connect).
 * @module providers/simplelogin
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims SimpleLogin gives about the user. */
export interface SimpleLoginProfile {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  avatar_url?: string | null
  client?: string
  [claim: string]: unknown
}

/**
 * SimpleLogin as an OIDC provider. The e-mail address may be an alias the user created for your app.
 * @see https://simplelogin.io/developer/
 */
export default function SimpleLogin(options: OIDCUserConfig<SimpleLoginProfile> = {}): OIDCConfig<SimpleLoginProfile> {
  return {
    id: 'simplelogin',
    name: 'SimpleLogin',
    type: 'oidc',
    issuer: 'https://app.simplelogin.io',
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.avatar_url ?? null,
    }),
    style: { brandColor: '#e3156a' },
    options,
  }
}
