/**
 * Replays one generated path through the real per-request runtime (`runFlow()`), the way the HTTP layer drives it:
 * each request event is one `runFlow()` call; every command the machine emits is answered by an effect double with the
 * path's next event. Only the effects are doubles; the runtime, the envelope and the machine are the real ones.
 */
import type { EventObject } from 'xstate'
import type { MachineEntry } from '../../machines/machine-entry.js'
import type { TransitionRecord } from '../../src/types/flow-extensions.js'
import { runFlow, type EffectHandlers, type FlowResult } from '../../src/flow/runtime.js'
import { describeEntry } from '../../visualizations/describe-machine.js'
import type { FlowPath } from './flow-paths.js'
import { MemoryFlowStore } from './memory-flow-store.js'

export interface CommandCall {
  type: string
  params: Record<string, unknown>
  /** The event the double answered with. */
  answer: EventObject
}

export interface Replay {
  /** One result per request (per `runFlow()` call). */
  requests: FlowResult[]
  final: FlowResult
  commands: CommandCall[]
  audit: TransitionRecord[]
  store: MemoryFlowStore
}

/** Longer than any flow's own deadline, so the machine, not the envelope, decides when a flow is too old. */
const flowMaxAge = 7 * 24 * 3600
const startOfTime = 1_700_000_000

/** The command types a machine emits: every non-builtin entry action of its states. */
export function commandTypes(entry: MachineEntry): string[] {
  const names = describeEntry(entry).states.flatMap((s) => s.entry.map((a) => a.name))
  return [...new Set(names)].filter((n) => !['assign', 'raise', 'sendTo', 'log', 'cancel', 'emit'].includes(n))
}

/**
 * Runs the path's events through `runFlow()`.
 * @throws when the runtime asks for more answers than the path has, which means the path and the runtime disagree
 */
export async function replayPath(entry: MachineEntry, path: FlowPath, flowId: string): Promise<Replay> {
  const queue = path.steps.slice(1).map((s) => s.event)
  const commands: CommandCall[] = []
  const audit: TransitionRecord[] = []
  const store = new MemoryFlowStore()
  const effects: EffectHandlers = {}
  for (const type of commandTypes(entry)) {
    effects[type] = (params) => {
      const answer = queue.shift()
      if (!answer) throw new Error(`command ${type} ran but the path has no event left to answer it`)
      commands.push({ type, params, answer })
      return answer
    }
  }
  const requests: FlowResult[] = []
  let ref: string | null = null
  let now = startOfTime
  while (queue.length > 0) {
    const event = queue.shift()!
    const eventNow: unknown = (event as { now?: unknown }).now
    if (typeof eventNow === 'number') now = eventNow
    const result: FlowResult = await runFlow({
      entry,
      event: event,
      handlers: effects,
      now,
      flowId,
      onTransition: (r) => {
        audit.push(r)
      },
      persistence: { store, ref, maxAge: flowMaxAge },
    })
    requests.push(result)
    ref = result.ref
  }
  return { requests, final: requests.at(-1)!, commands, audit, store }
}
