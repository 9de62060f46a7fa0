/**
 * The machine dialect of docs/architecture.md ("The machine dialect"): each feature the page says the compiled table
 * refuses is refused when the table is built, with an error that names it, and the page lists exactly the refusals
 * checked here (a refusal added to the table without the page, or to the page without a check, fails).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { assign, createMachine, fromPromise, type AnyStateMachine } from 'xstate'
import { describe, expect, it } from 'vitest'
import { compileMachine, UnsupportedMachineFeature } from '../../src/flow/compiled-machine.js'

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'architecture.md'), 'utf8')

/** The bullet list under "Refused when the table is built" in the dialect section. */
function refusedOnThePage(): string[] {
  const section = page.split('### The machine dialect')[1]?.split('\n## ')[0] ?? ''
  const list = section.split('**Refused when the table is built**')[1] ?? ''
  return [...list.matchAll(/^ {2}- (.+)$/gm)].map((match) => (match[1] ?? '').trim())
}

/** Each refused feature: a smallest machine that uses it, and what the refusal must say. */
const refusals: Record<string, [AnyStateMachine, RegExp]> = {
  'parallel states': [
    createMachine({ id: 'parallel', initial: 'a', states: { a: { type: 'parallel', states: { x: {}, y: {} } } } }),
    /the parallel state "a"/,
  ],
  'history states': [
    createMachine({
      id: 'history',
      initial: 'a',
      states: { a: { initial: 'x', states: { x: {}, back: { type: 'history' } } } },
    }),
    /the history state "a.back"/,
  ],
  'final states below the root': [
    createMachine({
      id: 'nestedFinal',
      initial: 'a',
      states: { a: { initial: 'inner', states: { inner: { type: 'final' } }, onDone: 'b' }, b: {} },
    }),
    /the final state "a.inner" below the root/,
  ],
  'exit actions': [
    createMachine({
      id: 'exiting',
      initial: 'a',
      states: { a: { exit: assign({}), on: { GO: 'b' } }, b: {} },
    }),
    /exit actions in "a"/,
  ],
  'delayed transitions': [
    createMachine({ id: 'delayed', initial: 'a', states: { a: { after: { 1000: 'b' } }, b: {} } }),
    // xstate cancels the timer with an exit action of its own, which the table meets (and refuses) first.
    /(delayed transitions or invocations|exit actions) in "a"/,
  ],
  invocations: [
    createMachine({
      id: 'invoking',
      initial: 'a',
      states: { a: { invoke: { src: fromPromise(async () => 1), onDone: 'b' } }, b: {} },
    }),
    /delayed transitions or invocations in "a"/,
  ],
  'inline side effects': [
    createMachine({
      id: 'effectful',
      initial: 'a',
      states: { a: { on: { GO: { target: 'b', actions: () => {} } } }, b: {} },
    }),
    /an inline action function/,
  ],
  're-entering self-transitions': [
    createMachine({ id: 'reentering', initial: 'a', states: { a: { on: { GO: { target: 'a', reenter: true } } } } }),
    /a re-entering self-transition/,
  ],
  'transitions of the root': [
    createMachine({ id: 'rootOn', initial: 'a', on: { RESET: '.a' }, states: { a: {} } }),
    /transitions of the root/,
  ],
  'a compound initial state': [
    createMachine({ id: 'compoundStart', initial: 'a', states: { a: { initial: 'x', states: { x: {} } } } }),
    /a compound initial state/,
  ],
}

describe('the machine dialect (docs/architecture.md)', () => {
  it('the page lists exactly the refusals checked here', () => {
    expect(refusedOnThePage().sort()).toEqual(Object.keys(refusals).sort())
  })

  it.each(Object.entries(refusals))(
    '%s: refused when the table is built, with a message naming it',
    (_, [machine, says]) => {
      expect(() => compileMachine(machine)).toThrow(UnsupportedMachineFeature)
      expect(() => compileMachine(machine)).toThrow(says)
    },
  )

  it('what the page says is supported compiles: a compound block entered at its initial, guards, assign, commands', () => {
    const machine = createMachine({
      id: 'supported',
      initial: 'start',
      context: { n: 0 },
      states: {
        start: { on: { GO: { target: 'block', guard: ({ context }) => context.n === 0 } } },
        block: {
          initial: 'first',
          entry: assign({ n: 1 }),
          on: { QUIT: 'done' },
          states: { first: { always: 'second' }, second: { on: { NEXT: '#supported.done' } } },
        },
        done: { type: 'final' },
      },
    })
    expect([...compileMachine(machine).states.keys()].sort()).toEqual(['block.first', 'block.second', 'done', 'start'])
  })
})
