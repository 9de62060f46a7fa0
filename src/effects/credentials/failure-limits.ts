/**
 * Handlers of the credentials machine's brute-force commands: reserve an attempt (read a running lockout and count
 * the attempt, atomically, before authorize runs), start a lockout, give the attempt back after a right password. The
 * machine compares counts with the limits.
 */
import { CallbackRouteError } from '../../errors.js'
import { failureKeyOf, failureSubject, type FailureKeyKind } from '../../providers-internal/credentials-limits.js'
import type { FailureCounter } from '../../types/providers.js'
import type {
  CredentialsCommand,
  credentialsContract,
  CredentialsEvent,
  FailureBudget,
} from '../../../machines/credentials.js'
import type { HandlersFor } from '../../../machines/contract.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'

/** What the core resolved for one request: off, or the store, the window and the two keys being limited. */
export type FailureLimitsInput =
  | { enabled: false }
  | {
      enabled: true
      store: FailureCounter
      windowSeconds: number
      lockoutSeconds: number
      /** The submitted account, normalised; undefined when the form named none. */
      account?: string
      /** The device cookie's id, when the request carries one that verifies for `account` (src/core/device-cookie.ts). */
      device?: string
      /** The client, from a header the app trusts; undefined when unknown. */
      client?: string
    }

type LimitHandlers = Pick<
  HandlersFor<CredentialsCommand, CredentialsEvent, typeof credentialsContract>,
  'reserveAttempt' | 'startLockout' | 'clearFailures'
>

type Reserved = { lockedSeconds: number; attempts: number }

/** A lockout key and the key its failures are counted under. */
type Scope = { lockout: string; failures: string }

/** Whether a store's answer is still to come (a promise or any thenable). */
function isPending<T>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as PromiseLike<T> | undefined)?.then === 'function'
}

/**
 * One attempt reserved on a store: its own atomic `reserve` when it has one (the built-in counters), else a peek of
 * the lockout then a `hit` of the attempt (each atomic on its own, so parallel attempts still get distinct counts).
 */
function reserveOn(
  store: FailureCounter,
  lockoutKey: string,
  attemptKey: string,
  windowSeconds: number,
  now: number,
): Reserved | PromiseLike<Reserved> {
  if (store.reserve) return store.reserve(lockoutKey, attemptKey, windowSeconds, now)
  return Promise.resolve(store.peek(lockoutKey, now)).then(async (lock) =>
    lock.count > 0 && lock.secondsLeft > 0
      ? { lockedSeconds: lock.secondsLeft, attempts: 0 }
      : { lockedSeconds: 0, attempts: await store.hit(attemptKey, windowSeconds, now) },
  )
}

/**
 * The handlers, over one request's account and client. Their answers are the types their bodies return (checked by
 * `satisfies`, not declared), so test/flow/contract-types.test.ts checks them against the contract.
 */
export function failureLimitHandlers(env: EffectEnv, providerId: string, limits: FailureLimitsInput) {
  const { logger } = env.config
  // One request names at most one account and one client: each is digested once, whatever the keys asked for.
  const subjects = new Map<string, string>()
  const key = (kind: FailureKeyKind, value: string) => {
    let subject = subjects.get(value)
    if (subject === undefined) subjects.set(value, (subject = failureSubject(providerId, value)))
    return failureKeyOf(kind, subject)
  }

  /**
   * The keys an attempt's own budget lives under: the known device's, else the account's (undefined when the form
   * named no account). A device is known only for the account its cookie was issued to, so it never spends or
   * clears another account's budget.
   */
  function ownScope(budget: FailureBudget): Scope | undefined {
    if (!limits.enabled) return undefined
    if (budget === 'device' && limits.device !== undefined)
      return { lockout: key('device-lockout', limits.device), failures: key('device-failures', limits.device) }
    if (limits.account === undefined) return undefined
    return { lockout: key('account-lockout', limits.account), failures: key('account-failures', limits.account) }
  }

  function clientScope(): Scope | undefined {
    if (!limits.enabled || limits.client === undefined) return undefined
    return { lockout: key('client-lockout', limits.client), failures: key('client-failures', limits.client) }
  }

  function storeError(what: string, err: unknown): void {
    logger.error(
      new CallbackRouteError(`the credentials failure store failed to ${what}`, {
        err: err instanceof Error ? err : undefined,
        provider: providerId,
      }),
    )
  }

  async function lockAndRestart(lockoutKey: string, countKey: string): Promise<void> {
    if (!limits.enabled) return
    const { store } = limits
    if (store.lock) await store.lock(lockoutKey, limits.lockoutSeconds, env.now)
    else await store.hit(lockoutKey, limits.lockoutSeconds, env.now)
    await store.clear(countKey)
  }

  return {
    reserveAttempt({ budget }) {
      if (!limits.enabled)
        return { type: 'ATTEMPT_RESERVED', retryAfterSeconds: 0, accountFailures: 0, clientFailures: 0 }
      const { store, windowSeconds } = limits
      const failed = (err: unknown) => {
        storeError('count an attempt', err)
        return { type: 'ATTEMPT_RESERVE_FAILED' } as const
      }
      const reserved = (account: Reserved | undefined, client: Reserved | undefined) =>
        ({
          type: 'ATTEMPT_RESERVED',
          retryAfterSeconds: Math.max(account?.lockedSeconds ?? 0, client?.lockedSeconds ?? 0),
          accountFailures: account?.attempts ?? 0,
          clientFailures: client?.attempts ?? 0,
        }) as const
      const reserve = (scope: Scope | undefined) =>
        scope ? reserveOn(store, scope.lockout, scope.failures, windowSeconds, env.now) : undefined
      try {
        // Counted before authorize() runs: N guesses in flight at once cost N, and the machine lets through only those
        // within the limits. Both are always counted, so a locked and an unlocked account cost the same store work.
        const account = reserve(ownScope(budget))
        const client = reserve(clientScope())
        // A store that answered at once (memory) costs the sign-in no wait.
        if (!isPending(account) && !isPending(client)) return reserved(account, client)
        return Promise.all([account, client]).then(([a, c]) => reserved(a, c), failed)
      } catch (err) {
        return failed(err)
      }
    },

    async startLockout(params) {
      if (!limits.enabled) return { type: 'LOCKOUT_STARTED' }
      const own = params.account ? ownScope(params.budget) : undefined
      const client = params.client ? clientScope() : undefined
      const account = own && params.budget === 'account' ? limits.account : undefined
      try {
        // The lockout starts a fresh count: once it ends, the next failures are counted from zero.
        if (own) await lockAndRestart(own.lockout, own.failures)
        if (client) await lockAndRestart(client.lockout, client.failures)
      } catch (err) {
        storeError('start a lockout', err)
        return { type: 'LOCKOUT_STARTED' }
      }
      // A known device locks only itself: the app hears of it as the device scope, with no account to alert on.
      const ownName = params.budget === 'device' ? 'device' : 'account'
      const scope = own && client ? 'both' : own ? ownName : 'client'
      // Neither the account nor the client goes to the log: the event hands them to the app, which may alert.
      logger.warn('credentials-lockout', { provider: providerId, scope, lockoutSeconds: limits.lockoutSeconds })
      await emitAppEvent(env, 'credentialsLockout', {
        provider: providerId,
        scope,
        ...(account ? { account } : {}),
        until: new Date((env.now + limits.lockoutSeconds) * 1000),
      })
      return { type: 'LOCKOUT_STARTED' }
    },

    clearFailures({ budget }) {
      if (!limits.enabled) return { type: 'FAILURES_CLEARED' }
      const { store } = limits
      // The sign-in goes on whatever happens: a count left behind only ends with its window.
      const cleared = () => ({ type: 'FAILURES_CLEARED' }) as const
      const failed = (err: unknown) => {
        storeError('clear an account', err)
        return cleared()
      }
      try {
        // The account's count starts again; the client gets back the attempt it reserved (a success is no failure).
        const own = ownScope(budget)
        const client = clientScope()
        const account = own ? store.clear(own.failures) : undefined
        const released = client && store.release ? store.release(client.failures) : undefined
        if (!isPending(account) && !isPending(released)) return cleared()
        return Promise.all([account, released]).then(cleared, failed)
      } catch (err) {
        return failed(err)
      }
    },
  } satisfies LimitHandlers
}
