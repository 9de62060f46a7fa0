/**
 * The paths the flow tests walk: every simple path of every registered machine, generated with `xstate/graph` over
 * the entry's event alphabet, on the machines as an app configures them. Each extension point gets an app guard that
 * denies one e-mail domain of its own, and the alphabet gets a user from each of those domains, so that both
 * answers of every extension point are on some path.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, StateValue } from 'xstate'
import { getSimplePaths, type StatePath } from 'xstate/graph'
import { machineRegistry } from '../../machines/index.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { configureMachines } from '../../src/flow/extend-machines.js'
import type { FlowExtensions } from '../../src/types/flow-extensions.js'
import type { LoggerInstance } from '../../src/logger.js'
import { pathEventsOf } from './fixtures/path-alphabets.js'
import { scalarText } from '../../src/security/scalar-text.js'

export type FlowPath = StatePath<AnyMachineSnapshot, EventObject>

/** The e-mail domain the app guard at extension point `name` refuses. */
export function deniedDomain(name: string): string {
  return `${name.toLowerCase()}-denied.test`
}

/** App guards for every extension point of every machine in `registry`: each refuses its own domain. */
export function appGuardsFor(registry: Record<string, MachineEntry>): FlowExtensions {
  const extensions: Record<string, { guards: Record<string, (args: { user: Record<string, unknown> }) => boolean> }> =
    {}
  for (const entry of Object.values(registry)) {
    if (entry.extensionPoints.length === 0) continue
    const guards: Record<string, (args: { user: Record<string, unknown> }) => boolean> = {}
    for (const name of entry.extensionPoints) {
      guards[name] = ({ user }) => !(typeof user.email === 'string' && user.email.endsWith(`@${deniedDomain(name)}`))
    }
    extensions[entry.id] = { guards }
  }
  return extensions
}

/** A copy of `value` with every string under an `email` key replaced. */
function withEmail(value: unknown, email: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withEmail(v, email))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === 'email' && typeof v === 'string' ? email : withEmail(v, email)]),
  )
}

function carriesEmail(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  return Object.entries(value).some(([k, v]) => (k === 'email' && typeof v === 'string') || carriesEmail(v))
}

/** The entry's alphabet plus, for each extension point, every user-carrying event again with a refused address. */
export function pathAlphabet(entry: MachineEntry): EventObject[] {
  const own = pathEventsOf(entry)
  const events = [...own]
  for (const name of entry.extensionPoints) {
    for (const event of own) {
      if (carriesEmail(event)) events.push(withEmail(event, `mallory@${deniedDomain(name)}`) as EventObject)
    }
  }
  return events
}

/** Logs of the configured machines' guards, kept for assertions instead of going to the console. */
export const guardLog: string[] = []
const collectingLogger: LoggerInstance = {
  error: (e) => guardLog.push(`error: ${e.message}`),
  warn: (code) => guardLog.push(`warn: ${code}`),
  debug: (message) => guardLog.push(`debug: ${message}`),
}

/** The registry as an app with the guards above runs it. */
export const configuredRegistry = configureMachines(machineRegistry, appGuardsFor(machineRegistry), collectingLogger)

const pathCache = new WeakMap<AnyStateMachine, FlowPath[]>()

/** Every simple path from the initial state, to any state. */
export function simplePathsOf(entry: MachineEntry): FlowPath[] {
  let paths = pathCache.get(entry.machine)
  if (!paths) {
    paths = getSimplePaths(entry.machine, { events: pathAlphabet(entry) }) as FlowPath[]
    pathCache.set(entry.machine, paths)
  }
  return paths
}

/** The simple paths that end in a final state. */
export function finalPathsOf(entry: MachineEntry): FlowPath[] {
  return simplePathsOf(entry).filter((p) => p.state.status === 'done')
}

/** Dotted paths of every active state node, ancestors included (`active`, `active.fresh`). */
export function activeStatePaths(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`]
  return Object.entries(value).flatMap(([key, child]) => [
    `${prefix}${key}`,
    ...(child ? activeStatePaths(child, `${prefix}${key}.`) : []),
  ])
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out)
  } else {
    out.set(prefix, String(value))
  }
}

/** `CALLBACK_RECEIVED(state=forged)`: the event type, plus the fields that tell it from its siblings in the alphabet. */
export function eventLabel(event: EventObject, alphabet: readonly EventObject[]): string {
  const siblings = alphabet.filter((e) => e.type === event.type)
  if (siblings.length < 2) return event.type
  const mine = new Map<string, string>()
  flatten(event, '', mine)
  const others = siblings.map((s) => {
    const m = new Map<string, string>()
    flatten(s, '', m)
    return m
  })
  const differing = [...mine.entries()].filter(
    ([key, value]) => key !== 'type' && others.some((o) => o.get(key) !== value),
  )
  return differing.length === 0 ? event.type : `${event.type}(${differing.map(([k, v]) => `${k}=${v}`).join(', ')})`
}

/** A path's name: its event sequence and where it ends, e.g. `SIGNIN_STARTED › … → failed (MissingCSRF)`. */
export function pathName(entry: MachineEntry, path: FlowPath): string {
  const alphabet = pathAlphabet(entry)
  const events = path.steps
    .slice(1)
    .map((s) => eventLabel(s.event, alphabet))
    .join(' › ')
  const context = path.state.context as { error?: unknown }
  const end = activeStatePaths(path.state.value).at(-1)
  return `${events} → ${end}${context.error ? ` (${scalarText(context.error)})` : ''}`
}
