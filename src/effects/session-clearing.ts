/** The session machine's commands that do not depend on the strategy. */
import type { EffectHandlers } from '../flow/runtime.js'
import type { EffectEnv } from './effect-env.js'
import { runRedirectCallback } from './redirect-callback.js'

/** `clearSession` (forget the session, clear its cookie) and `runRedirectCallback`, for either strategy. */
export function strategyNeutralSessionEffects(env: EffectEnv): Pick<EffectHandlers, 'clearSession' | 'runRedirectCallback'> {
  return {
    async clearSession() {
      env.outcome.clearSession = true
      env.outcome.issuedSession = undefined
      env.outcome.session = null
      return { type: 'SESSION_CLEARED' }
    },
    runRedirectCallback: (params) => runRedirectCallback(env, params),
  }
}
