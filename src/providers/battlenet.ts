/**
 * Sign in with Battle.net (OpenID Connect).
 * @module providers/battlenet
 */
import type { OIDCConfig, OIDCUserConfig } from '../types/providers.js'

/** Claims of a Battle.net ID token. */
export interface BattleNetProfile {
  sub: string
  battle_tag: string
  [claim: string]: unknown
}

/** Battle.net's issuers: one global, one for China, and the older regional ones. */
export type BattleNetIssuer =
  | 'https://oauth.battle.net'
  | 'https://oauth.battlenet.com.cn'
  | 'https://www.battlenet.com.cn/oauth'
  | `https://${'us' | 'eu' | 'kr' | 'tw'}.battle.net/oauth`

/**
 * Battle.net as an OIDC provider. Battle.net gives no e-mail address.
 * @param options `issuer` (required, one of `BattleNetIssuer`), `clientId`, `clientSecret`
 * @see https://develop.battle.net/documentation/guides/using-oauth
 */
export default function BattleNet(
  options: OIDCUserConfig<BattleNetProfile> & { issuer?: BattleNetIssuer } = {},
): OIDCConfig<BattleNetProfile> {
  return {
    id: 'battlenet',
    name: 'Battle.net',
    type: 'oidc',
    profile: (profile) => ({ id: profile.sub, name: profile.battle_tag, email: null, image: null }),
    style: { brandColor: '#148eff' },
    options,
  }
}
