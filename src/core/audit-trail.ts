/**
 * The audit trail (`config.audit`): turns a flow's end (reported by the one runtime), the sign-in and sign-out events
 * (reported where the app's `events` are sent) and the factor and session changes into `AuditRecord`s, and hands each
 * to the app's sink without letting the sink fail or slow the request.
 */
import { createHmac } from 'node:crypto'
import type { FlowEnd } from '../flow/runtime.js'
import { flowEndKind } from '../flow/flow-metrics.js'
import type { AuditRecord, AuditSink } from '../types/audit.js'
import type { LoggerInstance } from '../types/logger.js'
import { clientKeyOf } from './client-key.js'
import type { RequestContext } from './context.js'

/** What the audit trail needs of the resolved config. */
export interface AuditEnv {
  source: { audit?: AuditSink }
  secrets: readonly string[]
  logger: Pick<LoggerInstance, 'warn'>
}

/** Sinks whose last record failed: the failure was logged, and is not logged again until a record goes through. */
const failing = new WeakSet<AuditSink>()

/**
 * Hands `record` to the sink, never throwing and never waited for: a sink that throws or rejects is logged once under
 * `audit-sink-failed` (with the error's class name only) until it accepts a record again.
 */
export function sendAuditRecord(env: AuditEnv, record: AuditRecord): void {
  const sink = env.source.audit
  if (!sink) return
  const failed = (err: unknown): void => {
    if (failing.has(sink)) return
    failing.add(sink)
    env.logger.warn('audit-sink-failed', { type: record.type, error: err instanceof Error ? err.name : typeof err })
  }
  try {
    const answer = sink(record)
    if (answer instanceof Promise) answer.then(() => failing.delete(sink), failed)
    else failing.delete(sink)
  } catch (err) {
    failed(err)
  }
}

/** The digest key of each first secret: derived once, so the client key's digest is not a plain hash of an address. */
const digestKeys = new Map<string, Buffer>()

/** A keyed digest of the client key (never the address itself): equal for one client while the first secret holds. */
function clientKeyDigest(env: AuditEnv, clientKey: string | undefined): string | undefined {
  const secret = env.secrets[0]
  if (clientKey === undefined || secret === undefined) return undefined
  let key = digestKeys.get(secret)
  if (!key) {
    key = createHmac('sha256', secret).update('authchart audit client key').digest()
    digestKeys.set(secret, key)
  }
  return createHmac('sha256', key).update(clientKey).digest('hex').slice(0, 32)
}

/** What one request learned for its audit records: who signed in or out, and the client key's digest. */
interface RequestAudit {
  userId?: string
  provider?: string
  clientKeyDigest?: string
  digested: boolean
}

const requests = new WeakMap<RequestContext, RequestAudit>()

function requestAudit(ctx: RequestContext): RequestAudit {
  let audit = requests.get(ctx)
  if (!audit) {
    audit = { digested: false }
    requests.set(ctx, audit)
  }
  if (!audit.digested) {
    audit.digested = true
    // The key the request limits see (the client's address, by /64 for IPv6), digested: the record never holds it.
    audit.clientKeyDigest = clientKeyDigest(ctx.config, clientKeyOf(ctx, undefined))
  }
  return audit
}

const now = (): string => new Date().toISOString()

/** The runtime's `onEnd` for this request, when the app has an audit sink: the flow record, and a refusal's. */
export function auditFlowEnd(ctx: RequestContext): ((end: FlowEnd) => void) | undefined {
  if (!ctx.config.source.audit) return undefined
  return (end) => {
    const audit = requestAudit(ctx)
    const common = {
      time: now(),
      flowId: end.flowId,
      machine: end.machine,
      userId: audit.userId,
      provider: audit.provider,
      clientKeyDigest: audit.clientKeyDigest,
    }
    sendAuditRecord(ctx.config, {
      type: 'flow',
      ...common,
      method: end.machine,
      outcome: end.state,
      refusal: end.refusal,
    })
    // A refusal is one by a named check, or a sign-in or sign-out that ended refused without one (a wrong password).
    const kind = flowEndKind(end)
    const refused = (kind.kind === 'sign-in' || kind.kind === 'sign-out') && kind.outcome === 'refused'
    if (end.refusal || refused)
      sendAuditRecord(ctx.config, { type: 'refusal', ...common, outcome: 'refused', refusal: end.refusal })
  }
}

/** A sign-in or sign-out this request made (where the app's `signIn`/`signOut` events are sent). */
export function auditSessionEvent(
  ctx: RequestContext,
  event: { type: 'sign-in' | 'sign-out'; userId?: string; provider?: string; method?: string },
): void {
  if (!ctx.config.source.audit) return
  const audit = requestAudit(ctx)
  audit.userId = event.userId
  audit.provider = event.provider
  sendAuditRecord(ctx.config, {
    type: event.type,
    time: now(),
    userId: event.userId,
    provider: event.provider,
    method: event.method,
    outcome: 'success',
    clientKeyDigest: audit.clientKeyDigest,
  })
}

/** A factor enrolled or removed, or sessions revoked: events outside a flow, with no request to digest. */
export function auditAccountChange(
  env: AuditEnv,
  change:
    | { type: 'factor-change'; userId: string; method: string; outcome: 'enrolled' | 'removed' }
    | { type: 'session-revoked'; userId: string; count: number },
): void {
  if (!env.source.audit) return
  if (change.type === 'factor-change') sendAuditRecord(env, { ...change, time: now() })
  else sendAuditRecord(env, { ...change, outcome: 'revoked', time: now() })
}
