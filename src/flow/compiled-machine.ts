/**
 * A machine's transition table, read once from its XState definition and then executed without the interpreter.
 *
 * Why: interpreting a machine with xstate's pure `transition()` costs 14–20 µs per event, and the session check (every
 * page view) takes five events. The table is derived from the very definition the diagrams and path tests read, so
 * the machine stays the single source of truth; test/flow/compiled-equivalence.test.ts replays every generated path on
 * both and requires the same states, contexts, commands and statuses.
 *
 * Only what Authchart's machines use is supported: atomic and final states, compound states (a step defined once and
 * composed into several machines, such as machines/sign-in-completion.ts) with entry actions, guarded transitions and
 * `always` transitions on any of them, `and` / `or` / `not` guards, `assign` actions (inline or named in `setup`),
 * named command actions with params, and `output` (the machine's, and its final states', which the machine's reads
 * from the done event): what a finished flow hands back to the runtime's caller. A state of the table is a leaf of the machine, named by its dotted path
 * (`completingSignIn.issuingSession`); a transition of an ancestor is tried after the leaf's own, as xstate does.
 * Anything else (parallel or history states, final states below the root and their done events, exit actions,
 * delayed transitions, invocations, inline side effects, raise/sendTo) is refused when the table is built, so a
 * machine can never silently run differently here than in xstate.
 */
import { and, initialTransition, not, or, type AnyStateMachine } from 'xstate'

/** A machine's context: plain data. */
export type FlowContext = Record<string, unknown>

/** An event: a type and its payload. */
export interface FlowEvent {
  type: string
  [field: string]: unknown
}

/** A command the machine asks the runtime to run: one of its declared actions, with resolved params. */
export interface FlowCommand {
  type: string
  params: Record<string, unknown>
}

/** The state of one flow between events. */
export interface CompiledSnapshot {
  value: string
  context: FlowContext
  status: 'active' | 'done'
  /** The machine's `output` once it is done (xstate's `snapshot.output`); absent while it runs or when it has none. */
  output?: unknown
}

type GuardCheck = (context: FlowContext, event: FlowEvent) => boolean
type ParamsOf = (context: FlowContext, event: FlowEvent) => Record<string, unknown>
type Assigner = (context: FlowContext, event: FlowEvent) => FlowContext
/** An `output` mapper (of the machine or of a final state), or a fixed value. */
type OutputOf = (context: FlowContext, event: FlowEvent) => unknown

type ActionStep = { kind: 'assign'; assign: Assigner } | { kind: 'command'; type: string; params: ParamsOf }

interface CompiledTransition {
  guard: GuardCheck | undefined
  /** The target leaf's path; undefined for a targetless transition (actions only, no state change). */
  target: string | undefined
  steps: readonly ActionStep[]
  /** The entry actions of the states the transition enters, outermost first (the target leaf's included). */
  enter: readonly ActionStep[]
}

interface CompiledState {
  key: string
  final: boolean
  /** A final state's xstate id, which names its done event (`xstate.done.state.<id>`). */
  id: string
  /** A final state's own `output`: the payload of its done event, which the machine's `output` reads. */
  output: OutputOf | undefined
  tags: ReadonlySet<string>
  /** The leaf's own entry actions (a transition's `enter` runs them, after any ancestor's it enters). */
  entry: readonly ActionStep[]
  on: ReadonlyMap<string, readonly CompiledTransition[]>
  always: readonly CompiledTransition[]
}

/** The table of one machine. */
export interface CompiledMachine {
  id: string
  states: ReadonlyMap<string, CompiledState>
  initial: CompiledSnapshot
  /** The machine's `output`, computed once a final state is reached. */
  output: OutputOf | undefined
}

/** What one event did: the snapshot after it and the commands it emitted. */
export interface CompiledStep {
  snapshot: CompiledSnapshot
  commands: FlowCommand[]
}

/** Thrown when a machine uses a feature the table cannot reproduce exactly. */
export class UnsupportedMachineFeature extends Error {}

// The slices of xstate's StateNode and action objects the table reads. xstate exposes them on the machine at run time.
interface NodeLike {
  id: string
  key: string
  path: string[]
  parent?: NodeLike
  initial?: { target: NodeLike[] }
  type: string
  tags: string[]
  entry: unknown[]
  exit: unknown[]
  states: Record<string, NodeLike>
  transitions: Map<string, TransitionLike[]>
  always?: TransitionLike[]
  after?: unknown[]
  invoke?: unknown[]
  output?: unknown
}
interface TransitionLike {
  target?: NodeLike[]
  guard?: unknown
  actions: unknown[]
  reenter?: boolean
}
type Implementations = { actions: Record<string, unknown>; guards: Record<string, unknown> }

const compiled = new WeakMap<AnyStateMachine, CompiledMachine>()

function isAssignAction(value: unknown): value is { assignment: unknown } {
  return typeof value === 'function' && (value as { type?: unknown }).type === 'xstate.assign'
}

function unsupported(machine: string, what: string): never {
  throw new UnsupportedMachineFeature(`machine "${machine}": ${what} is not supported by the compiled runtime`)
}

function resolveParams(params: unknown): ParamsOf {
  if (typeof params === 'function') {
    const fn = params as (args: { context: FlowContext; event: FlowEvent }) => unknown
    return (context, event) => (fn({ context, event }) ?? {}) as Record<string, unknown>
  }
  const fixed = (params ?? {}) as Record<string, unknown>
  return () => fixed
}

/** An `assign` as a pure function of context and event: the partial it computes, merged in order. */
function assignerOf(machineId: string, action: { assignment: unknown }, params: ParamsOf | undefined): Assigner {
  const { assignment } = action
  if (typeof assignment === 'function') {
    const fn = assignment as (args: { context: FlowContext; event: FlowEvent }, params: unknown) => FlowContext
    return (context, event) => ({ ...context, ...fn({ context, event }, params?.(context, event)) })
  }
  if (typeof assignment === 'object' && assignment !== null) {
    const entries = Object.entries(assignment as Record<string, unknown>)
    return (context, event) => {
      const next = { ...context }
      for (const [key, value] of entries) {
        next[key] =
          typeof value === 'function'
            ? (value as (args: { context: FlowContext; event: FlowEvent }, p: unknown) => unknown)(
                { context, event },
                params?.(context, event),
              )
            : value
      }
      return next
    }
  }
  return unsupported(machineId, 'an assign without an assignment')
}

function actionStep(machineId: string, action: unknown, implementations: Implementations): ActionStep {
  if (isAssignAction(action)) return { kind: 'assign', assign: assignerOf(machineId, action, undefined) }
  const named = typeof action === 'string' ? { type: action, params: undefined } : action
  if (typeof named !== 'object' || named === null || typeof (named as { type?: unknown }).type !== 'string') {
    return unsupported(machineId, 'an inline action function (machines must be pure)')
  }
  const { type, params } = named as { type: string; params?: unknown }
  if (type.startsWith('xstate.')) return unsupported(machineId, `the built-in action ${type}`)
  const implementation = implementations.actions[type]
  const paramsOf = resolveParams(params)
  if (isAssignAction(implementation)) return { kind: 'assign', assign: assignerOf(machineId, implementation, paramsOf) }
  if (typeof implementation !== 'function')
    return unsupported(machineId, `the action "${type}" without an implementation`)
  return { kind: 'command', type, params: paramsOf }
}

/** An `output` as xstate resolves it: a mapper called with the context and the event, or the value itself. */
function outputOf(mapper: unknown): OutputOf | undefined {
  if (mapper === undefined) return undefined
  if (typeof mapper === 'function') {
    const fn = mapper as (args: { context: FlowContext; event: FlowEvent }) => unknown
    return (context, event) => fn({ context, event })
  }
  return () => mapper
}

/** xstate's combinators carry their evaluator in `check`; these are the ones the table reproduces. */
const combinatorChecks = {
  not: (not(() => true) as unknown as { check: unknown }).check,
  and: (and([]) as unknown as { check: unknown }).check,
  or: (or([]) as unknown as { check: unknown }).check,
}

function combinator(
  machineId: string,
  fn: { check: unknown; guards?: unknown[] },
  implementations: Implementations,
): GuardCheck {
  const parts = (fn.guards ?? []).map((guard) => guardCheck(machineId, guard, implementations) as GuardCheck)
  if (fn.check === combinatorChecks.not && parts.length === 1) return (context, event) => !parts[0](context, event)
  if (fn.check === combinatorChecks.and) return (context, event) => parts.every((part) => part(context, event))
  if (fn.check === combinatorChecks.or) return (context, event) => parts.some((part) => part(context, event))
  return unsupported(machineId, 'a guard combinator other than and, or, not')
}

function guardCheck(machineId: string, guard: unknown, implementations: Implementations): GuardCheck | undefined {
  if (guard === undefined) return undefined
  let fn: unknown = guard
  let params: unknown
  if (typeof guard === 'string' || (typeof guard === 'object' && guard !== null)) {
    const { type, params: p } =
      typeof guard === 'string' ? { type: guard, params: undefined } : (guard as { type: string; params?: unknown })
    fn = implementations.guards[type]
    params = p
  }
  if (typeof fn === 'function' && 'check' in fn) return combinator(machineId, fn, implementations)
  if (typeof fn !== 'function') return unsupported(machineId, 'a guard that is neither a function nor a named function')
  const check = fn as (args: { context: FlowContext; event: FlowEvent }, params: unknown) => unknown
  const paramsOf = params === undefined ? undefined : resolveParams(params)
  return (context, event) => Boolean(check({ context, event }, paramsOf?.(context, event)))
}

/** Dotted path from the root: the key of a leaf in the table. */
function pathKey(node: NodeLike): string {
  return node.path.join('.')
}

function ancestorsOf(node: NodeLike): NodeLike[] {
  const chain: NodeLike[] = []
  for (let at: NodeLike | undefined = node; at; at = at.parent) chain.unshift(at)
  return chain
}

/** The leaf a state stands for when entered: itself, or its initial child's leaf, all the way down. */
function initialLeaf(machineId: string, node: NodeLike): NodeLike[] {
  if (node.type !== 'compound') return [node]
  const first = node.initial?.target[0]
  if (!first) return unsupported(machineId, `the compound state "${pathKey(node)}" without an initial state`)
  return [node, ...initialLeaf(machineId, first)]
}

/**
 * The states a transition from `source` to `target` enters, outermost first: below the innermost compound state
 * that holds both (a transition to a descendant of its own source leaves the source as it is, xstate's default),
 * down to the target and on through initial states to a leaf.
 */
function enteredStates(machineId: string, source: NodeLike, target: NodeLike): NodeLike[] {
  const from = ancestorsOf(source)
  const to = ancestorsOf(target)
  let shared = 0
  while (shared < from.length && shared < to.length && from[shared] === to[shared]) shared++
  // A transition to an ancestor of its source would exit and re-enter states: not reproduced.
  if (shared === to.length) unsupported(machineId, `a transition to an ancestor of "${pathKey(source)}"`)
  // Below the domain (the source itself when the target descends from it, else their innermost common ancestor).
  const below = to.slice(shared)
  return [...below.slice(0, -1), ...initialLeaf(machineId, below[below.length - 1])]
}

function compileTransitions(
  machineId: string,
  source: NodeLike,
  list: readonly TransitionLike[],
  implementations: Implementations,
): CompiledTransition[] {
  return list.map((transition) => {
    const targets = transition.target ?? []
    if (targets.length > 1) unsupported(machineId, 'a transition with several targets')
    const target = targets[0]
    if (target === source && transition.reenter) unsupported(machineId, 'a re-entering self-transition')
    // A transition to its own state without `reenter` runs no entry actions: the same as a targetless one here.
    const entered = target && target !== source ? enteredStates(machineId, source, target) : []
    const leaf = entered.at(-1)
    return {
      guard: guardCheck(machineId, transition.guard, implementations),
      target: leaf ? pathKey(leaf) : undefined,
      steps: transition.actions.map((action) => actionStep(machineId, action, implementations)),
      enter: entered.flatMap((node) => node.entry.map((action) => actionStep(machineId, action, implementations))),
    }
  })
}

/** The transitions a leaf takes for each event: its own first, then each ancestor's, as xstate selects them. */
function leafTransitions(
  machineId: string,
  leaf: NodeLike,
  implementations: Implementations,
): { on: Map<string, CompiledTransition[]>; always: CompiledTransition[] } {
  const on = new Map<string, CompiledTransition[]>()
  const always: CompiledTransition[] = []
  for (let node: NodeLike | undefined = leaf; node?.parent; node = node.parent) {
    for (const [eventType, list] of node.transitions) {
      if (eventType.includes('*') || eventType.startsWith('xstate.'))
        unsupported(machineId, `the event descriptor "${eventType}"`)
      on.set(eventType, [...(on.get(eventType) ?? []), ...compileTransitions(machineId, node, list, implementations)])
    }
    always.push(...compileTransitions(machineId, node, node.always ?? [], implementations))
  }
  return { on, always }
}

function checkNode(machineId: string, node: NodeLike): void {
  const where = pathKey(node)
  if (node.type !== 'atomic' && node.type !== 'final' && node.type !== 'compound')
    unsupported(machineId, `the ${node.type} state "${where}"`)
  if (node.type === 'final' && node.parent?.parent)
    unsupported(machineId, `the final state "${where}" below the root (its done event)`)
  if (node.exit.length > 0) unsupported(machineId, `exit actions in "${where}"`)
  if ((node.after?.length ?? 0) > 0 || (node.invoke?.length ?? 0) > 0)
    unsupported(machineId, `delayed transitions or invocations in "${where}"`)
}

function leavesOf(machineId: string, node: NodeLike): NodeLike[] {
  return Object.values(node.states).flatMap((child) => {
    checkNode(machineId, child)
    return child.type === 'compound' ? leavesOf(machineId, child) : [child]
  })
}

function build(machine: AnyStateMachine): CompiledMachine {
  const root = machine.root as unknown as NodeLike
  const implementations = machine.implementations as unknown as Implementations
  if (root.transitions.size > 0 || (root.always?.length ?? 0) > 0) unsupported(machine.id, 'transitions of the root')
  const states = new Map<string, CompiledState>()
  for (const node of leavesOf(machine.id, root)) {
    const { on, always } = leafTransitions(machine.id, node, implementations)
    states.set(pathKey(node), {
      key: pathKey(node),
      final: node.type === 'final',
      id: node.id,
      output: outputOf(node.output),
      tags: new Set(node.tags),
      entry: node.entry.map((action) => actionStep(machine.id, action, implementations)),
      on,
      always,
    })
  }
  const [first] = initialTransition(machine)
  if (typeof first.value !== 'string') unsupported(machine.id, 'a compound initial state')
  return {
    id: machine.id,
    states,
    output: outputOf(root.output),
    initial: {
      value: first.value,
      context: first.context as FlowContext,
      status: first.status === 'done' ? 'done' : 'active',
      ...(first.status === 'done' ? { output: first.output } : {}),
    },
  }
}

/** The table of a machine, built on first use and kept for the life of the machine object. */
export function compileMachine(machine: AnyStateMachine): CompiledMachine {
  let table = compiled.get(machine)
  if (!table) {
    table = build(machine)
    compiled.set(machine, table)
  }
  return table
}

/** Bound on `always` hops in one event: a machine that loops longer than this has a bug. */
const maxEventlessHops = 32

function runSteps(
  steps: readonly ActionStep[],
  context: FlowContext,
  event: FlowEvent,
  commands: FlowCommand[],
): FlowContext {
  let current = context
  for (const step of steps) {
    if (step.kind === 'assign') current = step.assign(current, event)
    else commands.push({ type: step.type, params: step.params(current, event) })
  }
  return current
}

function firstEnabled(
  list: readonly CompiledTransition[] | undefined,
  context: FlowContext,
  event: FlowEvent,
): CompiledTransition | undefined {
  if (!list) return undefined
  for (const transition of list) if (!transition.guard || transition.guard(context, event)) return transition
  return undefined
}

/**
 * Applies one event: the first enabled transition's actions, the target's entry actions, then any `always`
 * transitions, exactly as xstate orders them. Returns undefined when the event is not accepted in this state.
 */
export function stepCompiled(
  table: CompiledMachine,
  snapshot: CompiledSnapshot,
  event: FlowEvent,
): CompiledStep | undefined {
  if (snapshot.status === 'done') return undefined
  let state = table.states.get(snapshot.value)
  if (!state) return undefined
  const chosen = firstEnabled(state.on.get(event.type), snapshot.context, event)
  if (!chosen) return undefined
  const commands: FlowCommand[] = []
  let context = runSteps(chosen.steps, snapshot.context, event, commands)
  let transition: CompiledTransition | undefined = chosen
  for (let hops = 0; transition; hops++) {
    if (hops > maxEventlessHops)
      throw new UnsupportedMachineFeature(
        `machine "${table.id}": more than ${maxEventlessHops} eventless transitions in one step`,
      )
    if (hops > 0) context = runSteps(transition.steps, context, event, commands)
    if (transition.target !== undefined) {
      const next = table.states.get(transition.target)
      // The compiler resolved every target when it built the table; a miss means the table itself is broken.
      if (!next) throw new UnsupportedMachineFeature(`machine "${table.id}": unknown target ${transition.target}`)
      state = next
      context = runSteps(transition.enter, context, event, commands)
    }
    transition = state.final ? undefined : firstEnabled(state.always, context, event)
  }
  if (!state.final) return { snapshot: { value: state.key, context, status: 'active' }, commands }
  return {
    snapshot: { value: state.key, context, status: 'done', output: machineOutput(table, state, context, event) },
    commands,
  }
}

/**
 * The output of a machine that reached `final`, as xstate computes it: the final state's own `output` (resolved with
 * the event that led there) is the payload of its done event, and the machine's `output` is resolved with that done
 * event. A machine without an `output` has none, whatever its final states declare.
 */
function machineOutput(table: CompiledMachine, final: CompiledState, context: FlowContext, event: FlowEvent): unknown {
  if (!table.output) return undefined
  const done: FlowEvent = { type: `xstate.done.state.${final.id}`, output: final.output?.(context, event) }
  return table.output(context, done)
}

/** The tags of a state (e.g. `awaitingBrowser`). */
export function tagsOf(table: CompiledMachine, value: string): ReadonlySet<string> {
  return table.states.get(value)?.tags ?? noTags
}

const noTags: ReadonlySet<string> = new Set()

/** Whether `value` names a state of the machine (a persisted flow's state must still exist). */
export function hasState(table: CompiledMachine, value: unknown): value is string {
  return typeof value === 'string' && table.states.has(value)
}
