/**
 * A run's results that are secrets (a sealed session, a provider URL for a flow that waits) leave it through its
 * scratch, which `runFlow` returns to the caller typed by the handlers (`FlowResult.scratch`), and through nothing
 * else: the flow record a waiting flow is kept in, the app's `onTransition` hook, the debug log and the flow's end
 * (the audit trail) never see it. Each run gets a new, empty scratch.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { credentialsEntry, oauthEntry } from '../../machines/index.js'
import type { credentialsContract, CredentialsCommand, CredentialsEvent } from '../../machines/credentials.js'
import type { HandlersFor } from '../../machines/contract.js'
import type { SessionCookieWrites } from '../../src/effects/shared/session-cookie-writes.js'
import { runFlow, type EffectHandlers, type FlowEvent, type ScratchOf } from '../../src/flow/runtime.js'
import type { LoggerInstance } from '../../src/types/logger.js'
import { MemoryFlowStore } from './memory-flow-store.js'

/** A value no machine, hook or log line may carry: the sealed session a handler leaves for the cookie. */
const sealed = 'sealed-session-6f1d3c0a9b'

/** Everything a run shows to others, as text. */
function observer() {
  const seen: unknown[] = []
  const record = (level: string) => (code: unknown, meta?: unknown) => void seen.push([level, code, meta])
  const logger: LoggerInstance = { debug: record('debug'), warn: record('warn'), error: record('error') }
  return {
    seen,
    logger,
    onTransition: (transition: unknown) => void seen.push(transition),
    onEnd: (end: unknown) => void seen.push(end),
    text: () => JSON.stringify(seen),
  }
}

const submitted: FlowEvent = {
  type: 'CREDENTIALS_SUBMITTED',
  providerId: 'credentials',
  callbackUrl: 'https://app.example/in',
  csrfVerified: true,
  now: 1_900_000_000,
  maxFailures: 5,
  maxClientFailures: 50,
  lockoutSeconds: 900,
  accountReadable: true,
  knownDevice: false,
}

/** A credentials sign-in whose `issueSession` leaves the sealed session in the scratch, as the issuers do. */
function signInHandlers(): EffectHandlers {
  const answers: Record<string, FlowEvent> = {
    runRedirectCallback: { type: 'REDIRECT_RESOLVED', url: 'https://app.example/in' },
    reserveAttempt: { type: 'ATTEMPT_RESERVED', retryAfterSeconds: 0, accountFailures: 1, clientFailures: 1 },
    authorize: { type: 'AUTHORIZED', user: { id: 'u-1', email: 'a@example.com' } },
    clearFailures: { type: 'FAILURES_CLEARED' },
    runSignInCallback: { type: 'SIGNIN_ALLOWED' },
    checkSecondFactor: { type: 'SECOND_FACTOR_CHECKED', enrolled: false, mustEnrol: false, countsAsTwo: false },
    emitSignInEvent: { type: 'SIGNIN_ANNOUNCED' },
  }
  const handlers: EffectHandlers = {}
  for (const [command, answer] of Object.entries(answers)) handlers[command] = () => answer
  handlers.issueSession = (_params, scratch) => {
    scratch.issuedSession = { value: sealed, expires: 1_900_003_600 }
    return { type: 'SESSION_ISSUED' }
  }
  return handlers
}

describe('the run’s scratch', () => {
  it('is returned to the caller with what the handlers left, and shown to no one else', () => {
    const seen = observer()
    const result = runFlow({
      entry: credentialsEntry,
      event: submitted,
      handlers: signInHandlers(),
      now: 1_900_000_000,
      ...seen,
    })
    if (result instanceof Promise) throw new Error('every handler answered at once')
    expect(result.value).toBe('signedIn')
    expect(result.scratch.issuedSession).toEqual({ value: sealed, expires: 1_900_003_600 })
    // The hook saw the run (so the check below is no empty one), and nowhere the sealed session.
    expect(seen.seen.length).toBeGreaterThan(8)
    expect(seen.text()).toContain('issueSession')
    expect(seen.text()).not.toContain(sealed)
    expect(JSON.stringify(result.context)).not.toContain(sealed)
    expect(JSON.stringify(result.output)).not.toContain(sealed)
  })

  it('never enters the record of a flow that waits, and a new run begins with an empty one', async () => {
    const store = new MemoryFlowStore()
    const seen = observer()
    const authorizationUrl = `https://op.example/authorize?client_id=app&hint=${sealed}`
    const handlers: EffectHandlers = {
      runRedirectCallback: () => ({ type: 'REDIRECT_RESOLVED', url: 'https://app.example/in' }),
      buildAuthorizationUrl: (_params, scratch) => {
        scratch.authorizationUrl = authorizationUrl
        return { type: 'AUTHORIZATION_URL_BUILT' }
      },
    }
    const started = {
      type: 'SIGNIN_STARTED',
      flowId: 'f-1',
      providerId: 'op',
      csrfVerified: true,
      now: 1_900_000_000,
      expiresAt: 1_900_000_600,
      callbackUrl: 'https://app.example/in',
      state: 'state-1',
    }
    const run = () =>
      runFlow({
        entry: oauthEntry,
        event: started,
        handlers,
        now: 1_900_000_000,
        persistence: { store, ref: null, maxAge: 900 },
        ...seen,
      })
    const first = await run()
    expect(first.status).toBe('active')
    expect(first.scratch.authorizationUrl).toBe(authorizationUrl)
    const record = await store.load(first.ref ?? '')
    expect(record?.c).toMatchObject({ state: 'state-1' })
    expect(JSON.stringify(record)).not.toContain(sealed)
    expect(seen.text()).not.toContain(sealed)

    // The second run's handlers find nothing the first left.
    const found: unknown[] = []
    handlers.buildAuthorizationUrl = (_params, scratch) => {
      found.push({ ...scratch })
      return { type: 'AUTHORIZATION_URL_BUILT' }
    }
    const second = await run()
    expect(found).toEqual([{}])
    expect(second.scratch).toEqual({})
    expect(second.scratch).not.toBe(first.scratch)
  })

  it('is typed by the handlers’ own scratch', () => {
    type Handlers = HandlersFor<CredentialsCommand, CredentialsEvent, typeof credentialsContract, SessionCookieWrites>
    expectTypeOf<ScratchOf<Handlers>>().toEqualTypeOf<Partial<SessionCookieWrites>>()
    // Handlers that name no scratch of their own get the loose one.
    expectTypeOf<ScratchOf<EffectHandlers>>().toEqualTypeOf<Record<string, unknown>>()
    expectTypeOf<ScratchOf<{ run: () => { type: 'DONE' } }>>().toEqualTypeOf<Record<string, unknown>>()
  })
})
