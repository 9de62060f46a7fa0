/**
 * The one HTTP answer to a sign-in that reached the end of the shared completion (machines/sign-in-completion.ts):
 * signed in, or sent elsewhere by the `signIn` callback. Every sign-in method ends here, so a sign-up lands on
 * `pages.newUser` the same way whichever method created the user (Auth.js keeps the callback URL in its query).
 */
import type { SessionCookieWrites } from '../../effects/shared/session-cookie-writes.js'
import { toFlowRecord, type FlowResult } from '../../flow/runtime.js'
import type { MachineRegistry, SignInMachineId } from '../../../machines/index.js'
import { flowMaxAge } from '../cookie-set.js'
import type { ResponseInternal } from '../../types/index.js'
import type { RequestContext } from '../context.js'
import { applySessionOutcome } from '../effect-outcome.js'
import { actionUrl } from '../context.js'

/**
 * A run of one of the sign-in machines: each ends with the completion's output (machines/sign-in-completion.ts), and
 * leaves the session's cookie writes in its scratch (`SignInScratch`).
 */
export type SignInResult = FlowResult<SignInMachine, Partial<SessionCookieWrites>>

/** Any of the sign-in machines (credentials, e-mail, OAuth, passkey). */
export type SignInMachine = MachineRegistry[SignInMachineId]['machine']

/** Whether the sign-in stopped at the second-factor challenge (its flow is stored; `ref` names it). */
export function awaitsSecondFactor(result: SignInResult): boolean {
  return result.status === 'active' && result.value.endsWith('.awaitingSecondFactor')
}

/**
 * The sign-in stopped at the challenge: the browser keeps which machine and which stored flow in the second-factor
 * cookie, and goes to the challenge page (GET /second-factor), where any instance can finish it.
 */
export async function secondFactorStop(
  ctx: RequestContext,
  machineId: SignInMachineId,
  result: SignInResult,
): Promise<ResponseInternal> {
  // A flow that began in this request (credentials, an e-mail link, a passkey) was run without a store: it is kept
  // now, the way the runtime keeps every waiting flow. A resumed one (OAuth's callback) was kept by the runtime.
  const entry = ctx.config.machines[machineId]
  const ref =
    result.ref ??
    (await ctx.config.flowStore.save(
      toFlowRecord(
        { value: result.value, context: { ...result.context }, status: 'active' },
        machineId,
        entry.version,
        ctx.now + flowMaxAge,
      ),
      null,
    ))
  const { name, options } = ctx.cookies.secondFactor
  ctx.setCookies.push({ name, value: `${machineId}:${ref}`, options })
  return { redirect: actionUrl(ctx, 'second-factor'), cookies: ctx.setCookies }
}

/** Whether the flow ended in one of the completion's two answers that are not a refusal. */
export function completedSignIn(result: SignInResult): boolean {
  return result.value === 'signedIn' || result.value === 'redirected'
}

/** The redirect (with the session cookie, when one was issued) for a flow that `completedSignIn`. */
export function signInAnswer(ctx: RequestContext, result: SignInResult): ResponseInternal {
  const context = result.output ?? {}
  applySessionOutcome(ctx, result.scratch)
  // The policy wants a factor the user has not enrolled: signed in, and sent to enrol one before going on.
  if (result.value === 'signedIn' && context.secondFactorEnrolmentRequired === true) {
    const target = new URL(actionUrl(ctx, 'factors'))
    target.searchParams.set('callbackUrl', context.redirectTo ?? context.callbackUrl ?? ctx.origin)
    return { redirect: target.href, cookies: ctx.setCookies }
  }
  const newUserPage = ctx.config.pages.newUser
  if (result.value === 'signedIn' && context.isNewUser === true && newUserPage) {
    const target = new URL(newUserPage, ctx.origin)
    target.searchParams.set('callbackUrl', context.callbackUrl ?? ctx.origin)
    return { redirect: target.href, cookies: ctx.setCookies }
  }
  return { redirect: context.redirectTo, cookies: ctx.setCookies }
}
