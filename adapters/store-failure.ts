/**
 * The errors Authchart's own adapters throw. Every failure leaves an adapter as an `AdapterError` whose message
 * names the method and what went wrong, and whose `cause` keeps the driver's error for the server log.
 */
import { AdapterError, AuthError } from '../src/errors.js'

/** What kind of failure a store reported. */
export type StoreFailureKind =
  /** A unique key (e-mail, provider account, session token, credential id) is already taken. */
  | 'duplicate'
  /** The record the call must change does not exist. */
  | 'not-found'
  /** The connection failed or went away before the store answered. */
  | 'unreachable'
  /** Anything else the store refused. */
  | 'rejected'

const describeKind: Record<StoreFailureKind, string> = {
  duplicate: 'already exists',
  'not-found': 'does not exist',
  unreachable: 'could not be reached',
  rejected: 'was refused by the store',
}

const defaultSubject: Record<StoreFailureKind, string> = {
  duplicate: 'a record with the same unique key',
  'not-found': 'the record',
  unreachable: 'the store',
  rejected: 'the request',
}

/**
 * The text of a thrown non-Error (some drivers throw strings or plain objects). No node:util here: adapters are also
 * bundled by framework builds that must not pull Node modules into the client half.
 */
function describeThrown(err: unknown): string {
  if (typeof err === 'string') return err
  try {
    return JSON.stringify(err) ?? typeof err
  } catch {
    return typeof err
  }
}

/**
 * An `AdapterError` for one failed call.
 * @param method The adapter method (`createUser`).
 * @param kind The kind of failure.
 * @param subject What the failure is about (`'a user with this email'`, `'the database'`).
 * @param err The driver's error, kept as `cause.err`.
 */
export function storeFailure(method: string, kind: StoreFailureKind, subject: string, err?: unknown): AdapterError {
  const detail: Record<string, unknown> = { method, kind }
  if (err instanceof Error) detail.err = err
  else if (err !== undefined) detail.err = new Error(describeThrown(err))
  return new AdapterError(`${method}: ${subject} ${describeKind[kind]}`, detail)
}

/**
 * Runs one adapter call and turns whatever the driver throws into an `AdapterError`, classified by `classify`.
 * Errors that already are `AuthError`s (thrown on purpose by the adapter) pass through.
 */
export async function runStoreCall<T>(
  method: string,
  classify: (err: unknown) => StoreFailureKind,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call()
  } catch (err) {
    if (err instanceof AuthError) throw err
    const kind = classify(err)
    throw storeFailure(method, kind, defaultSubject[kind], err)
  }
}
