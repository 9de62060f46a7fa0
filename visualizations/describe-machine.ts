/**
 * Reads a machine definition into a neutral graph model that every renderer (Mermaid, DOT, the HTML inspector)
 * draws from. It walks `machine.root` of the machine object it is given, so a machine configured with the app's
 * guards (after `provide()`) is described with those guards marked as the app's.
 * @module visualizations/describe-machine
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'
import type { MachineEntry } from '../machines/machine-entry.js'

/** A guard as the diagrams name it, with where each named part comes from. */
export interface GuardLabel {
  /** Display text, e.g. `isCsrfVerified`, `!allowSignIn (app)`, `a && b`. */
  text: string
  /** Every guard name it refers to, in order. */
  refs: Array<{ name: string; origin: GuardOrigin }>
}

/**
 * `inline`: a named function in the definition (a security check, never replaceable); `named`: declared in
 * `setup()` but not an extension point; `extension`: an extension point with the machine's default;
 * `app`: an extension point the app replaced.
 */
export type GuardOrigin = 'inline' | 'named' | 'extension' | 'app'

/** An action or command with its static parameters, when they are plain data. */
export interface ActionLabel {
  name: string
  /** `setError(AccessDenied)`, `exchangeCode(…)` when the parameters are computed, `assign` for builtins. */
  text: string
}

export interface FlowState {
  /** Dotted path from the root, e.g. `active.fresh`; unique within the machine. */
  path: string
  key: string
  parent: string | null
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history'
  /** For compound states: the path of the child entered first. */
  initial: string | null
  description: string | null
  tags: string[]
  /** Commands emitted on entry: the callbacks and effects the flow runs in this state. */
  entry: ActionLabel[]
  exit: ActionLabel[]
  /** Actors invoked here (flow machines use none; listed so a stray one is visible). */
  invoke: string[]
}

export interface FlowTransition {
  /** `source:EVENT:n`, stable across runs of the same definition. */
  id: string
  source: string
  /** Target paths; empty for a transition that stays in its state. */
  targets: string[]
  event: string
  guard: GuardLabel | null
  actions: ActionLabel[]
  description: string | null
  /** Position among the candidates for this event in this state: the first whose guard passes is taken. */
  order: number
}

export interface FlowGraph {
  machineId: string
  version: number | null
  /** Path of the root's initial state. */
  initial: string
  extensionPoints: string[]
  states: FlowState[]
  transitions: FlowTransition[]
}

/**
 * Marks a guard implementation as supplied by the app. `Symbol.for` keeps this module free of any import from the
 * runtime (diagrams depend on machines only); `src/flow/extend-machines.ts` sets the same registered symbol.
 */
const appGuardMarker = Symbol.for('authchart.appGuard')

function isAppGuard(machine: AnyStateMachine, name: string): boolean {
  const impl: unknown = (machine.implementations.guards as Record<string, unknown>)[name]
  return typeof impl === 'function' && (impl as unknown as Record<symbol, unknown>)[appGuardMarker] === true
}

function pathOf(node: AnyStateNode): string {
  return node.path.join('.')
}

function formatParam(value: unknown): string | null {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return String(value)
  return null
}

/** Parameters shown only when every value is plain; computed parameters are shown as `…` (they depend on context). */
function formatParams(params: unknown): string {
  if (params === undefined) return ''
  if (typeof params === 'function') return '(…)'
  if (typeof params !== 'object' || params === null) return `(${formatParam(params) ?? '…'})`
  const values = Object.values(params as Record<string, unknown>).map(formatParam)
  if (values.length === 0) return ''
  return values.every((v) => v !== null) ? `(${values.join(', ')})` : '(…)'
}

function describeAction(action: unknown): ActionLabel {
  if (typeof action === 'string') return { name: action, text: action }
  if (typeof action === 'function') {
    const typed = action as { type?: unknown; name: string }
    // Builtins (assign, raise, …) carry `xstate.<name>`; the prefix is noise on a diagram.
    const name = typeof typed.type === 'string' ? typed.type.replace(/^xstate\./, '') : typed.name || 'action'
    return { name, text: name }
  }
  if (typeof action === 'object' && action !== null && 'type' in action) {
    const { type, params } = action as { type: unknown; params?: unknown }
    const name = String(type)
    return { name, text: `${name}${formatParams(params)}` }
  }
  return { name: 'action', text: 'action' }
}

function describeGuard(machine: AnyStateMachine, guard: unknown, extensionPoints: ReadonlySet<string>): GuardLabel {
  const refs: GuardLabel['refs'] = []
  const named = (name: string): string => {
    const origin: GuardOrigin = isAppGuard(machine, name) ? 'app' : extensionPoints.has(name) ? 'extension' : 'named'
    refs.push({ name, origin })
    return origin === 'app' ? `${name} (app)` : name
  }
  const walk = (g: unknown): string => {
    if (typeof g === 'string') return named(g)
    if (typeof g === 'function') {
      const fn = g as { name: string; guards?: unknown[] }
      // Higher-order guards (`not`, `and`, `or`) keep their operands in `guards`.
      if (Array.isArray(fn.guards)) {
        const parts = fn.guards.map(walk)
        if (fn.name === 'not') return `!${parts[0] ?? '?'}`
        if (fn.name === 'and') return parts.join(' && ')
        if (fn.name === 'or') return parts.join(' || ')
      }
      const name = fn.name || 'anonymous'
      refs.push({ name, origin: 'inline' })
      return name
    }
    if (typeof g === 'object' && g !== null && 'type' in g) return named(String(g.type))
    return '?'
  }
  return { text: walk(guard), refs }
}

/** Turns xstate's internal event names into what a reader expects on an arrow. */
function eventLabel(eventType: string): string {
  const after = /^xstate\.after\.(\w+)\./.exec(eventType)
  if (after) return `after ${after[1]}ms`
  if (eventType.startsWith('xstate.done.state.')) return 'done'
  return eventType === '' ? 'always' : eventType
}

function describeTransition(
  machine: AnyStateMachine,
  t: AnyTransitionDefinition,
  order: number,
  extensionPoints: ReadonlySet<string>,
): FlowTransition {
  const source = pathOf(t.source)
  const event = eventLabel(String(t.eventType))
  return {
    id: `${source}:${event}:${order}`,
    source,
    targets: (t.target ?? []).map(pathOf),
    event,
    guard: t.guard === undefined ? null : describeGuard(machine, t.guard, extensionPoints),
    actions: t.actions.map(describeAction),
    description: typeof t.description === 'string' ? t.description : null,
    order,
  }
}

/** The state nodes below `root`, parents before children, in definition order. */
export function stateNodesOf(root: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = []
  const visit = (node: AnyStateNode): void => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      out.push(child)
      visit(child)
    }
  }
  visit(root)
  return out
}

/** Every transition a state node declares: by event, then eventless ones. */
export function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])]
}

/**
 * Describes one machine.
 * @param machine the machine object the server runs (configured, so app guards are labelled)
 * @param options.extensionPoints guard names the app may replace (from the registry entry)
 */
export function describeMachine(
  machine: AnyStateMachine,
  options: { extensionPoints?: readonly string[]; version?: number } = {},
): FlowGraph {
  const extensionPoints = new Set(options.extensionPoints ?? [])
  const nodes = stateNodesOf(machine.root)
  const states: FlowState[] = nodes.map((node) => ({
    path: pathOf(node),
    key: node.key,
    parent: node.parent && node.parent !== machine.root ? pathOf(node.parent) : null,
    type: node.type,
    initial: node.type === 'compound' ? (node.initial.target[0] ? pathOf(node.initial.target[0]) : null) : null,
    description: node.description ?? null,
    tags: [...node.tags],
    entry: node.entry.map(describeAction),
    exit: node.exit.map(describeAction),
    invoke: node.invoke.map((inv) => (typeof inv.src === 'string' ? inv.src : inv.id)),
  }))
  const transitions: FlowTransition[] = []
  for (const node of nodes) {
    const perEvent = new Map<string, number>()
    for (const t of transitionsOf(node)) {
      const key = String(t.eventType)
      const order = perEvent.get(key) ?? 0
      perEvent.set(key, order + 1)
      transitions.push(describeTransition(machine, t, order, extensionPoints))
    }
  }
  const initialTarget = machine.root.initial.target[0]
  return {
    machineId: machine.id,
    version: options.version ?? null,
    initial: initialTarget ? pathOf(initialTarget) : '',
    extensionPoints: [...extensionPoints],
    states,
    transitions,
  }
}

/** Describes a registry entry: its machine, version and extension points. */
export function describeEntry(entry: MachineEntry): FlowGraph {
  return describeMachine(entry.machine, { extensionPoints: entry.extensionPoints, version: entry.version })
}
