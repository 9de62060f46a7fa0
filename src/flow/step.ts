/**
 * The per-request flow runtime: load the snapshot, apply the request's event with xstate's pure `transition`, run the
 * commands the machine asked for and feed their results back as events, then persist or consume the flow.
 *
 * Why the pure `transition` and not an actor: an actor restored from an incompatible snapshot surfaces as an uncaught
 * exception, and an actor persisted mid-invoke repeats its side effect on restore (design/xstate-findings.md §1).
 * Measured here: 14–20 µs per `transition()` call, small next to one provider round trip.
 */
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type StateValue } from 'xstate'
import { AuthError, FlowRejected } from '../errors.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import type { TransitionRecord } from './extension-types.js'
import { fromFlowRecord, toFlowRecord } from './flow-record.js'
import type { FlowStore } from './flow-store.js'

/** An event that reports how a command ended, with its payload. */
export interface ResultEvent extends EventObject {
  [field: string]: unknown
}

/** Runs one command and answers with the event that says how it ended. */
export type EffectHandler = (params: Record<string, unknown>) => ResultEvent | Promise<ResultEvent>

/** Handlers by command type. */
export type EffectHandlers = Record<string, EffectHandler>

export interface StepInput {
  /** The configured machine (after the app's extensions). */
  entry: MachineEntry
  store: FlowStore
  /** The flow cookie's value, or null to start a new flow. */
  ref: string | null
  /** The request event; it carries `now` and any random values. */
  event: EventObject
  effects: EffectHandlers
  /** Epoch seconds. */
  now: number
  /** Seconds a waiting flow is kept (the envelope's hard expiry). */
  flowMaxAge: number
  flowId?: string
  onTransition?: (record: TransitionRecord) => void
}

export interface StepResult {
  value: StateValue
  context: Record<string, unknown>
  status: 'active' | 'done'
  /** The ref the browser keeps (null once the flow is over). */
  ref: string | null
  tags: ReadonlySet<string>
}

/** Bound on command results fed back in one request: a machine that loops longer than this has a bug. */
const maxCommandsPerRequest = 16

const initialSnapshots = new WeakMap<AnyStateMachine, AnyMachineSnapshot>()

function initialSnapshotOf(machine: AnyStateMachine): AnyMachineSnapshot {
  let snapshot = initialSnapshots.get(machine)
  if (!snapshot) {
    snapshot = initialTransition(machine)[0]
    initialSnapshots.set(machine, snapshot)
  }
  return snapshot
}

/** A state value as one readable string (`authorizing`, `signingIn.checking`). */
export function stateName(value: StateValue): string {
  if (typeof value === 'string') return value
  return Object.entries(value).map(([key, child]) => (child ? `${key}.${stateName(child)}` : key)).join(',')
}

interface ActionLike { type: string; params?: unknown }

function commandsOf(actions: readonly ActionLike[]): ActionLike[] {
  // xstate's own bookkeeping actions are not commands; everything a machine declares is.
  return actions.filter((action) => !action.type.startsWith('xstate.'))
}

type Reporter = (record: Omit<TransitionRecord, 'flowId' | 'machine' | 'at'>) => void

/**
 * Applies `event` to `snapshot`, then runs each command the machine emits and feeds its result back, until the
 * machine waits for the browser or ends. Exported for flows that never persist (session, credentials), whose fast
 * paths hand over to the machine the moment a command answers something off the happy path.
 * @throws FlowRejected when the machine does not accept the event
 */
export async function drive(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, effects: EffectHandlers, report?: Reporter): Promise<AnyMachineSnapshot> {
  const apply = (from: AnyMachineSnapshot, ev: EventObject): [AnyMachineSnapshot, ActionLike[]] => {
    const [next, actions] = transition(machine, from, ev)
    if (next === from && actions.length === 0) {
      throw new FlowRejected('event not accepted in this state', { check: 'transition', state: stateName(from.value), event: ev.type })
    }
    report?.({ from: stateName(from.value), to: stateName(next.value), event: ev.type })
    return [next, commandsOf(actions as ActionLike[])]
  }

  let [current, commands] = apply(snapshot, event)
  let budget = maxCommandsPerRequest
  while (commands.length > 0) {
    if (commands.length > 1) throw new AuthError('a transition emitted more than one command', { commands: commands.map((c) => c.type) })
    if (--budget < 0) throw new AuthError('flow ran too many commands in one request', { machine: machine.id })
    const command = commands[0]!
    const handler = effects[command.type]
    if (!handler) throw new AuthError(`no handler for command ${command.type}`, { machine: machine.id })
    const result = await handler((command.params ?? {}) as Record<string, unknown>)
    ;[current, commands] = apply(current, result)
  }
  return current
}

/** The initial snapshot of a machine, computed once per machine instance. */
export function initialSnapshot(machine: AnyStateMachine): AnyMachineSnapshot {
  return initialSnapshotOf(machine)
}

/**
 * Applies one request event to a flow and runs it until it waits for the browser again or ends.
 * @throws FlowRejected when the stored flow is missing, replayed, expired, foreign, or the event is not accepted.
 */
export async function step(input: StepInput): Promise<StepResult> {
  const { entry, store, effects, onTransition } = input
  const machine = entry.machine

  let snapshot: AnyMachineSnapshot
  if (input.ref) {
    // Consume before anything runs: under a single-use store a replayed or concurrent request finds nothing here.
    const record = await store.consume(input.ref)
    if (!record) throw new FlowRejected('flow not found, expired or already used', { check: 'flow' })
    snapshot = fromFlowRecord(record, machine, entry.version, input.now)
  } else {
    snapshot = initialSnapshotOf(machine)
  }

  // A resumed flow keeps the id it was given when it began, so both of its requests show up under one id.
  const flowId = (snapshot.context as { flowId?: unknown }).flowId
  const report = onTransition ? (r: Omit<TransitionRecord, 'flowId' | 'machine' | 'at'>) => onTransition({ flowId: typeof flowId === 'string' ? flowId : input.flowId ?? 'new', machine: machine.id, at: input.now, ...r }) : undefined
  const current = await drive(machine, snapshot, input.event, effects, report)

  const done = current.status === 'done'
  let ref: string | null = null
  if (!done) {
    const record = toFlowRecord(current, machine.id, entry.version, input.now + input.flowMaxAge)
    ref = await store.save(record, input.ref)
  }
  return {
    value: current.value,
    context: current.context as Record<string, unknown>,
    status: done ? 'done' : 'active',
    ref,
    tags: current.tags,
  }
}
