/**
 * GET /session (the check on every page view), POST /session (the app's `update()`), POST /signout. All three are
 * events of the session machine. A plain read takes a fast path that calls the machine's effects in the machine's
 * own order and hands over to the machine the moment an effect answers anything off that path; a test holds this
 * table equal to the machine (test/core/session-fast-path.test.ts).
 */
import type { AnyMachineSnapshot } from 'xstate'
import type { ErrorType } from '../../errors.js'
import { databaseSessionEffects } from '../../effects/database-session.js'
import { jwtSessionEffects } from '../../effects/jwt-session.js'
import type { EffectEnv } from '../../effects/effect-env.js'
import { drive, type EffectHandlers } from '../../flow/step.js'
import { readChunkedCookie } from '../../session/cookie-chunks.js'
import type { ResponseInternal } from '../../types.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { logMachineRefusal } from '../flow-refusal.js'
import { applySessionOutcome, effectEnv, runOneRequestFlow } from '../run-flow.js'

/** The session machine's happy path for a read: state entered, the command it emits, the result that moves it on. */
export const sessionReadHappyPath = [
  { state: 'loading', command: 'loadSession', params: { intent: 'read' }, expect: 'SESSION_FOUND' },
  { state: 'refreshing', command: 'refreshSession', params: { trigger: 'none' }, expect: 'SESSION_REFRESHED' },
  { state: 'resolving', command: 'runSessionCallback', params: { trigger: 'none' }, expect: 'SESSION_RESOLVED' },
  { state: 'announcing', command: 'emitSessionEvent', params: {}, expect: 'SESSION_ANNOUNCED' },
] as const

/** The state the happy path ends in. */
export const sessionReadFinalState = 'active'

function sessionEffects(ctx: RequestContext, env: EffectEnv): EffectHandlers {
  const raw = readChunkedCookie(ctx.cookies.sessionToken.name, ctx.req.cookies)
  if (ctx.config.session.strategy === 'database' && ctx.config.adapter) return databaseSessionEffects(env, ctx.config.adapter, raw)
  return jwtSessionEffects(env, raw)
}

/**
 * Runs the read path: effects straight in the machine's order while they answer as expected, the machine itself
 * from the first unexpected answer on. Equivalent to driving the machine from `idle` with SESSION_REQUESTED.
 */
export async function readSessionFast(ctx: RequestContext, effects: EffectHandlers): Promise<{ state: string; error?: ErrorType }> {
  for (const row of sessionReadHappyPath) {
    const result = await (effects[row.command] as EffectHandlers[string])(row.params)
    if (result.type !== row.expect) {
      const machine = ctx.config.machines.session!.machine
      const from: AnyMachineSnapshot = machine.resolveState({ value: row.state, context: { intent: 'read', now: ctx.now } })
      const final = await drive(machine, from, result, effects)
      return { state: String(final.value), error: (final.context as { error?: ErrorType }).error }
    }
  }
  return { state: sessionReadFinalState }
}

async function runSessionMachine(ctx: RequestContext, env: EffectEnv, effects: EffectHandlers, kind: 'read' | 'update' | 'signOut') {
  const event = kind === 'read'
    ? { type: 'SESSION_REQUESTED', now: ctx.now }
    : kind === 'update'
      ? { type: 'SESSION_UPDATE_REQUESTED', csrfVerified: ctx.csrfVerified, now: ctx.now }
      : { type: 'SIGNOUT_REQUESTED', csrfVerified: ctx.csrfVerified, callbackUrl: requestedCallbackUrl(ctx) ?? '', now: ctx.now }
  const final = await runOneRequestFlow(ctx, ctx.config.machines.session!, event, effects)
  const context = final.context as { error?: ErrorType; redirectTo?: string }
  logMachineRefusal(ctx, final.context as Record<string, unknown>, {})
  return { state: String(final.value), error: context.error, redirectTo: context.redirectTo }
}

/** GET or POST /session. */
export async function sessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const effects = sessionEffects(ctx, env)
  const isUpdate = ctx.req.method === 'POST'
  const result = !isUpdate && !ctx.config.source.onTransition
    ? await readSessionFast(ctx, effects)
    : await runSessionMachine(ctx, env, effects, isUpdate ? 'update' : 'read')
  if (result.state === 'failed' && result.error === 'MissingCSRF') {
    return { status: 403, body: { error: 'MissingCSRF' }, headers: { 'cache-control': 'no-store' }, cookies: ctx.setCookies }
  }
  if (result.state === 'failed') env.outcome.clearSession = true
  applySessionOutcome(ctx, env.outcome)
  const body = result.state === 'active' ? env.outcome.session ?? null : null
  return { status: 200, body, headers: { 'cache-control': 'private, no-cache, no-store' }, cookies: ctx.setCookies }
}

/** POST /signout: invalidate the session and go where the redirect callback says. */
export async function signOutAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const result = await runSessionMachine(ctx, env, sessionEffects(ctx, env), 'signOut')
  applySessionOutcome(ctx, env.outcome)
  if (result.state !== 'signedOut' || !result.redirectTo) {
    return errorRedirect(ctx, errorFromType(result.error ?? 'SignOutError'))
  }
  return { redirect: result.redirectTo, cookies: ctx.setCookies }
}
