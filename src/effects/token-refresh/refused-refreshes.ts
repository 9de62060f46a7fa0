/**
 * What the session check reports about kept provider tokens: the providers with `tokenRefresh` whose tokens are gone
 * (a refresh the provider refused dropped them), each with the app's `onFailure`. The session machine decides from
 * them whether the session is marked (`error: "RefreshTokenError"`) or ended (machines/session.ts).
 */
import type { RefusedRefresh } from '../../../machines/session.js'
import type { EffectConfig } from '../shared/effect-env.js'
import { isMarked, type ProviderTokens } from './provider-tokens.js'

/** The error a marked session shows, as Auth.js's refresh recipe names it. */
export const refreshTokenError = 'RefreshTokenError'

/** The refused refreshes among the kept tokens; undefined when every refreshing provider's tokens are alive. */
export function refusedRefreshes(
  config: EffectConfig,
  kept: Iterable<readonly [providerId: string, tokens: ProviderTokens]>,
): RefusedRefresh[] | undefined {
  let refused: RefusedRefresh[] | undefined
  for (const [providerId, tokens] of kept) {
    const settings = config.tokenRefresh?.get(providerId)
    if (!settings || !isMarked(tokens)) continue
    refused ??= []
    refused.push({ providerId, endSessionOnFailure: settings.onFailure === 'endSession' })
  }
  return refused
}
