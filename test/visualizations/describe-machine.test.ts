import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { configureMachines } from '../../src/flow/extend-machines.js'
import { describeEntry, describeMachine, stateNodesOf, transitionsOf } from '../../visualizations/describe-machine.js'
import { fixtureNestedEntry, fixtureSignInEntry } from './fixtures/fixture-machines.js'

describe('describeMachine', () => {
  const graph = describeEntry(fixtureSignInEntry)

  it('lists every state with its description, tags and entry commands', () => {
    expect(graph.states.map((s) => s.path)).toEqual([
      'idle',
      'awaitingCredentials',
      'authorizing',
      'checkingSignIn',
      'issuingSession',
      'redirecting',
      'signedIn',
      'redirected',
      'failed',
    ])
    const waiting = graph.states.find((s) => s.path === 'awaitingCredentials')!
    expect(waiting.tags).toEqual(['awaitingBrowser'])
    expect(waiting.description).toBe('The sign-in form is shown; waiting for the user to submit it')
    expect(graph.states.find((s) => s.path === 'checkingSignIn')!.entry).toEqual([
      { name: 'runSignInCallback', text: 'runSignInCallback(…)' },
    ])
    expect(graph.states.filter((s) => s.type === 'final').map((s) => s.key)).toEqual([
      'signedIn',
      'redirected',
      'failed',
    ])
    expect(graph.initial).toBe('idle')
    expect(graph.version).toBe(1)
  })

  it('names inline guards by their function name and extension points by their setup name', () => {
    const started = graph.transitions.filter((t) => t.source === 'idle')
    expect(started[0].guard).toEqual({
      text: 'isKnownProvider',
      refs: [{ name: 'isKnownProvider', origin: 'inline' }],
    })
    expect(started[1].guard).toBeNull()
    const allowed = graph.transitions.find((t) => t.event === 'SIGNIN_ALLOWED' && t.order === 0)!
    expect(allowed.guard).toEqual({ text: 'allowSignIn', refs: [{ name: 'allowSignIn', origin: 'extension' }] })
  })

  it('spells out higher-order guards', () => {
    const resolved = graph.transitions.filter((t) => t.event === 'REDIRECT_RESOLVED')
    expect(resolved.map((t) => t.guard?.text)).toEqual(['isSessionIssued', '!isSessionIssued'])
  })

  it('shows static action parameters and hides computed ones', () => {
    const denied = graph.transitions.find((t) => t.event === 'SIGNIN_DENIED')!
    expect(denied.actions).toEqual([{ name: 'setError', text: 'setError(AccessDenied)' }])
    const authorized = graph.transitions.find((t) => t.event === 'AUTHORIZED')!
    expect(authorized.actions).toEqual([{ name: 'assign', text: 'assign' }])
  })

  it('keeps the order in which candidates for one event are tried', () => {
    const submitted = graph.transitions.filter((t) => t.event === 'CREDENTIALS_SUBMITTED')
    expect(submitted.map((t) => [t.order, t.targets[0]])).toEqual([
      [0, 'failed'],
      [1, 'authorizing'],
    ])
    expect(new Set(graph.transitions.map((t) => t.id)).size).toBe(graph.transitions.length)
  })

  it('describes compound states with their parent and initial child', () => {
    const nested = describeEntry(fixtureNestedEntry)
    expect(nested.states.find((s) => s.path === 'active')).toMatchObject({
      type: 'compound',
      initial: 'active.fresh',
      parent: null,
    })
    expect(nested.states.find((s) => s.path === 'active.refreshing')).toMatchObject({
      parent: 'active',
      entry: [{ name: 'refreshSession', text: 'refreshSession' }],
    })
    expect(nested.transitions.find((t) => t.event === 'SIGNED_OUT')).toMatchObject({
      source: 'active',
      targets: ['signedOut'],
    })
  })

  it('labels a guard the app provided through config.flows as the app’s', () => {
    // config.flows is keyed by the built-in machine ids, so the fixture stands in for `credentials` here.
    const configured = configureMachines(
      { credentials: fixtureSignInEntry },
      { credentials: { guards: { allowSignIn: () => true } } },
    )
    const configuredGraph = describeEntry(configured.credentials)
    const allowed = configuredGraph.transitions.find((t) => t.event === 'SIGNIN_ALLOWED' && t.order === 0)!
    expect(allowed.guard).toEqual({ text: 'allowSignIn (app)', refs: [{ name: 'allowSignIn', origin: 'app' }] })
    // The bare definition is untouched.
    expect(
      describeMachine(fixtureSignInEntry.machine, { extensionPoints: ['allowSignIn'] }).transitions.find(
        (t) => t.event === 'SIGNIN_ALLOWED',
      )!.guard!.text,
    ).toBe('allowSignIn')
  })

  it('describes every transition of every registered machine exactly once', () => {
    for (const entry of Object.values(machineRegistry)) {
      const described = describeEntry(entry)
      const declared = stateNodesOf(entry.machine.root).flatMap(transitionsOf)
      expect(described.transitions).toHaveLength(declared.length)
      expect(described.states).toHaveLength(stateNodesOf(entry.machine.root).length)
      for (const state of described.states)
        expect(state.description, `${entry.id}.${state.path} has a description`).toBeTruthy()
    }
  })
})
