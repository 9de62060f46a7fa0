/**
 * The compiled transition table must behave exactly as xstate interprets the same machine: on every simple path that
 * @xstate/graph generates (with the app guards the path tests use), after every step, for every event of the
 * machine's alphabet, both agree on acceptance, the next state, the context, the commands emitted, the status and the
 * output (what a finished flow hands back to runFlow's caller).
 * The table names a state by its leaf's dotted path (`completingSignIn.issuingSession`), xstate by a state value
 * (`{ completingSignIn: 'issuingSession' }`): the comparison reads xstate's value as that path.
 */
import {
  assign,
  createMachine,
  initialTransition,
  transition,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
} from 'xstate'
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import {
  compileMachine,
  stepCompiled,
  UnsupportedMachineFeature,
  type CompiledSnapshot,
} from '../../src/flow/compiled-machine.js'
import { activeStatePaths, configuredRegistry, pathAlphabet, pathName, simplePathsOf } from './flow-paths.js'

interface Outcome {
  accepted: boolean
  value?: unknown
  context?: unknown
  status?: string
  output?: unknown
  commands?: Array<{ type: string; params: unknown }>
}

function viaXstate(
  machine: AnyStateMachine,
  from: AnyMachineSnapshot,
  event: EventObject,
): [Outcome, AnyMachineSnapshot] {
  const [next, actions] = transition(machine, from, event)
  if (next === from && actions.length === 0) return [{ accepted: false }, from]
  const commands = actions
    .filter((a) => !a.type.startsWith('xstate.'))
    .map((a) => ({ type: a.type, params: a.params ?? {} }))
  return [
    {
      accepted: true,
      value: leafPath(next),
      context: next.context,
      status: next.status,
      output: next.output,
      commands,
    },
    next,
  ]
}

/** The active leaf of a snapshot, as a dotted path (the machines have no parallel states: one leaf). */
function leafPath(snapshot: AnyMachineSnapshot): string | undefined {
  return activeStatePaths(snapshot.value).at(-1)
}

function viaTable(machine: AnyStateMachine, from: CompiledSnapshot, event: EventObject): [Outcome, CompiledSnapshot] {
  const step = stepCompiled(compileMachine(machine), from, event)
  if (!step) return [{ accepted: false }, from]
  return [
    {
      accepted: true,
      value: step.snapshot.value,
      context: step.snapshot.context,
      status: step.snapshot.status,
      output: step.snapshot.output,
      commands: step.commands,
    },
    step.snapshot,
  ]
}

for (const [label, registry] of [
  ['as defined', machineRegistry],
  ['with app guards', configuredRegistry],
] as const) {
  describe(`compiled machines ${label}`, () => {
    for (const entry of Object.values(registry)) {
      it(`${entry.id}: the table agrees with xstate on every event after every step of every generated path`, () => {
        const alphabet = pathAlphabet(entry)
        const paths = simplePathsOf(entry)
        expect(paths.length).toBeGreaterThan(5)
        let compared = 0
        // Paths share prefixes: each distinct (state, context) is probed with the whole alphabet once.
        const probed = new Set<string>()
        for (const path of paths) {
          let actual: AnyMachineSnapshot = path.steps[0].state
          let table: CompiledSnapshot = compileMachine(entry.machine).initial
          expect(table.value).toBe(leafPath(actual))
          for (const step of path.steps.slice(1)) {
            const key = JSON.stringify([actual.value, actual.context])
            for (const probe of probed.has(key) ? [step.event] : alphabet) {
              const [expected] = viaXstate(entry.machine, actual, probe)
              const [got] = viaTable(entry.machine, table, probe)
              expect(got, `${pathName(entry, path)} / ${probe.type}`).toEqual(expected)
              compared++
            }
            probed.add(key)
            ;[, actual] = viaXstate(entry.machine, actual, step.event)
            ;[, table] = viaTable(entry.machine, table, step.event)
          }
        }
        expect(compared).toBeGreaterThan(paths.length)
        // Every path ends in a final state: the output of each machine that declares one was compared on its way
        // out (token refresh declares none: nothing reads it).
        const declaresOutput = entry.machine.config.output !== undefined
        expect(paths.some((path) => path.steps.at(-1)?.state.output !== undefined)).toBe(declaresOutput)
        // Generating every simple path of the OAuth machine is the slow part (seconds on a busy 2-core machine).
      }, 180_000)
    }
  })
}

describe('outputs', () => {
  // The machine's output reads the done event, whose payload is the final state's own output (resolved with the
  // event that led there); a machine without an output has none, whatever its final states declare.
  const withFinalOutputs = createMachine({
    id: 'outputs',
    types: {} as { context: { n: number }; events: { type: 'GO' | 'STOP'; by: number } },
    context: { n: 1 },
    initial: 'a',
    output: ({ context, event }) => ({ n: context.n, done: event.type, from: event.output }),
    states: {
      a: {
        on: {
          GO: { target: 'ended', actions: assign(({ context, event }) => ({ n: context.n + event.by })) },
          STOP: 'stopped',
        },
      },
      ended: { type: 'final', entry: assign(({ context }) => ({ n: context.n * 10 })), output: ({ event }) => event },
      stopped: { type: 'final', output: 'fixed' },
    },
  })
  const withoutMachineOutput = createMachine({
    id: 'finalOnly',
    initial: 'a',
    states: { a: { on: { GO: 'ended' } }, ended: { type: 'final', output: { kept: false } } },
  })

  it.each([
    [withFinalOutputs, { type: 'GO', by: 2 }],
    [withFinalOutputs, { type: 'STOP', by: 0 }],
    [withoutMachineOutput, { type: 'GO' }],
  ])('%# the table computes the output xstate does', (machine, event) => {
    const [expected] = viaXstate(machine, initialTransition(machine)[0], event)
    const [got] = viaTable(machine, compileMachine(machine).initial, event)
    expect(expected.status).toBe('done')
    expect(got).toEqual(expected)
  })

  it('the machine output reads the final state output and the context after its entry actions', () => {
    const go = { type: 'GO', by: 2 }
    const [got] = viaTable(withFinalOutputs, compileMachine(withFinalOutputs).initial, go)
    expect(got.output).toEqual({ n: 30, done: 'xstate.done.state.outputs.ended', from: { type: 'GO', by: 2 } })
  })
})

describe('features the table cannot reproduce', () => {
  it.each([
    [
      'a parallel state',
      createMachine({ id: 'parallel', initial: 'a', states: { a: { type: 'parallel', states: { x: {}, y: {} } } } }),
    ],
    [
      'a final state below the root (its done event)',
      createMachine({
        id: 'nestedFinal',
        initial: 'a',
        states: { a: { initial: 'inner', states: { inner: { type: 'final' } }, onDone: 'b' }, b: {} },
      }),
    ],
    [
      'an exit action',
      createMachine({
        id: 'exiting',
        initial: 'a',
        states: { a: { initial: 'inner', exit: assign({}), states: { inner: { on: { GO: '#exiting.b' } } } }, b: {} },
      }),
    ],
    [
      'an inline side effect',
      createMachine({
        id: 'effectful',
        initial: 'a',
        states: { a: { on: { GO: { target: 'b', actions: () => {} } } }, b: {} },
      }),
    ],
    [
      'a delayed transition',
      createMachine({ id: 'delayed', initial: 'a', states: { a: { after: { 1000: 'b' } }, b: {} } }),
    ],
  ])('%s is refused when the table is built, never run differently', (_name, machine) => {
    expect(() => compileMachine(machine)).toThrow(UnsupportedMachineFeature)
  })
})
