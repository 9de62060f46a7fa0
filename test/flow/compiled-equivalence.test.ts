/**
 * The compiled transition table must behave exactly as xstate interprets the same machine: on every simple path that
 * @xstate/graph generates (with the app guards the path tests use), after every step, for every event of the
 * machine's alphabet, both agree on acceptance, the next state, the context, the commands emitted and the status.
 * The table names a state by its leaf's dotted path (`completingSignIn.issuingSession`), xstate by a state value
 * (`{ completingSignIn: 'issuingSession' }`): the comparison reads xstate's value as that path.
 */
import {
  assign,
  createMachine,
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
  return [{ accepted: true, value: leafPath(next), context: next.context, status: next.status, commands }, next]
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
        // Generating every simple path of the OAuth machine is the slow part (seconds on a busy 2-core machine).
      }, 180_000)
    }
  })
}

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
