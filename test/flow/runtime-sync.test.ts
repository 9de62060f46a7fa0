/**
 * The runtime runs a flow without a promise while its handlers answer at once, and switches to a promise at the first
 * handler that does not: the same steps, the same result, the same refusals either way.
 */
import { describe, expect, it } from 'vitest'
import { credentialsEntry } from '../../machines/index.js'
import { FlowRejected } from '../../src/errors.js'
import { runFlow, type EffectHandlers, type FlowEvent } from '../../src/flow/runtime.js'

const submitted = (csrfVerified: boolean): FlowEvent => ({
  type: 'CREDENTIALS_SUBMITTED',
  providerId: 'credentials',
  callbackUrl: 'https://app.example/in',
  csrfVerified,
  now: 1_900_000_000,
  maxFailures: 5,
  maxClientFailures: 50,
  lockoutSeconds: 900,
  accountReadable: true,
  knownDevice: false,
})

/** Every command answered at once, except those named in `later`, which answer through a promise. */
function handlers(later: string[] = []): { handlers: EffectHandlers; ran: string[] } {
  const ran: string[] = []
  const answers: Record<string, FlowEvent> = {
    runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'https://app.example/in' },
    reserveAttempt: { type: 'ATTEMPT_RESERVED', retryAfterSeconds: 0, accountFailures: 1, clientFailures: 1 },
    authorize: { type: 'AUTHORIZED', user: { id: 'u-1', email: 'a@example.com' } },
    clearFailures: { type: 'FAILURES_CLEARED' },
    runSignInCallback: { type: 'SIGNIN_ALLOWED' },
    checkSecondFactor: {
      type: 'SECOND_FACTOR_CHECKED',
      enrolled: false,
      mustEnrol: false,
      passkeyUserVerified: false,
      passkeyCountsAsTwo: true,
    },
    issueSession: { type: 'SESSION_ISSUED' },
    emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
  }
  const all: EffectHandlers = {}
  for (const [command, answer] of Object.entries(answers)) {
    all[command] = () => {
      ran.push(command)
      return later.includes(command) ? Promise.resolve(answer) : answer
    }
  }
  return { handlers: all, ran }
}

describe('the runtime, with handlers that answer at once', () => {
  it('ends the flow without a promise, and with one as soon as a handler answers through a promise', async () => {
    const now = handlers()
    const immediate = runFlow({ entry: credentialsEntry, event: submitted(true), handlers: now.handlers, now: 1 })
    expect(immediate).not.toBeInstanceOf(Promise)

    const late = handlers(['authorize'])
    const pending = runFlow({ entry: credentialsEntry, event: submitted(true), handlers: late.handlers, now: 1 })
    expect(pending).toBeInstanceOf(Promise)
    const settled = await pending

    expect(settled).toEqual(immediate)
    expect((immediate as Awaited<typeof pending>).value).toBe('signedIn')
    expect(late.ran).toEqual(now.ran)
    expect(now.ran).toEqual([
      'runRedirectCallback',
      'reserveAttempt',
      'authorize',
      'clearFailures',
      'runSignInCallback',
      'checkSecondFactor',
      'issueSession',
      'emitSignInEvent',
    ])
  })

  it('refuses an event the machine does not accept at once, or through the promise once one was waited for', async () => {
    const { handlers: now } = handlers()
    expect(() =>
      runFlow({ entry: credentialsEntry, event: { type: 'SIGNIN_ALLOWED' }, handlers: now, now: 1 }),
    ).toThrow(FlowRejected)

    // A handler that answers, through a promise, with an event its state does not take.
    const { handlers: late } = handlers(['reserveAttempt'])
    late.reserveAttempt = () => Promise.resolve({ type: 'SESSION_ISSUED' })
    await expect(
      Promise.resolve(runFlow({ entry: credentialsEntry, event: submitted(true), handlers: late, now: 1 })),
    ).rejects.toBeInstanceOf(FlowRejected)
  })
})
