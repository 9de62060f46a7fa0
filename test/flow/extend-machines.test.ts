import { initialTransition, setup, transition } from 'xstate'
import { describe, expect, it, vi } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { AuthError, errorPageValue, InvalidFlowExtension } from '../../src/errors.js'
import { configureMachines } from '../../src/flow/extend-machines.js'
import type { FlowExtensions } from '../../src/types/flow-extensions.js'
import { runFlow, type EffectHandlers } from '../../src/flow/runtime.js'
import type { LoggerInstance } from '../../src/logger.js'
import {
  fixtureSignInEntry,
  fixtureSignInMachine,
  type FixtureEvent,
} from '../visualizations/fixtures/fixture-machines.js'
import { MemoryFlowStore } from './memory-flow-store.js'

// config.flows is keyed by the built-in ids; the fixture (a persisted, two-request flow) stands in for `credentials`.
const registry: Record<string, MachineEntry> = { credentials: fixtureSignInEntry }
const t0 = 1_700_000_000

function recordingLogger(): LoggerInstance & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    error: (e) => lines.push(`error ${(e as AuthError).type}: ${e.message}`),
    warn: (c) => lines.push(`warn ${c}`),
    debug: (m) => lines.push(`debug ${m}`),
  }
}

/** Signs in through the fixture with the given user answering `authorize`, over two requests. */
async function signIn(
  entry: MachineEntry,
  user: Record<string, unknown>,
  submittedAt = t0 + 60,
): Promise<{ value: unknown; error: unknown }> {
  const answers: Record<string, () => { type: string; [k: string]: unknown }> = {
    authorize: () => ({ type: 'AUTHORIZED', user }),
    runSignInCallback: () => ({ type: 'SIGNIN_ALLOWED' }),
    issueSession: () => ({ type: 'SESSION_ISSUED' }),
    runRedirectCallback: () => ({ type: 'REDIRECT_RESOLVED', url: 'https://app.test/' }),
  }
  const effects: EffectHandlers = Object.fromEntries(Object.entries(answers).map(([k, f]) => [k, () => f()]))
  const store = new MemoryFlowStore()
  const started: FixtureEvent = { type: 'SIGNIN_STARTED', providerId: 'credentials', now: t0 }
  const submitted: FixtureEvent = { type: 'CREDENTIALS_SUBMITTED', now: submittedAt, username: 'u', password: 'p' }
  const first = await runFlow({
    entry,
    event: started,
    handlers: effects,
    now: t0,
    persistence: { store, ref: null, maxAge: 3600 },
  })
  // The second request restores the flow from the store: the app's guard must survive that.
  const last = await runFlow({
    entry,
    event: submitted,
    handlers: effects,
    now: submittedAt,
    persistence: { store, ref: first.ref, maxAge: 3600 },
  })
  return { value: last.value, error: last.context.error }
}

describe('configureMachines', () => {
  it('returns the registry itself when there is nothing to apply', () => {
    expect(configureMachines(registry, undefined)).toBe(registry)
    expect(configureMachines(registry, {})).toBe(registry)
    expect(configureMachines(registry, { credentials: {} })).toBe(registry)
    expect(configureMachines(registry, { credentials: { guards: {} } })).toBe(registry)
  })

  it('rejects an unknown machine id with a configuration error that names it', () => {
    const act = (): unknown => configureMachines(registry, { oauth: { guards: { allowSignIn: () => true } } })
    expect(act).toThrow(InvalidFlowExtension)
    expect(act).toThrow('config.flows.oauth: unknown machine "oauth"')
    try {
      act()
    } catch (err) {
      expect(err).toBeInstanceOf(AuthError)
      expect(err).toMatchObject({
        type: 'InvalidFlowExtension',
        kind: 'error',
        cause: { machine: 'oauth', known: ['credentials'] },
      })
      expect(errorPageValue(err)).toEqual({ page: 'error', value: 'Configuration' })
    }
  })

  it('refuses to replace a guard that is not an extension point, such as a security check', () => {
    const flows = { credentials: { guards: { isCsrfVerified: () => true } } } as FlowExtensions
    expect(() => configureMachines(machineRegistry, flows)).toThrow(
      'config.flows.credentials.guards.isCsrfVerified: "isCsrfVerified" is not an extension point of the credentials machine (extension points: allowSignIn)',
    )
  })

  it('refuses a hook that is not a function, and options other than guards', () => {
    expect(() =>
      configureMachines(registry, { credentials: { guards: { allowSignIn: true } } } as unknown as FlowExtensions),
    ).toThrow('config.flows.credentials.guards.allowSignIn must be a function')
    expect(() => configureMachines(registry, { credentials: { actions: {} } } as unknown as FlowExtensions)).toThrow(
      'config.flows.credentials.actions: only "guards" can be extended',
    )
  })

  it('calls provide() once per machine and memoises the result per extensions object', () => {
    const provide = vi.spyOn(fixtureSignInMachine, 'provide')
    try {
      const flows: FlowExtensions = { credentials: { guards: { allowSignIn: () => true } } }
      const first = configureMachines(registry, flows)
      expect(configureMachines(registry, flows)).toBe(first)
      expect(provide).toHaveBeenCalledTimes(1)
      expect(first).not.toBe(registry)
      expect(first.credentials.machine).not.toBe(fixtureSignInMachine)
      expect(configureMachines(registry, { credentials: { guards: { allowSignIn: () => true } } })).not.toBe(first)
      expect(provide).toHaveBeenCalledTimes(2)
    } finally {
      provide.mockRestore()
    }
  })

  it('leaves machines without extensions as they were', () => {
    const configured = configureMachines(machineRegistry, { credentials: { guards: { allowSignIn: () => true } } })
    expect(configured.session).toBe(machineRegistry.session)
    expect(configured.credentials).not.toBe(machineRegistry.credentials)
  })
})

describe('an app guard at an extension point', () => {
  it('gets the user, the provider id and the request time, and decides, across a persisted flow', async () => {
    const seen: unknown[] = []
    const flows: FlowExtensions = {
      credentials: {
        guards: {
          allowSignIn: (args) => {
            seen.push(args)
            return String(args.user.email).endsWith('@example.com')
          },
        },
      },
    }
    const configured = configureMachines(registry, flows).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'signedIn',
      error: undefined,
    })
    expect(seen).toEqual([{ user: { id: 'u1', email: 'ada@example.com' }, providerId: 'credentials', now: t0 + 60 }])
    expect(await signIn(configured, { id: 'u2', email: 'eve@elsewhere.test' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
  })

  it('fails closed when the hook throws, and logs why', async () => {
    const logger = recordingLogger()
    const configured = configureMachines(
      registry,
      {
        credentials: {
          guards: {
            allowSignIn: () => {
              throw new Error('directory down')
            },
          },
        },
      },
      logger,
    ).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
    expect(logger.lines).toEqual(['error AccessDenied: flow guard credentials.allowSignIn threw, so it denied'])
  })

  it('fails closed when the hook is async (a Promise is truthy to xstate), and warns once', async () => {
    const logger = recordingLogger()
    const allowSignIn = (async () => true) as unknown as () => boolean
    const configured = configureMachines(registry, { credentials: { guards: { allowSignIn } } }, logger).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
    expect(logger.lines).toEqual([
      'warn flow-guard-not-boolean',
      'debug flow guard credentials.allowSignIn returned a Promise, not a boolean; it is treated as false. Guards must be synchronous.',
    ])
  })

  it('fails closed on any other non-boolean answer', async () => {
    const allowSignIn = (() => 'yes') as unknown as () => boolean
    const configured = configureMachines(
      registry,
      { credentials: { guards: { allowSignIn } } },
      recordingLogger(),
    ).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
  })

  it('cannot change the flow: the user it gets is a frozen copy', async () => {
    const logger = recordingLogger()
    const allowSignIn = ({ user }: { user: Record<string, unknown> }): boolean => {
      user.email = 'admin@example.com'
      return true
    }
    const configured = configureMachines(registry, { credentials: { guards: { allowSignIn } } }, logger).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' })).toEqual({
      value: 'failed',
      error: 'AccessDenied',
    })
    expect(logger.lines[0]).toMatch(/^error AccessDenied: flow guard credentials\.allowSignIn threw/)
  })

  it('falls back to the clock for `now` when neither the event nor the flow carries the time', () => {
    const timeless = setup({
      types: { events: {} as { type: 'CHECKED' } },
      guards: { allowSignIn: () => true },
    }).createMachine({
      id: 'timeless',
      initial: 'checking',
      states: {
        checking: { on: { CHECKED: [{ guard: 'allowSignIn', target: 'done' }, { target: 'denied' }] } },
        done: { type: 'final' },
        denied: { type: 'final' },
      },
    })
    const seen: number[] = []
    const configured = configureMachines(
      { credentials: { id: 'timeless', version: 1, machine: timeless, extensionPoints: ['allowSignIn'] } },
      {
        credentials: {
          guards: {
            allowSignIn: ({ now }) => {
              seen.push(now)
              return true
            },
          },
        },
      },
    ).credentials.machine
    vi.useFakeTimers({ now: new Date('2024-03-01T10:00:00Z') })
    try {
      const [next] = transition(configured, initialTransition(configured)[0], { type: 'CHECKED' })
      expect(next.value).toBe('done')
      expect(seen).toEqual([Date.UTC(2024, 2, 1, 10) / 1000])
    } finally {
      vi.useRealTimers()
    }
  })

  it('does not replace the inline security checks: an expired flow still fails whatever the app says', async () => {
    const configured = configureMachines(registry, {
      credentials: { guards: { allowSignIn: () => true } },
    }).credentials
    expect(await signIn(configured, { id: 'u1', email: 'ada@example.com' }, t0 + 3000)).toEqual({
      value: 'failed',
      error: 'FlowRejected',
    })
  })
})
