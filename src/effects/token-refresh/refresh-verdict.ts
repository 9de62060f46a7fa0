/**
 * What the session check makes of kept provider tokens: a provider with `tokenRefresh` whose tokens are gone (a
 * refresh it refused) marks the session with `error: "RefreshTokenError"`, or ends it when the app chose
 * `onFailure: "endSession"`.
 */
import type { EffectConfig } from '../shared/effect-env.js'
import { isMarked, type ProviderTokens } from './provider-tokens.js'

/** The error a marked session shows, as Auth.js's refresh recipe names it. */
export const refreshTokenError = 'RefreshTokenError'

/** `end`, `mark`, or undefined when every refreshing provider's tokens are alive. */
export function refreshVerdict(
  config: EffectConfig,
  kept: Iterable<readonly [providerId: string, tokens: ProviderTokens]>,
): 'end' | 'mark' | undefined {
  let verdict: 'mark' | undefined
  for (const [providerId, tokens] of kept) {
    const settings = config.tokenRefresh?.get(providerId)
    if (!settings || !isMarked(tokens)) continue
    if (settings.onFailure === 'endSession') return 'end'
    verdict = 'mark'
  }
  return verdict
}
