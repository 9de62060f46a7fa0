/**
 * OpenTelemetry metrics of the flows, when the app has registered an OpenTelemetry metrics SDK (docs/observability.md
 * lists each instrument, its unit and its attributes).
 *
 * The runtime reports each flow's end here once (`recordFlowEnd`), the flow-store calls it makes, and the adapter
 * wrapper (src/core/adapter-calls.ts) each adapter call: the instruments are fed from those edges, never from an
 * effect. Attributes are names from a closed set (machine, state, method, refusal code, adapter method, store kind),
 * so a label never carries a user's value and the series stay few.
 *
 * `@opentelemetry/api` is the optional peer flow-tracing.ts looks up once; while no SDK has registered a meter
 * provider, `flowMetrics()` answers undefined after one property lookup and nothing is measured.
 */
import type { Counter, Histogram, Meter, MeterProvider } from '@opentelemetry/api'
import type { RefusalCheck } from '../types/refusals.js'
import { instrumentationScope, otelApi } from './flow-tracing.js'

/** The instrument names, as documented in docs/observability.md. */
export const metricNames = {
  signIns: 'authchart.sign_ins',
  refusals: 'authchart.refusals',
  sessionChecks: 'authchart.session.checks',
  flowDuration: 'authchart.flow.duration',
  flowStoreDuration: 'authchart.flow_store.operation.duration',
  adapterDuration: 'authchart.adapter.operation.duration',
} as const

/** Boundaries (seconds) for calls to a store or a database: the ones OpenTelemetry advises for HTTP durations. */
const callBoundaries = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
/** Boundaries (seconds) for whole flows: a session check takes milliseconds, an e-mail sign-in minutes. */
const flowBoundaries = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800]

/** How one flow ended, as the runtime reports it (to the metrics here and to the audit trail). */
export interface FlowEnd {
  machine: string
  flowId: string
  /** The event the request that ended the flow began with (`SESSION_REQUESTED`, `SIGNOUT_REQUESTED`, ...). */
  event: string
  /** The final state, the state the flow was refused in, or `error` when it threw (a store or adapter failed). */
  state: string
  /** The refusal's check code, when the flow was refused. */
  refusal?: RefusalCheck
  /** Milliseconds from the flow's first request to its end, when known. */
  durationMs?: number
}

/** The machines a person signs in through; their end is a sign-in's outcome. */
const signInMachines = new Set(['oauth', 'email', 'credentials', 'webauthn'])
/** The final states that end a sign-in (the e-mail flow's first half ends in others: the link is only sent). */
const signInEnds = new Set(['signedIn', 'redirected', 'failed', 'lockedOut', 'error'])
/** The session machine's request events that ask for the session (the third one signs out). */
const sessionCheckEvents = new Set(['SESSION_REQUESTED', 'SESSION_UPDATE_REQUESTED'])

/** What a flow's end was, for a person: a finished sign-in (with its outcome), a session check, or neither. */
export type FlowEndKind =
  | { kind: 'sign-in'; method: string; outcome: 'success' | 'redirected' | 'refused' | 'error' }
  | { kind: 'session-check'; outcome: string }
  | { kind: 'sign-out'; outcome: 'success' | 'refused' | 'error' }
  | { kind: 'other' }

/** Classifies a flow's end by its machine, first event and state: the one place that knows these names. */
export function flowEndKind(end: FlowEnd): FlowEndKind {
  if (signInMachines.has(end.machine)) {
    if (!signInEnds.has(end.state) && !end.refusal) return { kind: 'other' }
    // A final state other than these two is a refused sign-in (`failed`: a wrong password is one; `lockedOut`).
    const outcome =
      end.state === 'error'
        ? 'error'
        : end.state === 'signedIn'
          ? 'success'
          : end.state === 'redirected'
            ? 'redirected'
            : 'refused'
    return { kind: 'sign-in', method: end.machine, outcome }
  }
  if (end.machine === 'session') {
    if (sessionCheckEvents.has(end.event)) return { kind: 'session-check', outcome: end.state }
    if (end.event === 'SIGNOUT_REQUESTED')
      return {
        kind: 'sign-out',
        outcome: end.state === 'signedOut' ? 'success' : end.state === 'error' ? 'error' : 'refused',
      }
  }
  return { kind: 'other' }
}

/** The instruments of one meter provider. */
export class FlowMetrics {
  readonly #signIns: Counter
  readonly #refusals: Counter
  readonly #sessionChecks: Counter
  readonly #flowDuration: Histogram
  readonly #storeDuration: Histogram
  readonly #adapterDuration: Histogram

  constructor(meter: Meter) {
    this.#signIns = meter.createCounter(metricNames.signIns, {
      description: 'Sign-ins that ended, by method and outcome.',
      unit: '{sign_in}',
    })
    this.#refusals = meter.createCounter(metricNames.refusals, {
      description: 'Requests refused, by refusal code (docs/security.md) and machine.',
      unit: '{refusal}',
    })
    this.#sessionChecks = meter.createCounter(metricNames.sessionChecks, {
      description: 'Session checks (reads and updates of the session), by the state they ended in.',
      unit: '{check}',
    })
    this.#flowDuration = meter.createHistogram(metricNames.flowDuration, {
      description: "Time from a flow's first request to its end, by machine and final state.",
      unit: 's',
      advice: { explicitBucketBoundaries: flowBoundaries },
    })
    this.#storeDuration = meter.createHistogram(metricNames.flowStoreDuration, {
      description: 'Duration of flow-store calls, by operation and store kind.',
      unit: 's',
      advice: { explicitBucketBoundaries: callBoundaries },
    })
    this.#adapterDuration = meter.createHistogram(metricNames.adapterDuration, {
      description: 'Duration of adapter calls, by adapter method.',
      unit: 's',
      advice: { explicitBucketBoundaries: callBoundaries },
    })
  }

  /** A flow ended: its duration, and what it counts as (sign-in, session check, refusal). */
  flowEnded(end: FlowEnd, kind: FlowEndKind): void {
    if (end.refusal) this.#refusals.add(1, { 'authchart.refusal.code': end.refusal, 'authchart.machine': end.machine })
    if (kind.kind === 'sign-in')
      this.#signIns.add(1, { 'authchart.sign_in.method': kind.method, 'authchart.sign_in.outcome': kind.outcome })
    else if (kind.kind === 'session-check') this.#sessionChecks.add(1, { 'authchart.session.outcome': kind.outcome })
    if (end.durationMs !== undefined)
      this.#flowDuration.record(end.durationMs / 1000, {
        'authchart.machine': end.machine,
        'authchart.state': end.state,
      })
  }

  /** One flow-store call took `ms`; `failed` when it threw. */
  storeCall(operation: 'consume' | 'save', storeKind: string, ms: number, failed: unknown): void {
    const attributes: Record<string, string> = {
      'authchart.flow_store.operation': operation,
      'authchart.flow_store.kind': storeKind,
    }
    if (failed !== undefined) attributes['error.type'] = errorType(failed)
    this.#storeDuration.record(ms / 1000, attributes)
  }

  /** One adapter call took `ms`; `failed` when it threw. */
  adapterCall(method: string, ms: number, failed: unknown): void {
    const attributes: Record<string, string> = { 'db.operation.name': method }
    if (failed !== undefined) attributes['error.type'] = errorType(failed)
    this.#adapterDuration.record(ms / 1000, attributes)
  }
}

/** The error's class name (OpenTelemetry's `error.type`): never its message, which may quote a value. */
function errorType(err: unknown): string {
  return err instanceof Error ? err.name : '_OTHER'
}

/** The instruments of each meter provider seen (undefined for the API's no-op one): made once per provider. */
const byProvider = new WeakMap<MeterProvider, FlowMetrics | undefined>()

/**
 * The instruments of the meter provider the app registered, or undefined while it registered none (or the lookup of
 * the API is not done yet: `loadTracing`).
 */
export function flowMetrics(): FlowMetrics | undefined {
  const otel = otelApi()
  if (!otel) return undefined
  const provider = otel.metrics.getMeterProvider()
  if (byProvider.has(provider)) return byProvider.get(provider)
  const meter = provider.getMeter(instrumentationScope)
  // The API's no-op provider hands out its one no-op meter: no SDK is registered.
  const metrics = meter === otel.createNoopMeter() ? undefined : new FlowMetrics(meter)
  byProvider.set(provider, metrics)
  return metrics
}
