/**
 * The second-factor input of one request: the adapter's
 * factor methods (when it stores factors), the app's secrets (which open the sealed TOTP secrets) and, on the request
 * that answers a challenge, what the browser posted.
 */
import type { FactorStore, SecondFactorInput } from '../effects/shared/second-factor.js'
import type { RequestContext } from './context.js'

/** The adapter's factor methods, when the app's adapter has the ones the challenge needs. */
function factorStoreOf(ctx: RequestContext): FactorStore | undefined {
  const source = ctx.config.source.adapter
  const adapter = ctx.config.adapter
  const stores =
    typeof source?.listFactorsByUserId === 'function' &&
    typeof source.useTotpStep === 'function' &&
    typeof source.useRecoveryCode === 'function'
  return stores && adapter ? adapter : undefined
}

/** This request's second-factor input; `answer` only on the request that answers a challenge. */
export function secondFactorInputFor(ctx: RequestContext, answer?: SecondFactorInput['answer']): SecondFactorInput {
  return { settings: ctx.config.secondFactor, factors: factorStoreOf(ctx), secrets: ctx.config.secrets, answer }
}
