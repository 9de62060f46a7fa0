/**
 * GET /second-factor, the challenge page of a sign-in stopped at its second factor, and POST /second-factor, the
 * answer: it resumes the stored sign-in (whichever method began it, on whichever instance) with the shared
 * completion's handlers, so the machine counts the attempt, checks the answer and issues the session. A client that
 * sends `Accept: application/json` (an app with its own UI) gets JSON (docs/second-factors.md, "The challenge").
 */
import { FlowRejected } from '../../errors.js'
import { secondFactorHandlers } from '../../effects/shared/second-factor.js'
import type { SignInScratch } from '../../effects/shared/sign-in-scratch.js'
import { emitAppEvent } from '../../effects/shared/app-events.js'
import type { FlowAccount, FlowUser, SecondFactorKind } from '../../../machines/sign-in-completion.js'
import { passkeyFactors } from '../../effects/session/sign-in-authentication.js'
import { logRefusal } from '../../logger.js'
import { renderSecondFactorPage } from '../../pages/second-factor-page.js'
import type { Account, ResponseInternal, User } from '../../types/index.js'
import type { RequestContext } from '../context.js'
import { actionUrl, pageUrl } from '../context.js'
import { flowMaxAge } from '../cookie-set.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { pageHeaders, pageLocaleOf } from '../page-locale.js'
import { secondFactorInputFor } from '../second-factor.js'
import { sessionIssuerFor } from '../session-issuer.js'
import { ensureCsrfToken } from './read-only.js'
import { storedUserOf } from '../user-resolution.js'
import {
  awaitsSecondFactor,
  completedSignIn,
  signInAnswer,
  type SignInMachine,
  type SignInResult,
} from './sign-in-answer.js'
import type { SignInMachineId } from '../../../machines/index.js'
import { compiledMachineOf, fromFlowRecord } from '../../flow/runtime.js'

/** The machines that compose the completion, and so may stop at the challenge. */
const signInMachines: Readonly<Record<SignInMachineId, true>> = {
  credentials: true,
  email: true,
  oauth: true,
  webauthn: true,
}

function isSignInMachine(id: string): id is SignInMachineId {
  return Object.hasOwn(signInMachines, id)
}

const jsonHeaders = { 'content-type': 'application/json', 'cache-control': 'no-store' }

function wantsJson(ctx: RequestContext): boolean {
  return /\bapplication\/json\b/i.test(ctx.req.header('accept') ?? '')
}

function json(ctx: RequestContext, status: number, body: Record<string, unknown>): ResponseInternal {
  return { status, body, headers: jsonHeaders, cookies: ctx.setCookies }
}

/** The stopped sign-in the cookie names: its machine and its stored flow's ref. */
function stoppedSignIn(ctx: RequestContext): { machineId: SignInMachineId; ref: string } | undefined {
  const value = ctx.req.cookies.get(ctx.cookies.secondFactor.name)
  if (!value) return undefined
  const at = value.indexOf(':')
  const machineId = value.slice(0, at)
  const ref = value.slice(at + 1)
  return at > 0 && ref !== '' && isSignInMachine(machineId) ? { machineId, ref } : undefined
}

function clearCookie(ctx: RequestContext): void {
  const { name, options } = ctx.cookies.secondFactor
  ctx.setCookies.push({ name, value: '', options: { ...options, maxAge: 0 } })
}

/** The challenge page; `withPasskey` when the user holds a passkey that can answer (its button is shown). */
function page(ctx: RequestContext, status: number, problem?: 'wrongCode', withPasskey = false): ResponseInternal {
  const locale = pageLocaleOf(ctx)
  const body = renderSecondFactorPage({
    actionUrl: actionUrl(ctx, 'second-factor'),
    csrfToken: ctx.config.csrfEnabled ? ensureCsrfToken(ctx) : '',
    problem,
    ...(withPasskey ? { passkey: { basePath: `${ctx.origin}${ctx.config.basePath}` } } : {}),
    theme: ctx.config.theme,
    locale,
  })
  return { status, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/** No sign-in waits for a second factor here: JSON says so; a browser goes back to the sign-in page. */
function nothingToAnswer(ctx: RequestContext): ResponseInternal {
  if (wantsJson(ctx)) return json(ctx, 400, { error: 'NoChallenge', message: 'No sign-in waits for a second factor' })
  return { redirect: pageUrl(ctx, 'signIn'), cookies: ctx.setCookies }
}

/**
 * The challenge the stopped sign-in waits at, read without taking the flow out of its store (the answer does that):
 * who it is for and its id, from which a passkey's WebAuthn challenge is derived. Undefined when the flow is gone,
 * expired, or not waiting at the challenge.
 */
async function waitingChallenge(
  ctx: RequestContext,
  stopped: { machineId: string; ref: string },
): Promise<{ userId: string; challenge: string } | undefined> {
  const entry = ctx.config.machines[stopped.machineId]
  const record = await ctx.config.flowStore.load(stopped.ref)
  if (!entry || !record) return undefined
  try {
    const { value, context } = fromFlowRecord(record, compiledMachineOf(entry), entry.version, ctx.now)
    // The snapshot is read as the store kept it: each field is checked, not assumed.
    const { user, secondFactorChallenge, secondFactorExpiresAt } = context
    const userId = typeof user === 'object' && user !== null && 'id' in user ? user.id : undefined
    const waiting = value.endsWith('.awaitingSecondFactor') && Number(secondFactorExpiresAt) > ctx.now
    if (!waiting || typeof secondFactorChallenge !== 'string' || typeof userId !== 'string') return undefined
    return { userId, challenge: secondFactorChallenge }
  } catch (error) {
    if (error instanceof FlowRejected) return undefined
    throw error
  }
}

/**
 * The passkey answer for this stopped sign-in, if any. A sign-in whose first factor was a passkey is not answered by
 * a passkey again: the same kind of factor twice is not two factors.
 */
function passkeyAnswerFor(ctx: RequestContext, stopped: { machineId: string }) {
  return stopped.machineId === 'webauthn' ? undefined : secondFactorInputFor(ctx).passkey
}

/** Whether the user of the stopped sign-in holds a passkey that can answer it (the page then shows its button). */
async function answerableByPasskey(ctx: RequestContext, stopped: { machineId: string; ref: string }): Promise<boolean> {
  const passkey = passkeyAnswerFor(ctx, stopped)
  const waiting = passkey ? await waitingChallenge(ctx, stopped) : undefined
  return passkey !== undefined && waiting !== undefined && (await passkey.held(waiting.userId))
}

/**
 * GET /second-factor: the challenge page; as JSON, which answers it takes (`webauthn` when the user holds a
 * passkey), and with `?factor=webauthn` the request options for `navigator.credentials.get`.
 */
export async function secondFactorPageAction(ctx: RequestContext): Promise<ResponseInternal> {
  const stopped = stoppedSignIn(ctx)
  if (!stopped) return nothingToAnswer(ctx)
  const passkey = passkeyAnswerFor(ctx, stopped)
  const waiting = passkey ? await waitingChallenge(ctx, stopped) : undefined
  if (ctx.req.query.get('factor') === 'webauthn') {
    const options = passkey && waiting ? await passkey.options(waiting) : undefined
    if (!options) {
      logRefusal(ctx.config.logger, 'second-factor-code', { reason: 'passkey options without a passkey to answer' })
      return json(ctx, 404, { error: 'NoPasskey', message: 'No passkey can answer this sign-in' })
    }
    return json(ctx, 200, { options })
  }
  const withPasskey = passkey !== undefined && waiting !== undefined && (await passkey.held(waiting.userId))
  if (wantsJson(ctx)) return json(ctx, 200, { factors: ['otp', 'recovery', ...(withPasskey ? ['webauthn'] : [])] })
  return page(ctx, 200, undefined, withPasskey)
}

/** POST /second-factor: the answer; signed in, asked again, or refused. */
export async function secondFactorAction(ctx: RequestContext): Promise<ResponseInternal> {
  const stopped = stoppedSignIn(ctx)
  if (!stopped) {
    logRefusal(ctx.config.logger, 'flow-missing', { reason: 'second-factor answer without a stopped sign-in' })
    return nothingToAnswer(ctx)
  }
  const env = effectEnv(ctx)
  const body = ctx.req.body ?? {}
  const input = {
    ...secondFactorInputFor(ctx, { factor: body.factor, code: body.code, data: body.data }),
    passkey: passkeyAnswerFor(ctx, stopped),
  }
  const issue = sessionIssuerFor(ctx.config)
  type Resumed = { user: FlowUser; isNewUser: boolean; account?: FlowAccount; secondFactor?: SecondFactorKind }
  // The user and account the stopped sign-in kept (the account without provider tokens): the session and the signIn
  // event get them, the user as the adapter has it when it keeps users.
  const signedIn = async ({ user, account }: Resumed): Promise<{ user: User; account: Account | null }> => ({
    user: await storedUserOf(ctx, user),
    account: account ? { ...account } : null,
  })
  const handlers = {
    ...secondFactorHandlers(env, input),
    issueSession: async (params: Resumed, scratch: Partial<SignInScratch>) => {
      const { user, account } = await signedIn(params)
      // The factor the challenge verified joins the sign-in's `amr` (docs/step-up.md); the verification left the
      // type of a passkey that answered in the scratch, so a synced one is told from a device-bound one.
      const factors = params.secondFactor
        ? { secondFactorMethod: params.secondFactor, ...passkeyFactors(scratch.passkeyDeviceType) }
        : undefined
      return issue(env, { user, account, isNewUser: params.isNewUser, ...(factors ? { factors } : {}) }, scratch)
    },
    emitSignInEvent: async (params: Resumed) => {
      const { user, account } = await signedIn(params)
      await emitAppEvent(env, 'signIn', { user, account, isNewUser: params.isNewUser })
      return { type: 'SIGNIN_ANNOUNCED' } as const
    },
  }
  const event = { type: 'SECOND_FACTOR_SUBMITTED', csrfVerified: ctx.csrfVerified, now: ctx.now }
  let result: SignInResult
  try {
    result = await runMachine<SignInMachine, typeof handlers>(
      ctx,
      ctx.config.machines[stopped.machineId],
      event,
      handlers,
      {
        persistence: { store: ctx.config.flowStore, ref: stopped.ref, maxAge: flowMaxAge },
      },
    )
  } catch (error) {
    // The runtime logged the refusal (a missing, replayed, expired or foreign challenge).
    if (!(error instanceof FlowRejected)) throw error
    clearCookie(ctx)
    const ended = errorRedirect(ctx, errorFromType('AccessDenied'))
    // JSON names the error page a browser would have been sent to, so a script can go there as the form does.
    if (wantsJson(ctx))
      return json(ctx, 400, { error: 'ChallengeExpired', message: 'Sign in again', url: ended.redirect })
    return ended
  }
  if (awaitsSecondFactor(result) && result.ref) {
    // A wrong answer with attempts left: the challenge waits again, under the ref its store gave it now.
    const { name, options } = ctx.cookies.secondFactor
    ctx.setCookies.push({ name, value: `${stopped.machineId}:${result.ref}`, options })
    if (wantsJson(ctx)) return json(ctx, 401, { error: 'InvalidCode', message: 'That code is not valid' })
    return page(
      ctx,
      401,
      'wrongCode',
      await answerableByPasskey(ctx, { machineId: stopped.machineId, ref: result.ref }),
    )
  }
  clearCookie(ctx)
  if (completedSignIn(result)) {
    const answer = signInAnswer(ctx, result)
    return wantsJson(ctx) ? json(ctx, 200, { url: answer.redirect }) : answer
  }
  const error = result.output?.error ?? 'AccessDenied'
  const ended = errorRedirect(ctx, errorFromType(error))
  if (wantsJson(ctx))
    return json(ctx, 403, { error, message: 'The second-factor challenge ended', url: ended.redirect })
  return ended
}
