/**
 * How the core uses an app's adapter: check at start-up that it has the methods the config needs, and call it
 * through a wrapper so that every failure reaches the caller as an `AdapterError` and the server log.
 * @module core/adapter-calls
 */
import {
  accountTokenMethodNames,
  adapterMethodNames,
  factorMethodNames,
  sessionRecordMethodNames,
  type Adapter,
  type AdapterMethodName,
  type WrappedAdapter,
} from '../types/adapters.js'
import { AdapterError, AuthError, MissingAdapter, MissingAdapterMethods } from '../errors.js'
import { withHint, type LoggerInstance } from '../logger.js'
import { flowMetrics } from '../flow/flow-metrics.js'

// The adapter types (the wrapped adapter effects receive included) live with the shared types.
export type { AdapterMethodName, WrappedAdapter } from '../types/adapters.js'

/**
 * The methods each feature calls, for `requireAdapterMethods` at start-up. The core may ask for several groups
 * at once (an e-mail provider with database sessions needs `emailSignIn`, `userResolution` and `databaseSession`).
 */
export const adapterMethodsNeededBy = {
  /** Finding or creating the user behind an OAuth/OIDC or e-mail sign-in, and linking the account. */
  userResolution: ['getUser', 'getUserByEmail', 'getUserByAccount', 'createUser', 'updateUser', 'linkAccount'],
  /** The `database` session strategy. */
  databaseSession: ['createSession', 'getSessionAndUser', 'updateSession', 'deleteSession'],
  /** The e-mail (magic link) provider. */
  emailSignIn: ['createVerificationToken', 'useVerificationToken', 'getUserByEmail'],
  /** WebAuthn (passkey) providers. */
  webAuthn: [
    'getAccount',
    'getAuthenticator',
    'createAuthenticator',
    'listAuthenticatorsByUserId',
    'updateAuthenticatorCounter',
  ],
  /** Token refresh with database sessions: the provider's tokens live in the account row (docs/token-refresh.md). */
  databaseTokenRefresh: ['getSessionAndUser', 'listAccountsByUserId', 'updateAccount', 'deleteSession'],
  /** Second factors (TOTP, recovery codes): docs/adapters.md, "Second factors (storage)". */
  secondFactors: ['createFactor', 'listFactorsByUserId', 'useTotpStep', 'useRecoveryCode', 'deleteFactor'],
} as const satisfies Record<string, readonly AdapterMethodName[]>

/**
 * Fails at start-up when the adapter lacks a method the configuration will call.
 * @param adapter The app's adapter (`undefined` when the config has none).
 * @param names The methods the configuration needs.
 * @param reason What needs them, for the message (`'the email provider'`).
 * @throws {MissingAdapter} when there is no adapter at all.
 * @throws {MissingAdapterMethods} naming every missing method.
 */
export function requireAdapterMethods(
  adapter: Adapter | undefined,
  names: readonly AdapterMethodName[],
  reason: string,
): asserts adapter is Adapter {
  if (!adapter) throw new MissingAdapter(`${reason} requires an adapter, and the config has none`, { reason })
  const missing = [...new Set(names)].filter((name) => typeof adapter[name] !== 'function')
  if (missing.length > 0) {
    // Auth.js's message as it is; what needs the methods is the hint the built-in logger prints.
    throw withHint(
      new MissingAdapterMethods(`Required adapter methods were missing: ${missing.join(', ')}`),
      `${reason} needs them: add them to the adapter`,
    )
  }
}

type AdapterCall = (...args: unknown[]) => unknown

/** How long an adapter call may take when the config sets no `adapterTimeout`. */
export const defaultAdapterTimeoutMs = 5000

/**
 * `call` raced against `timeoutMs`: a store that stalls (a database that stopped answering, a pool that waits for a
 * connection) would otherwise hold every request that needs it for as long as it stalls. The call itself cannot be
 * cancelled and may still finish; the request no longer waits for it.
 */
function withinDeadline<T>(call: Promise<T>, name: string, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AdapterError(`adapter method ${name} did not answer within ${timeoutMs} ms`, {
            method: name,
            kind: 'unreachable',
          }),
        ),
      timeoutMs,
    )
  })
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer))
}

/**
 * The adapter as the core calls it: every one of the 19 methods (and Authchart's account-token and factor ones) exists and returns a promise. A method that throws
 * (or rejects) is logged once with `logger.error` and rethrown as an `AdapterError` whose `cause.err` is the
 * original; an `AuthError` the adapter threw itself passes through as it is (logged too). A method the adapter
 * lacks rejects with `MissingAdapterMethods` naming it, so a gap that start-up checks missed still fails clearly.
 * A call that has not answered within `timeoutMs` rejects with an `AdapterError` of kind `unreachable` (503).
 * @param adapter The app's adapter.
 * @param logger Where failures are reported.
 * @param timeoutMs How long one call may take (`adapterTimeout`).
 * @returns A complete adapter.
 */
export function wrapAdapter(
  adapter: Adapter,
  logger: Pick<LoggerInstance, 'error'>,
  timeoutMs = defaultAdapterTimeoutMs,
): WrappedAdapter {
  const wrapped: Record<string, AdapterCall> = {}
  for (const name of [
    ...adapterMethodNames,
    ...accountTokenMethodNames,
    ...factorMethodNames,
    ...sessionRecordMethodNames,
  ]) {
    const method: unknown = adapter[name]
    wrapped[name] = async (...args: unknown[]) => {
      if (typeof method !== 'function') {
        const error = new MissingAdapterMethods(`Required adapter methods were missing: ${name} (for this request)`, {
          missing: [name],
        })
        logger.error(error)
        throw error
      }
      // Timed into the adapter-call histogram only while the app has a metrics SDK (docs/observability.md).
      const metrics = flowMetrics()
      const start = metrics ? performance.now() : 0
      try {
        const answer = await withinDeadline(
          Promise.resolve((method as AdapterCall).apply(adapter, args)),
          name,
          timeoutMs,
        )
        metrics?.adapterCall(name, performance.now() - start, undefined)
        return answer
      } catch (thrown) {
        metrics?.adapterCall(name, performance.now() - start, thrown)
        const error =
          thrown instanceof AuthError
            ? thrown
            : new AdapterError(`adapter method ${name} failed`, { method: name, err: asError(thrown) })
        logger.error(error)
        throw error
      }
    }
  }
  // Every method name was assigned above, each forwarding to the adapter's method of the same name.
  return wrapped as unknown as WrappedAdapter
}

/** Adapters may throw anything (a string, a driver's plain object); the log wants an Error with a stack. */
function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown
  if (typeof thrown === 'string') return new Error(thrown)
  try {
    return new Error(`non-error thrown: ${JSON.stringify(thrown)}`)
  } catch {
    return new Error(`non-error thrown: ${String(thrown)}`)
  }
}
