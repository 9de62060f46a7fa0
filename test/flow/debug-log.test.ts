/**
 * `debug` names each step of every flow: the machine, the flow id, the state it was in, the event, the state it went
 * to and the command that state runs; the built-in logger writes it as one `key=value` line. Names only: what the
 * user typed never reaches the log. Runs real sign-ins through `Auth()`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoggerInstance, TransitionRecord } from '../../src/types/index.js'
import { CookieJar, recordingLogger, send, signIn, testConfig, users } from '../support/auth-harness.js'

afterEach(() => {
  vi.restoreAllMocks()
})

interface DebugCall {
  message: string
  metadata: unknown
}

/** A config whose logger keeps the debug calls (and the audit hook's records, to compare with). */
function recordingConfig() {
  const debug: DebugCall[] = []
  const transitions: TransitionRecord[] = []
  const logger: LoggerInstance = {
    ...recordingLogger().logger,
    debug: (message, metadata) => {
      debug.push({ message, metadata })
    },
  }
  const config = testConfig({ logger, onTransition: (record) => transitions.push(record) })
  return { config, debug, transitions }
}

describe('debug: one `flow step` per transition', () => {
  it('names the machine, flow id, state, event, next state and command of each step of a credentials sign-in', async () => {
    const { config, debug, transitions } = recordingConfig()
    await signIn(config, new CookieJar())
    const steps = debug.filter((call) => call.message === 'flow step').map((call) => call.metadata)
    const credentialSteps = transitions.filter((t) => t.machine === 'credentials')
    expect(credentialSteps.length).toBeGreaterThan(3)
    // The audit hook and the debug log see the same steps, in the same order.
    expect(steps.map((s) => ({ ...(s as object), command: undefined }))).toEqual(
      transitions.map((t) => ({
        machine: t.machine,
        flowId: t.flowId,
        from: t.from,
        event: t.event,
        to: t.to,
        command: undefined,
      })),
    )
    expect(steps[0]).toEqual({
      machine: 'credentials',
      flowId: credentialSteps[0].flowId,
      from: 'idle',
      event: 'CREDENTIALS_SUBMITTED',
      to: 'resolvingCallbackUrl',
      command: 'runRedirectCallback',
    })
    expect(steps).toContainEqual(
      expect.objectContaining({ machine: 'credentials', from: 'resolvingCallbackUrl', event: 'REDIRECT_RESOLVED' }),
    )
    expect(steps.at(-1)).toMatchObject({ machine: 'credentials', to: 'signedIn', command: undefined })
  })

  it('logs the session machine’s steps too, every flow going through the one runtime', async () => {
    const { config, debug } = recordingConfig()
    const jar = new CookieJar()
    await signIn(config, jar)
    debug.length = 0
    await send(config, '/auth/session', { jar })
    const machines = new Set(
      debug.filter((c) => c.message === 'flow step').map((c) => (c.metadata as { machine: string }).machine),
    )
    expect(machines).toEqual(new Set(['session']))
  })

  it('never carries what the user submitted: no password, no username', async () => {
    const { config, debug } = recordingConfig()
    await signIn(config, new CookieJar(), 'ada', 'a-wrong-password-typed-by-ada')
    const logged = JSON.stringify(debug)
    expect(logged).toContain('"event":"CREDENTIALS_SUBMITTED"')
    expect(logged).not.toContain('a-wrong-password-typed-by-ada')
    expect(logged).not.toContain('"ada"')
  })
})

describe('the built-in logger with `debug: true`', () => {
  it('writes each step as one line: [authchart][debug] flow step machine=… flowId=… from=… event=… to=… command=…', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '))
    })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const config = testConfig({ debug: true, logger: undefined })
    await signIn(config, new CookieJar(), 'ada', users.ada.password)
    const steps = lines.filter((line) => line.startsWith('[authchart][debug] flow step '))
    expect(steps.length).toBeGreaterThan(3)
    // A one-request flow without an audit hook has no flow id to print, so the field is left out.
    expect(steps[0]).toBe(
      '[authchart][debug] flow step machine=credentials from=idle event=CREDENTIALS_SUBMITTED to=resolvingCallbackUrl command=runRedirectCallback',
    )
    for (const line of lines.filter((l) => l.startsWith('[authchart][debug]'))) {
      expect(line).not.toContain('\n')
      expect(line).toMatch(/^\[authchart\]\[debug\] [^=]+( \w+=("[^"]*"|\S+))*$/)
    }
    expect(lines.join('\n')).not.toContain(users.ada.password)
  })

  it('prints the flow id when there is one', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '))
    })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const records: TransitionRecord[] = []
    const config = testConfig({ debug: true, logger: undefined, onTransition: (r) => records.push(r) })
    await signIn(config, new CookieJar())
    const flowId = records[0].flowId
    expect(lines).toContain(
      `[authchart][debug] flow step machine=credentials flowId=${flowId} from=idle event=CREDENTIALS_SUBMITTED to=resolvingCallbackUrl command=runRedirectCallback`,
    )
  })
})
