/**
 * Running the machines that start and end within one request (session, credentials), and turning what their effects
 * left behind into cookies.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate'
import type { MachineEntry } from '../../machines/machine-entry.js'
import type { EffectEnv, EffectOutcome } from '../effects/effect-env.js'
import { drive, initialSnapshot, type EffectHandlers } from '../flow/step.js'
import { chunkCookie, clearChunkedCookie } from '../session/cookie-chunks.js'
import { randomToken } from '../security/random.js'
import type { RequestContext } from './context.js'

/** The environment effects run in, for this request. */
export function effectEnv(ctx: RequestContext): EffectEnv {
  return {
    config: ctx.config,
    baseUrl: ctx.origin,
    sessionCookieName: ctx.cookies.sessionToken.name,
    now: ctx.now,
    request: ctx.req.request,
    body: ctx.req.body,
    outcome: {},
  }
}

/** Runs a one-request machine from its initial state, reporting transitions when the app asked for them. */
export async function runOneRequestFlow(ctx: RequestContext, entry: MachineEntry, event: EventObject, effects: EffectHandlers): Promise<AnyMachineSnapshot> {
  const onTransition = ctx.config.source.onTransition
  const flowId = onTransition ? randomToken(9) : ''
  const report = onTransition
    ? (r: { from: string; to: string; event: string }) => {
        try {
          onTransition({ flowId, machine: entry.id, at: ctx.now, ...r })
        } catch (err) {
          ctx.config.logger.error(err instanceof Error ? err : new Error(String(err)))
        }
      }
    : undefined
  return drive(entry.machine, initialSnapshot(entry.machine), event, effects, report)
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
