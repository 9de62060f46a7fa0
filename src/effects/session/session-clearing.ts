/** The session machine's commands that do not depend on the strategy. */
import type { EffectEnv } from '../shared/effect-env.js'
import type { SessionScratch } from './session-scratch.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'

/** `clearSession` without a stored session to remove: forget the session and clear its cookie. */
export function clearSessionOutcome(
  scratch: Partial<SessionScratch>,
  _params: { removeStored: boolean },
): { type: 'SESSION_CLEARED' } {
  scratch.clearSession = true
  scratch.issuedSession = undefined
  scratch.session = null
  return { type: 'SESSION_CLEARED' }
}

/**
 * `clearSession` (forget the session, clear its cookie; with `removeStored`, also remove it where it is stored) and
 * `runRedirectCallback`, for either strategy. `removeStored` is the strategy's own removal (a database row).
 */
export function strategyNeutralSessionEffects(env: EffectEnv, removeStored: () => Promise<void>) {
  return {
    async clearSession(params: { removeStored: boolean }, scratch: Partial<SessionScratch>) {
      if (params.removeStored) await removeStored()
      return clearSessionOutcome(scratch, params)
    },
    runRedirectCallback: (params: { url: string }) => runRedirectCallback(env, params),
  }
}
