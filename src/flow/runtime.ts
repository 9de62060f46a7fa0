/**
 * The one flow runtime. Every machine runs through `runFlow`: the OAuth and e-mail flows that wait for the browser
 * between requests (persisted in a flow store) and the flows that begin and end in one request (credentials, the
 * session check, sign-out). One request is one event: the machine decides, the runtime runs the commands it asks for
 * with the request's handlers, feeds each result back as an event, and stops when the machine waits or ends.
 *
 * The machine is executed through its compiled transition table (src/flow/compiled-machine.ts), derived from the
 * XState definition and checked equal to XState on every generated path.
 *
 * Policies decided here, once, for every flow:
 * - A refusal is logged once, at warn, under its check code (`refused:<check>`), with the flow id: the checks the
 *   runtime makes (missing, forged, expired or replayed flows; events the machine does not accept) and the ones the
 *   machine records in its final context (`refusal`).
 * - Each step is logged at debug (`flow step`): machine, flow id, state, event, next state and the command it runs.
 * - Each flow's end (a final state, a refusal, or a throw) is reported once: to the OpenTelemetry metrics
 *   (flow-metrics.ts) and to the audit trail (`onEnd`), only when either listens.
 * - The app's `onTransition` hook observes; it never steers. A hook that throws is logged once per request and the
 *   flow goes on exactly as it would have without the hook.
 */
import type { AnyStateMachine, ContextFrom, OutputFrom } from 'xstate'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { AuthError, FlowRejected } from '../errors.js'
import { isDebugEnabled, logRefusal, type LoggerInstance } from '../logger.js'
import { isRefusalCheck, type RefusalCheck } from '../types/refusals.js'
import { randomToken } from '../security/random.js'
import {
  compileMachine,
  hasState,
  stepCompiled,
  tagsOf,
  type CompiledMachine,
  type CompiledSnapshot,
  type FlowEvent,
} from './compiled-machine.js'
import type { TransitionRecord } from '../types/flow-extensions.js'
import type { FlowRecord, FlowStore } from '../types/flow-store.js'
import { startFlowTrace, type FlowTrace } from './flow-tracing.js'
import { flowEndKind, flowMetrics, type FlowEnd, type FlowMetrics } from './flow-metrics.js'

export type { FlowContext, FlowEvent } from './compiled-machine.js'
export type { FlowEnd } from './flow-metrics.js'

/** An event that reports how a command ended, with its payload. */
export type ResultEvent = FlowEvent

/**
 * What the handlers of one run hand each other and the machine must not see: values a later step needs that do not
 * belong in the snapshot (a token in the clear, provider tokens, full adapter records), and the run's results that
 * are secrets (a sealed session for its cookie). The runtime creates one, empty, per run, passes it to every handler
 * of the run next to its params, and returns it to the run's caller only (`FlowResult.scratch`); it never reaches a
 * flow store, a log, `onTransition`, the audit trail or the next request. Each machine's handlers type their own
 * (`HandlersFor`'s `Scratch`).
 */
export type FlowScratch = Record<string, unknown>

/**
 * The scratch a handler record's handlers are given, as their second parameter says (`HandlersFor` types it
 * `Partial<Scratch>`): what `runFlow` returns on `FlowResult.scratch`. A record none of whose handlers names it gets
 * the loose `FlowScratch`.
 */
export type ScratchOf<Handlers> =
  Handlers extends Readonly<Record<string, (params: never, scratch: infer Scratch) => unknown>>
    ? unknown extends Scratch
      ? FlowScratch
      : [Scratch] extends [never]
        ? FlowScratch
        : Scratch
    : FlowScratch

/** Runs one command and answers with the event that says how it ended. */
export type EffectHandler = (
  params: Record<string, unknown>,
  scratch: FlowScratch,
) => ResultEvent | Promise<ResultEvent>

/** Handlers by command type. */
export type EffectHandlers = Record<string, EffectHandler>

/**
 * What `runFlow` accepts: any handler record, loosely typed (`EffectHandlers`) or typed by a machine's contract
 * (`HandlersFor`, whose handlers take their own params). The machine guarantees each handler gets its command's params.
 */
export type AnyHandlers = Readonly<
  Record<string, (params: never, scratch: never) => ResultEvent | Promise<ResultEvent>>
>

/** Where a flow that waits for the browser is kept between its requests. */
export interface FlowPersistence {
  store: FlowStore
  /** The flow cookie's value, or null to start a new flow. */
  ref: string | null
  /** Seconds a waiting flow is kept (the envelope's hard expiry; longer than the machine's own deadline). */
  maxAge: number
}

export interface RunFlowInput<M extends AnyStateMachine = AnyStateMachine, H extends AnyHandlers = AnyHandlers> {
  /** The configured machine (after the app's extensions). */
  entry: MachineEntry<M>
  /** The request event; it carries `now` and any random values. */
  event: FlowEvent
  handlers: H
  /** Epoch seconds. */
  now: number
  /** Where refusals, a throwing `onTransition` and (at debug) each step are reported. */
  logger?: LoggerInstance
  onTransition?: (record: TransitionRecord) => void
  /** The id of a flow that begins with this request (a resumed flow keeps the id it began with). */
  flowId?: string
  /** For flows that wait for the browser; omitted for flows that end within the request. */
  persistence?: FlowPersistence
  /** Told once when the flow ends or is refused (the audit trail); it observes, and must not throw. */
  onEnd?: (end: FlowEnd) => void
  /**
   * The trace context a flow with no record between its requests had its caller keep (the e-mail sign-in's trace
   * cookie): this request joins that trace. Not read when a flow resumes from its record, which keeps its own. A
   * malformed value begins a new trace.
   */
  traceparent?: string
}

/**
 * Where a run of machine `M` stands once the request's event is handled. A finished flow answers through `output`
 * (the machine's `output`, typed by its `setup({ types: { output } })`); `context` is the snapshot, typed by the
 * machine, which a flow that waits for the browser keeps. What the run produced that must stay out of the snapshot
 * (a sealed session, a provider URL or passkey options for a flow that waits) is on `scratch`, typed by the handlers.
 */
export interface FlowResult<M extends AnyStateMachine = AnyStateMachine, Scratch = FlowScratch> {
  value: string
  context: ContextFrom<M>
  status: 'active' | 'done'
  /** The machine's output once it is done; undefined while the flow waits. */
  output: OutputFrom<M> | undefined
  /** The ref the browser keeps (null once the flow is over, and for flows that are never persisted). */
  ref: string | null
  tags: ReadonlySet<string>
  flowId: string
  /** The `traceparent` a later request of the flow may continue from, while an OpenTelemetry SDK records this one. */
  traceparent?: string
  /**
   * The run's scratch as its handlers left it (`FlowScratch`): the caller's to answer with, and no one else's. It is
   * never part of `context`, so a flow record, `onTransition`, the logs and the audit trail never see it.
   */
  scratch: Scratch
}

/** Bound on command results fed back in one request: a machine that loops longer than this has a bug. */
const maxCommandsPerRequest = 16

/** The table of a configured machine. */
export function compiledMachineOf(entry: MachineEntry): CompiledMachine {
  return compileMachine(entry.machine)
}

/** Builds the envelope for a snapshot that waits for the browser (context without null and undefined values). */
export function toFlowRecord(
  snapshot: CompiledSnapshot,
  machineId: string,
  version: number,
  expiresAt: number,
): FlowRecord {
  const compact: Record<string, unknown> = {}
  for (const key in snapshot.context) {
    const value = snapshot.context[key]
    if (value !== null && value !== undefined) compact[key] = value
  }
  return { v: version, m: machineId, s: snapshot.value, c: compact, x: expiresAt }
}

/** A loaded flow: its snapshot, and the trace context and start time its record kept. */
interface LoadedFlow {
  snapshot: CompiledSnapshot
  traceparent: string | undefined
  /** Epoch milliseconds of the flow's first request, kept while someone measures flows. */
  began?: number
}

/** Where a flow refused on load stood, for its trace, its metrics and the audit trail. */
interface RejectedAt {
  traceparent?: string
  state?: string
  began?: number
}

/** `call` timed into the flow-store histogram (when there are metrics). */
function timedStoreCall<T>(
  metrics: FlowMetrics | undefined,
  operation: 'consume' | 'save',
  store: FlowStore,
  call: () => Promise<T>,
): Promise<T> {
  if (!metrics) return call()
  const start = performance.now()
  return call().then(
    (value) => {
      metrics.storeCall(operation, store.kind, performance.now() - start, undefined)
      return value
    },
    (err: unknown) => {
      metrics.storeCall(operation, store.kind, performance.now() - start, err)
      throw err
    },
  )
}

/**
 * The snapshot a stored record stands for, checked against the configured machine: same id and version, not past
 * its hard expiry, a context object, a state that still exists.
 * @throws FlowRejected naming the failed check in `cause.check`
 */
export function fromFlowRecord(
  record: FlowRecord,
  table: CompiledMachine,
  version: number,
  nowSeconds: number,
): CompiledSnapshot {
  if (record.m !== table.id)
    throw new FlowRejected('flow belongs to another machine', {
      check: 'machine',
      expected: table.id,
      received: String(record.m),
    })
  if (record.v !== version)
    throw new FlowRejected('flow was started by another version of the machine', {
      check: 'version',
      expected: version,
      received: record.v,
    })
  if (!(typeof record.x === 'number' && record.x > nowSeconds))
    throw new FlowRejected('flow expired', { check: 'expiry' })
  if (typeof record.c !== 'object' || record.c === null || Array.isArray(record.c))
    throw new FlowRejected('flow context is malformed', { check: 'context' })
  if (!hasState(table, record.s)) throw new FlowRejected('flow state no longer exists', { check: 'state' })
  return { value: record.s, context: record.c, status: 'active' }
}

/**
 * The check code of a flow refused before or by the runtime. A store that answers nothing has either never seen the
 * ref or already handed it out: under a single-use store (Redis) that is a replay; a cookie that will not open is
 * forged, foreign or corrupt.
 */
function rejectionCheck(error: FlowRejected, storeKind: string | undefined): RefusalCheck {
  const check = (error.cause as { check?: unknown } | undefined)?.check
  if (check === 'expiry') return 'flow-expired'
  if (check === 'flow') return storeKind === 'cookie' ? 'flow-invalid' : 'flow-replayed'
  return 'flow-invalid'
}

/** Reports transitions to the app's hook under the one policy: observe, never steer; a throw is logged once. */
class TransitionReporter {
  #failed = false
  constructor(
    private readonly hook: (record: TransitionRecord) => void,
    private readonly machine: string,
    private readonly flowId: string,
    private readonly at: number,
    private readonly logger: LoggerInstance | undefined,
  ) {}

  report(from: string, to: string, event: string): void {
    try {
      this.hook({ flowId: this.flowId, machine: this.machine, at: this.at, from, to, event })
    } catch (err) {
      if (this.#failed) return
      this.#failed = true
      this.logger?.error(
        new AuthError('the onTransition hook threw; the flow went on without it', {
          err: err instanceof Error ? err : undefined,
          machine: this.machine,
        }),
      )
    }
  }
}

async function loadSnapshot(
  ref: string,
  input: RunFlowInput,
  table: CompiledMachine,
  store: FlowStore,
  metrics: FlowMetrics | undefined,
): Promise<LoadedFlow> {
  // Consume before anything runs: under a single-use store a replayed or concurrent request finds nothing here.
  const record = await timedStoreCall(metrics, 'consume', store, () => store.consume(ref))
  if (!record) throw new FlowRejected('flow not found, expired or already used', { check: 'flow' })
  const traceparent = typeof record.t === 'string' ? record.t : undefined
  const began = typeof record.b === 'number' ? record.b : undefined
  try {
    return { snapshot: fromFlowRecord(record, table, input.entry.version, input.now), traceparent, began }
  } catch (error) {
    // A flow refused on load still ends the trace it began in, with the refusal's code.
    if (error instanceof FlowRejected) {
      const at: RejectedAt = { traceparent, state: typeof record.s === 'string' ? record.s : undefined, began }
      rejectedAt.set(error, at)
    }
    throw error
  }
}

/** Where each flow refused while loading stood (its trace context, state and start). */
const rejectedAt = new WeakMap<FlowRejected, RejectedAt>()

/** Reports a flow's end to the metrics and to the app's audit trail (`onEnd`), when either listens. */
function reportEnd(input: RunFlowInput, metrics: FlowMetrics | undefined, end: FlowEnd): void {
  metrics?.flowEnded(end, flowEndKind(end))
  input.onEnd?.(end)
}

/** Where a refusal happened: the flow's id (when it has one), its state, its start, the instruments. */
interface RefusedAt {
  flowId: string | undefined
  state: string
  began: number | undefined
  metrics: FlowMetrics | undefined
}

function refuse(input: RunFlowInput, error: FlowRejected, at: RefusedAt, trace?: FlowTrace): never {
  const check = rejectionCheck(error, input.persistence?.store.kind)
  if (input.logger) {
    logRefusal(input.logger, check, {
      flowId: at.flowId,
      machine: input.entry.id,
      reason: error.message,
    })
  }
  if (trace) {
    trace.refused(check)
    trace.end('done')
  }
  if (at.metrics || input.onEnd)
    reportEnd(input, at.metrics, {
      machine: input.entry.id,
      flowId: at.flowId ?? flowIdOf(),
      event: input.event.type,
      state: at.state,
      refusal: check,
      durationMs: at.began === undefined ? undefined : Date.now() - at.began,
    })
  throw error
}

/** One request's run of a flow: where it stands, and who hears about its steps. */
interface FlowRun {
  input: RunFlowInput
  table: CompiledMachine
  snapshot: CompiledSnapshot
  flowId: string | undefined
  reporter: TransitionReporter | undefined
  /** This request's spans, when the app has an OpenTelemetry SDK. */
  trace: FlowTrace | undefined
  /** The instruments, when the app has an OpenTelemetry metrics SDK. */
  metrics: FlowMetrics | undefined
  /** Epoch milliseconds of the flow's first request, while someone measures or audits flows. */
  began: number | undefined
  /** This request's scratch, shared by its handlers and returned to the caller (`FlowScratch`); empty at first. */
  scratch: FlowScratch
}

/**
 * Applies one request event to a flow and runs it until it waits for the browser again or ends. A flow that lives
 * within the request and whose handlers all answer at once (the session check with the built-in callbacks) ends
 * without a promise: each one on the way would cost every such request a turn of the microtask queue.
 * @throws FlowRejected (logged as a refusal) when the stored flow is missing, replayed, expired or foreign, or the
 *   machine does not accept the event; FlowStoreUnavailable when the store cannot be reached
 */
export function runFlow<M extends AnyStateMachine, H extends AnyHandlers = AnyHandlers>(
  input: RunFlowInput<M, H>,
): FlowResult<M, ScratchOf<H>> | Promise<FlowResult<M, ScratchOf<H>>>
// The one place a machine's types meet the values the table computed: the table runs the very definition whose
// types these are, and test/flow/compiled-equivalence.test.ts holds its contexts and outputs equal to xstate's.
export function runFlow(input: RunFlowInput): FlowResult | Promise<FlowResult> {
  const table = compiledMachineOf(input.entry)
  const metrics = flowMetrics()
  // A flow that lives within this request starts from the initial state: nothing to load, nothing to wait for.
  const persistence = input.persistence
  if (!persistence?.ref)
    return runFrom(input, table, { snapshot: table.initial, traceparent: input.traceparent }, metrics)
  return loadSnapshot(persistence.ref, input, table, persistence.store, metrics).then(
    (loaded) => runFrom(input, table, loaded, metrics),
    (error: unknown) => {
      if (error instanceof FlowRejected) {
        const at = rejectedAt.get(error)
        const traceparent = at?.traceparent
        const trace = traceparent === undefined ? undefined : startFlowTrace(input.entry.id, flowIdOf, traceparent)
        refuse(input, error, { flowId: undefined, state: at?.state ?? 'none', began: at?.began, metrics }, trace)
      }
      throw error
    },
  )
}

/** An id for a flow that has none yet (a refusal log line, the app's hook or a trace reads it). */
const flowIdOf = (): string => randomToken(9)

function runFrom(
  input: RunFlowInput,
  table: CompiledMachine,
  loaded: LoadedFlow,
  metrics: FlowMetrics | undefined,
): FlowResult | Promise<FlowResult> {
  const { snapshot } = loaded
  // A resumed flow keeps the id it was given when it began, so both of its requests show up under one id.
  const stored = snapshot.context.flowId
  const run: FlowRun = {
    input,
    table,
    snapshot,
    flowId: typeof stored === 'string' ? stored : input.flowId,
    reporter: undefined,
    trace: undefined,
    metrics,
    // The clock is read only when a flow's duration will be recorded or audited.
    began: loaded.began ?? (metrics || input.onEnd ? Date.now() : undefined),
    scratch: {},
  }
  const trace = startFlowTrace(input.entry.id, () => (run.flowId ??= flowIdOf()), loaded.traceparent)
  // One-request flows get an id only when someone will read it (the audit hook or a refusal log line).
  if (input.onTransition) {
    run.reporter = new TransitionReporter(
      input.onTransition,
      input.entry.id,
      (run.flowId ??= flowIdOf()),
      input.now,
      input.logger,
    )
  }
  if (!trace && !metrics && !input.onEnd) return drive(run, input.event, maxCommandsPerRequest)
  run.trace = trace
  // A flow that fails (a handler or a store throws) still ends its spans, marked as failed, and is reported as an
  // `error` end (a refusal was reported already, where it was decided).
  const failed = (error: unknown): never => {
    trace?.failed(error)
    if (!(error instanceof FlowRejected))
      reportEnd(input, metrics, {
        machine: input.entry.id,
        flowId: (run.flowId ??= flowIdOf()),
        event: input.event.type,
        state: 'error',
        durationMs: run.began === undefined ? undefined : Date.now() - run.began,
      })
    throw error
  }
  try {
    const result = drive(run, input.event, maxCommandsPerRequest)
    return result instanceof Promise ? result.catch(failed) : result
  } catch (error) {
    return failed(error)
  }
}

/**
 * Steps the machine with `event` and runs the commands it asks for, feeding each answer back, until it waits or ends.
 * Goes on synchronously while the handlers answer at once; the first answer that is a promise continues from there.
 */
function drive(run: FlowRun, first: FlowEvent, budget: number): FlowResult | Promise<FlowResult> {
  const { input, table } = run
  let event = first
  for (; ; budget--) {
    const step = stepCompiled(table, run.snapshot, event)
    if (!step) {
      refuse(
        input,
        new FlowRejected('event not accepted in this state', {
          check: 'transition',
          state: run.snapshot.value,
          event: event.type,
        }),
        { flowId: (run.flowId ??= flowIdOf()), state: run.snapshot.value, began: run.began, metrics: run.metrics },
        run.trace,
      )
    }
    // Names only: event payloads and command params carry passwords and codes, which never reach a log. The details
    // are built only when someone reads them: this runs on every step of every request.
    if (input.logger && isDebugEnabled(input.logger))
      input.logger.debug('flow step', {
        machine: input.entry.id,
        flowId: run.flowId,
        from: run.snapshot.value,
        event: event.type,
        to: step.snapshot.value,
        command: step.commands[0]?.type,
      })
    run.reporter?.report(run.snapshot.value, step.snapshot.value, event.type)
    run.snapshot = step.snapshot
    const command = step.commands[0]
    run.trace?.step(step.snapshot.value, event.type, command?.type)
    if (!command) return finish(run)
    if (step.commands.length > 1)
      throw new AuthError('a transition emitted more than one command', { commands: step.commands.map((c) => c.type) })
    if (budget <= 0) throw new AuthError('flow ran too many commands in one request', { machine: input.entry.id })
    const handlers = input.handlers as Partial<EffectHandlers>
    if (typeof handlers[command.type] !== 'function')
      throw new AuthError(`no handler for command ${command.type}`, { machine: input.entry.id })
    // Called as a method, so a handler set may be a class instance holding what the request's handlers share (its
    // inputs); what one step learns for the next goes through the machine's params or the run's scratch.
    const handler = (handlers as EffectHandlers)[command.type]
    const { scratch } = run
    const answer = run.trace
      ? run.trace.effect(command.type, () => handler.call(handlers, command.params, scratch))
      : (handlers as EffectHandlers)[command.type](command.params, scratch)
    if (answer instanceof Promise) return answer.then((next) => drive(run, next, budget - 1))
    event = answer
  }
}

/** Logs the refusal a finished flow recorded, keeps a waiting flow in its store, and reports where the flow stands. */
function finish(run: FlowRun): FlowResult | Promise<FlowResult> {
  const { input, table, snapshot } = run
  const { context } = snapshot
  if (snapshot.status === 'done' && isRefusalCheck(context.refusal) && input.logger) {
    logRefusal(input.logger, context.refusal, {
      flowId: (run.flowId ??= flowIdOf()),
      machine: input.entry.id,
      provider: typeof context.providerId === 'string' ? context.providerId : undefined,
      reason: typeof context.refusalReason === 'string' ? context.refusalReason : undefined,
    })
  }
  if (snapshot.status === 'done' && isRefusalCheck(context.refusal)) run.trace?.refused(context.refusal)
  const anchor = run.trace?.anchor
  const traceparent = run.trace?.end(snapshot.status)
  if (snapshot.status === 'done' && (run.metrics || input.onEnd))
    reportEnd(input, run.metrics, {
      machine: input.entry.id,
      flowId: (run.flowId ??= flowIdOf()),
      event: input.event.type,
      state: snapshot.value,
      refusal: isRefusalCheck(context.refusal) ? context.refusal : undefined,
      durationMs: run.began === undefined ? undefined : Date.now() - run.began,
    })
  const result = (ref: string | null): FlowResult => {
    const answer: FlowResult = {
      value: snapshot.value,
      context,
      status: snapshot.status,
      output: snapshot.output,
      ref,
      tags: tagsOf(table, snapshot.value),
      flowId: run.flowId ?? '',
      scratch: run.scratch,
    }
    // Only with a recording trace: the session check with tracing off builds the object it always built.
    if (anchor !== undefined) answer.traceparent = anchor
    return answer
  }
  const persistence = input.persistence
  if (!persistence || snapshot.status !== 'active') return result(null)
  const record = toFlowRecord(snapshot, input.entry.id, input.entry.version, input.now + persistence.maxAge)
  if (traceparent) record.t = traceparent
  if (run.began !== undefined) record.b = run.began
  return timedStoreCall(run.metrics, 'save', persistence.store, () =>
    persistence.store.save(record, persistence.ref),
  ).then(result)
}
