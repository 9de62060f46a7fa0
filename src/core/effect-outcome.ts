/**
 * The environment a request's effects run in, and turning the session cookie writes a run left in its scratch into
 * cookies, plus the one call every action uses to run its machine through the runtime with the request's clock,
 * logger and audit hook.
 */
import type { AnyStateMachine } from 'xstate'
import type { MachineEntry } from '../../machines/machine-entry.js'
import type { EffectEnv } from '../effects/shared/effect-env.js'
import type { SessionCookieWrites } from '../effects/shared/session-cookie-writes.js'
import {
  runFlow,
  type AnyHandlers,
  type FlowEvent,
  type FlowPersistence,
  type FlowResult,
  type ScratchOf,
} from '../flow/runtime.js'
import { loadTracing, tracingLoaded } from '../flow/flow-tracing.js'
import { chunkCookie, clearChunkedCookie, cookieChunkSize } from '../session/cookie-chunks.js'
import type { RequestContext } from './context.js'
import { outboundOrigin } from './outbound-origin.js'
import { clientAddress } from './client-address.js'
import { userAgentSummary } from '../session/user-agent.js'
import { auditFlowEnd, auditSessionEvent } from './audit-trail.js'
import type { SessionAuditEvent } from '../effects/shared/effect-env.js'

/** The environment of one request; its web `Request` is asked for only by effects that hand it to the app. */
class RequestEffectEnv implements EffectEnv {
  readonly config: EffectEnv['config']
  readonly baseUrl: string
  readonly sessionCookieName: string
  readonly now: number
  readonly nowMs: number
  readonly body: Record<string, unknown> | undefined

  constructor(private readonly ctx: RequestContext) {
    this.config = ctx.config
    this.baseUrl = ctx.origin
    this.sessionCookieName = ctx.cookies.sessionToken.name
    this.now = ctx.now
    this.nowMs = ctx.nowMs
    this.body = ctx.req.body
  }

  get request(): Request {
    return this.ctx.req.request
  }

  /** Worked out when an effect builds a URL that leaves the request (a mailed link, a logout target), not per run. */
  get outboundBaseUrl(): string | undefined {
    return outboundOrigin(this.ctx)
  }

  audit(event: SessionAuditEvent): void {
    auditSessionEvent(this.ctx, event)
  }

  /** Read for a session's record only (sign-in, a session sliding): a plain session check never asks. */
  get device(): { userAgent?: string; clientAddress?: string } {
    const { req, config } = this.ctx
    const forwarded = config.source.trustedProxies === undefined ? null : req.header('x-forwarded-for')
    return {
      userAgent: userAgentSummary(req.header('user-agent')),
      clientAddress: clientAddress(req.peerAddress, forwarded, config.source.trustedProxies),
    }
  }
}

/** The environment effects run in, for this request. */
export function effectEnv(ctx: RequestContext): EffectEnv {
  return new RequestEffectEnv(ctx)
}

/**
 * Runs `entry` through the one runtime for this request (persisted when `persistence` is given; joining the trace
 * `traceparent` names, for a flow whose caller carries its trace context); the result is typed by the entry's machine
 * (its output and context) and by the handlers (the scratch they leave).
 */
export function runMachine<M extends AnyStateMachine, H extends AnyHandlers = AnyHandlers>(
  ctx: RequestContext,
  entry: MachineEntry<M>,
  event: FlowEvent,
  handlers: H,
  extra: { flowId?: string; persistence?: FlowPersistence; traceparent?: string } = {},
): FlowResult<M, ScratchOf<H>> | Promise<FlowResult<M, ScratchOf<H>>> {
  const run = (): FlowResult<M, ScratchOf<H>> | Promise<FlowResult<M, ScratchOf<H>>> =>
    runFlow({
      entry,
      event,
      handlers,
      now: ctx.now,
      logger: ctx.config.logger,
      onTransition: ctx.config.source.onTransition,
      onEnd: auditFlowEnd(ctx),
      ...extra,
    })
  // The first flow waits for the one lookup of the OpenTelemetry API; every later one runs at once.
  return tracingLoaded() ? run() : loadTracing().then(run)
}

/** Adds the session cookie writes a run left in its scratch (or an issuer outside a run) to the response's cookies. */
export function applySessionOutcome(ctx: RequestContext, outcome: Partial<SessionCookieWrites>): void {
  const { name, options } = ctx.cookies.sessionToken
  if (outcome.issuedSession) {
    const cookieOptions = { ...options, expires: new Date(outcome.issuedSession.expires * 1000) }
    const size = cookieChunkSize(name, options)
    ctx.setCookies.push(...chunkCookie(name, outcome.issuedSession.value, cookieOptions, ctx.req.cookies, size))
  } else if (outcome.clearSession) {
    ctx.setCookies.push(...clearChunkedCookie(name, options, ctx.req.cookies))
  }
  if (outcome.enrolmentPending) {
    const pending = ctx.cookies.enrolmentPending
    const expires = new Date(outcome.enrolmentPending.expires * 1000)
    ctx.setCookies.push({
      name: pending.name,
      value: outcome.enrolmentPending.value,
      options: { ...pending.options, expires },
    })
  }
}
