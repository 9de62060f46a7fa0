/**
 * Applies `config.flows` to the machine registry: the app's guards replace the machines' named extension points
 * (`allowSignIn`, `allowUserCreation`, `allowAccountLinking`, …). Done once per config object, at start-up, because
 * `machine.provide()` builds a new machine (~50 µs) and a snapshot must be rebuilt on the machine that will step it.
 *
 * Only names an entry lists in `extensionPoints` can be replaced: the security checks are inline guards and stay
 * out of reach. Each hook is wrapped to be synchronous, boolean and fail-closed, because xstate treats any truthy
 * value as a pass: an `async` hook resolving to `false` would return a Promise and let the transition through.
 * @module flow/extend-machines
 */
import type { MachineEntry } from '../../machines/machine-entry.js'
import { AccessDenied, InvalidFlowExtension } from '../errors.js'
import { createLogger, type LoggerInstance } from '../logger.js'
import type { FlowExtensions } from '../types/flow-extensions.js'

/**
 * What every extension-point hook receives. `now` is the request's time in epoch seconds, taken from the event, else
 * from the flow's context, else (for a machine that carries neither) from the clock.
 */
export interface FlowGuardArgs {
  user: Record<string, unknown>
  providerId: string
  now: number
}

type GuardHook = (args: FlowGuardArgs) => unknown
type MachineGuard = (args: { context: unknown; event: unknown }) => boolean

/**
 * Marks a guard as the app's, so the diagrams can label it `(app)`. A registered symbol, because the diagrams
 * (visualizations/) may not import the runtime; visualizations/describe-machine.ts reads the same key.
 */
const appGuardMarker = Symbol.for('authchart.appGuard')

/** A registry of machine entries by id (the built-in one is typed per machine: machines/index.ts). */
type Registry = Readonly<Record<string, MachineEntry>>

const configuredByExtensions = new WeakMap<object, WeakMap<object, Registry>>()

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function guardArgs(context: unknown, event: unknown): FlowGuardArgs {
  const ctx = isRecord(context) ? context : {}
  const ev = isRecord(event) ? event : {}
  // A copy, frozen: a hook must not be able to change the flow's context.
  const user = Object.freeze(isRecord(ctx.user) ? { ...ctx.user } : {})
  const providerId = typeof ctx.providerId === 'string' ? ctx.providerId : ''
  // The clock is the last resort: a time-based hook (office hours) must not deny every sign-in of a flow whose
  // result events do not carry the time.
  const now =
    typeof ev.now === 'number' ? ev.now : typeof ctx.now === 'number' ? ctx.now : Math.floor(Date.now() / 1000)
  return { user, providerId, now }
}

/** Wraps an app hook so it can only ever answer `true` or `false`, and answers `false` when in doubt. */
function failClosedGuard(machineId: string, name: string, hook: GuardHook, logger: LoggerInstance): MachineGuard {
  let warned = false
  const guard: MachineGuard = ({ context, event }) => {
    let result: unknown
    try {
      result = hook(guardArgs(context, event))
    } catch (err) {
      logger.error(
        new AccessDenied(
          `flow guard ${machineId}.${name} threw, so it denied`,
          err instanceof Error ? err : { thrown: typeof err },
        ),
      )
      return false
    }
    if (typeof result === 'boolean') return result
    if (isRecord(result) && typeof result.then === 'function') {
      // The answer is ignored; a rejection must not surface later as an unhandled one.
      Promise.resolve(result).catch(() => {})
    }
    if (!warned) {
      // Once per hook: the config is static, so the first report says all there is to say.
      warned = true
      logger.warn('flow-guard-not-boolean')
      logger.debug(
        `flow guard ${machineId}.${name} returned ${result instanceof Promise ? 'a Promise' : typeof result}, not a boolean; it is treated as false. Guards must be synchronous.`,
      )
    }
    return false
  }
  Object.defineProperty(guard, appGuardMarker, { value: true })
  return guard
}

/** Checks `config.flows` against the registry and returns the hooks per machine. */
function validateExtensions(registry: Registry, extensions: unknown): Map<string, Record<string, GuardHook>> {
  if (!isRecord(extensions))
    throw new InvalidFlowExtension('config.flows must be an object keyed by machine id', {
      received: typeof extensions,
    })
  const hooks = new Map<string, Record<string, GuardHook>>()
  for (const [machineId, extension] of Object.entries(extensions)) {
    if (extension === undefined) continue
    const entry = Object.hasOwn(registry, machineId) ? registry[machineId] : undefined
    if (!entry) {
      throw new InvalidFlowExtension(`config.flows.${machineId}: unknown machine "${machineId}"`, {
        machine: machineId,
        known: Object.keys(registry),
      })
    }
    if (!isRecord(extension))
      throw new InvalidFlowExtension(`config.flows.${machineId} must be an object`, { machine: machineId })
    for (const key of Object.keys(extension)) {
      if (key !== 'guards')
        throw new InvalidFlowExtension(`config.flows.${machineId}.${key}: only "guards" can be extended`, {
          machine: machineId,
          option: key,
        })
    }
    if (extension.guards === undefined) continue
    if (!isRecord(extension.guards))
      throw new InvalidFlowExtension(`config.flows.${machineId}.guards must be an object`, { machine: machineId })
    const machineHooks: Record<string, GuardHook> = {}
    for (const [name, hook] of Object.entries(extension.guards)) {
      if (hook === undefined) continue
      if (!entry.extensionPoints.includes(name)) {
        throw new InvalidFlowExtension(
          `config.flows.${machineId}.guards.${name}: "${name}" is not an extension point of the ${machineId} machine (extension points: ${entry.extensionPoints.join(', ') || 'none'})`,
          { machine: machineId, guard: name, extensionPoints: [...entry.extensionPoints] },
        )
      }
      if (typeof hook !== 'function') {
        throw new InvalidFlowExtension(`config.flows.${machineId}.guards.${name} must be a function`, {
          machine: machineId,
          guard: name,
          received: typeof hook,
        })
      }
      machineHooks[name] = hook as GuardHook
    }
    if (Object.keys(machineHooks).length > 0) hooks.set(machineId, machineHooks)
  }
  return hooks
}

/**
 * The registry with the app's guards provided at the machines' extension points.
 * @param registry the built-in machines by id
 * @param extensions `config.flows`
 * @param logger where a hook that throws or answers a non-boolean is reported; the console by default
 * @returns the same registry object when there is nothing to apply; otherwise a new one, memoised per
 *   `extensions` object, whose extended entries hold a machine configured once with `provide()`
 * @throws InvalidFlowExtension for an unknown machine id, a guard name that is not an extension point of that
 *   machine, or a hook that is not a function
 */
export function configureMachines<R extends Registry>(
  registry: R,
  extensions: FlowExtensions | undefined,
  logger?: LoggerInstance,
): R {
  if (extensions === undefined) return registry
  const cached = configuredByExtensions.get(extensions)?.get(registry)
  if (cached && isSameRegistry(registry, cached)) return cached

  const hooks = validateExtensions(registry, extensions)
  let configured = registry
  if (hooks.size > 0) {
    const log = logger ?? createLogger({})
    for (const [machineId, machineHooks] of hooks) {
      if (!isEntryOf(configured, machineId)) continue
      const guards: Record<string, MachineGuard> = {}
      for (const [name, hook] of Object.entries(machineHooks))
        guards[name] = failClosedGuard(machineId, name, hook, log)
      configured = withGuardsAt(configured, machineId, guards)
    }
  }
  const perRegistry = configuredByExtensions.get(extensions) ?? new WeakMap<object, Registry>()
  perRegistry.set(registry, configured)
  configuredByExtensions.set(extensions, perRegistry)
  return configured
}

/** Whether `id` names an entry of `registry` (validateExtensions checked every id already). */
function isEntryOf<R extends Registry>(registry: R, id: string): id is keyof R & string {
  return Object.hasOwn(registry, id)
}

/**
 * Whether a cached registry was configured from `registry` (the cache is keyed by it): the same ids, each entry the
 * same machine id and version, so it is typed as `registry` is.
 */
function isSameRegistry<R extends Registry>(registry: R, cached: Registry): cached is R {
  return Object.keys(registry).every(
    (id) => cached[id]?.id === registry[id].id && cached[id]?.version === registry[id].version,
  )
}

/** The entry with the app's guards provided; the machine keeps its type (`provide` returns the same machine kind). */
function withGuards<E extends MachineEntry>(entry: E, guards: Record<string, MachineGuard>): E {
  return { ...entry, machine: entry.machine.provide({ guards }) }
}

/** A copy of `registry` whose entry `id` has the app's guards. */
function withGuardsAt<R extends Registry, K extends keyof R & string>(
  registry: R,
  id: K,
  guards: Record<string, MachineGuard>,
): R {
  const entry: R[K] = registry[id]
  return { ...registry, [id]: withGuards(entry, guards) }
}
