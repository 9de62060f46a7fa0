/**
 * Sign in with EVE Online (EVE SSO).
 * @module providers/eveonline
 */
import type { OAuthConfig, OAuthUserConfig } from '../types/providers.js'

/** What EVE SSO's `GET /oauth/verify` returns about the chosen character. */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn?: string
  Scopes?: string
  TokenType?: string
  CharacterOwnerHash: string
  IntellectualProperty?: string
  [field: string]: unknown
}

/**
 * EVE Online as an OAuth 2 provider. A sign-in picks a character, not a person; there is no e-mail address.
 * @see https://developers.eveonline.com/docs/services/sso/
 */
export default function EVEOnline(options: OAuthUserConfig<EVEOnlineProfile> = {}): OAuthConfig<EVEOnlineProfile> {
  return {
    id: 'eveonline',
    name: 'EVE Online',
    type: 'oauth',
    authorization: { url: 'https://login.eveonline.com/v2/oauth/authorize', params: { scope: 'publicData' } },
    token: { url: 'https://login.eveonline.com/v2/oauth/token' },
    userinfo: { url: 'https://login.eveonline.com/oauth/verify' },
    // EVE SSO: the authorization request is refused without state.
    checks: ['state'],
    profile: (profile) => ({
      id: String(profile.CharacterID),
      name: profile.CharacterName,
      email: null,
      image: `https://image.eveonline.com/Character/${profile.CharacterID}_128.jpg`,
    }),
    style: { brandColor: '#1a1a1a' },
    options,
  }
}
