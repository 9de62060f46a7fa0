/**
 * Handlers of the credentials machine's brute-force commands: read a running lockout, count a failure, start a
 * lockout, forget an account's failures after a right password. The machine compares counts with the limits.
 */
import { CallbackRouteError } from '../../errors.js'
import { failureKeyOf, failureSubject, type FailureKeyKind } from '../../providers-internal/credentials-limits.js'
import type { FailureCounter } from '../../types/providers.js'
import type { CredentialsCommand, credentialsContract, CredentialsEvent } from '../../../machines/credentials.js'
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
      /** The client, from a header the app trusts; undefined when unknown. */
      client?: string
    }

type LimitHandlers = Pick<
  HandlersFor<CredentialsCommand, CredentialsEvent, typeof credentialsContract>,
  'checkLockout' | 'recordFailure' | 'startLockout' | 'clearFailures'
>

type Peeked = { count: number; secondsLeft: number }

/** Whether a store's answer is still to come (a promise or any thenable). */
function isPending<T>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as PromiseLike<T> | undefined)?.then === 'function'
}

/** Seconds a peeked lockout still runs; 0 for none. */
function secondsLeft(peeked: Peeked | undefined): number {
  return peeked && peeked.count > 0 ? peeked.secondsLeft : 0
}

/** The four handlers, over one request's account and client. */
export function failureLimitHandlers(env: EffectEnv, providerId: string, limits: FailureLimitsInput): LimitHandlers {
  const { logger } = env.config
  // One request names at most one account and one client: each is digested once, whatever the keys asked for.
  const subjects = new Map<string, string>()
  const key = (kind: FailureKeyKind, value: string) => {
    let subject = subjects.get(value)
    if (subject === undefined) subjects.set(value, (subject = failureSubject(providerId, value)))
    return failureKeyOf(kind, subject)
  }

  function storeError(what: string, err: unknown): void {
    logger.error(
      new CallbackRouteError(`the credentials failure store failed to ${what}`, {
        err: err instanceof Error ? err : undefined,
        provider: providerId,
      }),
    )
  }

  return {
    checkLockout() {
      if (!limits.enabled) return { type: 'LOCKOUT_CHECKED', retryAfterSeconds: 0 }
      const { store } = limits
      const failed = (err: unknown) => {
        storeError('read a lockout', err)
        return { type: 'LOCKOUT_CHECK_FAILED' } as const
      }
      const checked = (account: Peeked | undefined, client: Peeked | undefined) =>
        ({ type: 'LOCKOUT_CHECKED', retryAfterSeconds: Math.max(secondsLeft(account), secondsLeft(client)) }) as const
      try {
        // Both are always read, so a locked and an unlocked account cost the same store work.
        const account = limits.account ? store.peek(key('account-lockout', limits.account), env.now) : undefined
        const client = limits.client ? store.peek(key('client-lockout', limits.client), env.now) : undefined
        // A store that answered at once (memory) costs the sign-in no wait.
        if (!isPending(account) && !isPending(client)) return checked(account, client)
        return Promise.all([account, client]).then(([a, c]) => checked(a, c), failed)
      } catch (err) {
        return failed(err)
      }
    },

    async recordFailure() {
      if (!limits.enabled) return { type: 'FAILURE_RECORDED', accountFailures: 0, clientFailures: 0 }
      try {
        const [accountFailures, clientFailures] = await Promise.all([
          limits.account ? limits.store.hit(key('account-failures', limits.account), limits.windowSeconds, env.now) : 0,
          limits.client ? limits.store.hit(key('client-failures', limits.client), limits.windowSeconds, env.now) : 0,
        ])
        return { type: 'FAILURE_RECORDED', accountFailures, clientFailures }
      } catch (err) {
        storeError('count a failure', err)
        return { type: 'FAILURE_RECORD_FAILED' }
      }
    },

    async startLockout(params) {
      if (!limits.enabled) return { type: 'LOCKOUT_STARTED' }
      const account = params.account ? limits.account : undefined
      const client = params.client ? limits.client : undefined
      try {
        // The lockout starts a fresh count: once it ends, the next failures are counted from zero.
        if (account) {
          await limits.store.hit(key('account-lockout', account), limits.lockoutSeconds, env.now)
          await limits.store.clear(key('account-failures', account))
        }
        if (client) {
          await limits.store.hit(key('client-lockout', client), limits.lockoutSeconds, env.now)
          await limits.store.clear(key('client-failures', client))
        }
      } catch (err) {
        storeError('start a lockout', err)
        return { type: 'LOCKOUT_STARTED' }
      }
      const scope = account && client ? 'both' : account ? 'account' : 'client'
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

    clearFailures() {
      if (!limits.enabled || !limits.account) return { type: 'FAILURES_CLEARED' }
      // The sign-in goes on whatever happens: a count left behind only ends with its window.
      const cleared = () => ({ type: 'FAILURES_CLEARED' }) as const
      const failed = (err: unknown) => {
        storeError('clear an account', err)
        return cleared()
      }
      try {
        const pending = limits.store.clear(key('account-failures', limits.account))
        return isPending(pending) ? Promise.resolve(pending).then(cleared, failed) : cleared()
      } catch (err) {
        return failed(err)
      }
    },
  }
}
