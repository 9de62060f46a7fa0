/**
 * The environment a request's effects run in, and turning what they left behind into cookies, plus the one call
 * every action uses to run its machine through the runtime with the request's clock, logger and audit hook.
 */
import type { MachineEntry } from '../../machines/machine-entry.js'
import type { EffectEnv, EffectOutcome } from '../effects/shared/effect-env.js'
import { runFlow, type AnyHandlers, type FlowEvent, type FlowPersistence, type FlowResult } from '../flow/runtime.js'
import { chunkCookie, clearChunkedCookie } from '../session/cookie-chunks.js'
import type { RequestContext } from './context.js'

/** The environment effects run in, for this request. */
export function effectEnv(ctx: RequestContext): EffectEnv {
  return {
    config: ctx.config,
    baseUrl: ctx.origin,
    sessionCookieName: ctx.cookies.sessionToken.name,
    now: ctx.now,
    nowMs: ctx.nowMs,
    request: ctx.req.request,
    body: ctx.req.body,
    outcome: {},
  }
}

/** Runs `entry` through the one runtime for this request (persisted when `persistence` is given). */
export function runMachine(
  ctx: RequestContext,
  entry: MachineEntry,
  event: FlowEvent,
  handlers: AnyHandlers,
  extra: { flowId?: string; persistence?: FlowPersistence } = {},
): Promise<FlowResult> {
  return runFlow({
    entry,
    event,
    handlers,
    now: ctx.now,
    logger: ctx.config.logger,
    onTransition: ctx.config.source.onTransition,
    ...extra,
  })
}

/** Adds the session cookie writes the effects asked for to the response's cookies. */
export function applySessionOutcome(ctx: RequestContext, outcome: EffectOutcome): void {
  const { name, options } = ctx.cookies.sessionToken
  if (outcome.issuedSession) {
    const cookieOptions = { ...options, expires: new Date(outcome.issuedSession.expires * 1000) }
    ctx.setCookies.push(...chunkCookie(name, outcome.issuedSession.value, cookieOptions, ctx.req.cookies))
  } else if (outcome.clearSession) {
    ctx.setCookies.push(...clearChunkedCookie(name, options, ctx.req.cookies))
  }
}
