/**
 * The one HTTP answer to a sign-in that reached the end of the shared completion (machines/sign-in-completion.ts):
 * signed in, or sent elsewhere by the `signIn` callback. Every sign-in method ends here, so a sign-up lands on
 * `pages.newUser` the same way whichever method created the user (Auth.js keeps the callback URL in its query).
 */
import type { EffectEnv } from '../../effects/shared/effect-env.js'
import type { FlowResult } from '../../flow/runtime.js'
import type { ResponseInternal } from '../../types/index.js'
import type { RequestContext } from '../context.js'
import { applySessionOutcome } from '../effect-outcome.js'

/** What the completion leaves in a sign-in machine's context. */
interface CompletionContext {
  redirectTo?: string
  isNewUser?: boolean
  callbackUrl?: string
}

/** Whether the flow ended in one of the completion's two answers that are not a refusal. */
export function completedSignIn(result: FlowResult): boolean {
  return result.value === 'signedIn' || result.value === 'redirected'
}

/** The redirect (with the session cookie, when one was issued) for a flow that `completedSignIn`. */
export function signInAnswer(ctx: RequestContext, env: EffectEnv, result: FlowResult): ResponseInternal {
  const context = result.context as CompletionContext
  applySessionOutcome(ctx, env.outcome)
  const newUserPage = ctx.config.pages.newUser
  if (result.value === 'signedIn' && context.isNewUser === true && newUserPage) {
    const target = new URL(newUserPage, ctx.origin)
    target.searchParams.set('callbackUrl', context.callbackUrl ?? ctx.origin)
    return { redirect: target.href, cookies: ctx.setCookies }
  }
  return { redirect: context.redirectTo, cookies: ctx.setCookies }
}
