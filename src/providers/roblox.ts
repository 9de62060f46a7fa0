/**
 * Sign in with Roblox (OpenID Connect).
 * @module providers/roblox
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Roblox ID token (`profile` scope). */
export interface RobloxProfile {
  sub: string
  name?: string
  nickname?: string
  preferred_username?: string
  created_at?: number
  profile?: string
  picture?: string | null
  [claim: string]: unknown
}

/**
 * Roblox as an OIDC provider. Roblox gives no e-mail address.
 * @see https://create.roblox.com/docs/cloud/open-cloud/oauth2-reference
 */
export default function Roblox(options: OIDCUserConfig<RobloxProfile> = {}): OIDCConfig<RobloxProfile> {
  return {
    id: 'roblox',
    name: 'Roblox',
    type: 'oidc',
    issuer: 'https://apis.roblox.com/oauth/',
    authorization: { params: { scope: 'openid profile' } },
    checks: ['pkce', 'state'],
    // Roblox: `name` is the display name; `preferred_username` is the unique user name.
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
      email: null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: '#000000' },
    options,
  }
}
