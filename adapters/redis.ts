/**
 * The Redis adapter, on an ioredis client. Records are JSON under namespaced keys; sessions and verification
 * tokens expire in Redis at their `expires` (a record whose expiry has already passed is never stored).
 * Needs Redis 6.2 or later (GETDEL, PXAT) on a single server or primary; Redis Cluster is not supported.
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisAdapter } from 'authchart/adapters/redis'
 * Auth(request, { adapter: RedisAdapter(new Redis(process.env.REDIS_URL)), providers: [...] })
 * ```
 * @module adapters/redis
 */
import type { Redis } from 'ioredis'
import {
  isDate, type Adapter, type AdapterAccount, type AdapterAuthenticator, type AdapterSession, type AdapterUser,
  type VerificationToken,
} from '../src/adapters.js'
import { runStoreCall, storeFailure, type StoreFailureKind } from './store-failure.js'
import {
  compareAndSetScript, createOwnedScript, createUserScript, deleteOwnedScript, deleteUserScript,
  sessionAndUserScript, updateUserScript,
} from './redis-scripts.js'

/** Options of `RedisAdapter`. */
export interface RedisAdapterOptions {
  /** Prepended to every key, so that several apps (or test runs) can share one Redis. Default `authchart:`. */
  prefix?: string
}

/** The keys a `RedisAdapter` with `prefix` uses; exported so that tools and tests can read the store directly. */
export function redisKeys(prefix = 'authchart:') {
  return {
    user: (id: string) => `${prefix}user:${id}`,
    userByEmailPrefix: `${prefix}user-by-email:`,
    userByEmail: (email: string) => `${prefix}user-by-email:${email}`,
    // The provider id is encoded so that `a:b` + `c` and `a` + `b:c` stay two different keys.
    account: (provider: string, providerAccountId: string) => `${prefix}account:${encodeURIComponent(provider)}:${providerAccountId}`,
    userAccountsPrefix: `${prefix}user-accounts:`,
    session: (sessionToken: string) => `${prefix}session:${sessionToken}`,
    userSessionsPrefix: `${prefix}user-sessions:`,
    verificationToken: (identifier: string, token: string) => `${prefix}verification-token:${encodeURIComponent(identifier)}:${token}`,
    authenticator: (credentialID: string) => `${prefix}authenticator:${credentialID}`,
    userAuthenticatorsPrefix: `${prefix}user-authenticators:`,
  }
}

// Compare-and-set retries before an update under constant contention gives up.
const maxUpdateAttempts = 16

/** Writes `next` over the record at `key` if it still holds `before`; false when another writer changed it. */
type Commit<T> = (key: string, before: string, current: T, next: T) => Promise<boolean>

/**
 * An adapter that keeps users, accounts, sessions, verification tokens and authenticators in Redis.
 * Every failure is thrown as an `AdapterError` naming the method. Writes that touch several keys run as one Lua
 * script; `useVerificationToken` is a single `GETDEL`, so a token is used at most once under any concurrency.
 * @param client A connected (or lazily connecting) ioredis client.
 * @param options Key prefix.
 * @returns An adapter with all 19 methods.
 */
export function RedisAdapter(client: Redis, options: RedisAdapterOptions = {}): Required<Adapter> {
  const keys = redisKeys(options.prefix)
  const call = <T>(method: string, run: () => Promise<T>) => runStoreCall(method, classifyRedisError, run)
  const script = (source: string, scriptKeys: string[], args: (string | number)[]) =>
    client.eval(source, scriptKeys.length, ...scriptKeys, ...args)
  const read = async <T>(key: string): Promise<T | null> => revive<T>(await client.get(key))

  /**
   * Read, change, write back only if unchanged (`commit` says whether it wrote); retried when another writer got
   * there first. `null` when the record does not exist.
   */
  const updateRecord = async <T>(method: string, key: string, change: (current: T) => T, commit: Commit<T>) => {
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const before = await client.get(key)
      if (before === null) return null
      const current = JSON.parse(before, reviveDates) as T
      const next = change(current)
      if (await commit(key, before, current, next)) return next
    }
    throw storeFailure(method, 'rejected', `the update (still contended after ${maxUpdateAttempts} attempts)`)
  }
  /** The plain commit: replace the record if it still holds what was read, with a new expiry when given. */
  const replaceIfUnchanged = <T>(expiresAt?: (record: T) => Date): Commit<T> => async (key, before, _current, next) =>
    await script(compareAndSetScript, [key], [before, JSON.stringify(next), expiresAt ? expiresAt(next).getTime() : '']) === 1

  return {
    createUser: (user) => call('createUser', async () => {
      const record = { ...user, id: user.id || crypto.randomUUID() }
      const scriptKeys = record.email ? [keys.user(record.id), keys.userByEmail(record.email)] : [keys.user(record.id)]
      const status = await script(createUserScript, scriptKeys, [JSON.stringify(record), record.id])
      if (status === 'duplicate-id') throw storeFailure('createUser', 'duplicate', 'a user with this id')
      if (status === 'duplicate-email') throw storeFailure('createUser', 'duplicate', 'a user with this email')
      return JSON.parse(JSON.stringify(record), reviveDates) as AdapterUser
    }),
    getUser: (id) => call('getUser', () => read<AdapterUser>(keys.user(id))),
    getUserByEmail: (email) => call('getUserByEmail', async () => {
      const id = await client.get(keys.userByEmail(email))
      return id === null ? null : read<AdapterUser>(keys.user(id))
    }),
    getUserByAccount: ({ provider, providerAccountId }) => call('getUserByAccount', async () => {
      const account = await read<{ userId: string }>(keys.account(provider, providerAccountId))
      return account ? read<AdapterUser>(keys.user(account.userId)) : null
    }),
    updateUser: ({ id, ...fields }) => call('updateUser', async () => {
      const emailKey = (email: string | null | undefined) => (email ? keys.userByEmail(email) : '')
      const updated = await updateRecord<AdapterUser>('updateUser', keys.user(id), (current) => ({ ...current, ...withoutUndefined(fields) }),
        async (key, before, current, next) => {
          // Moves the e-mail index with the user, in the same script, so two users can never claim one address.
          const status = await script(updateUserScript, [key, emailKey(current.email), emailKey(next.email)], [before, JSON.stringify(next), id])
          if (status === 'duplicate-email') throw storeFailure('updateUser', 'duplicate', 'a user with this email')
          return status === 'ok'
        })
      if (!updated) throw storeFailure('updateUser', 'not-found', 'a user with this id')
      return updated
    }),
    deleteUser: (userId) => call('deleteUser', async () => {
      const ownerSets = [keys.userAccountsPrefix, keys.userSessionsPrefix, keys.userAuthenticatorsPrefix].map((prefix) => prefix + userId)
      const deleted = await script(deleteUserScript, [keys.user(userId), ...ownerSets], [keys.userByEmailPrefix, userId])
      return revive<AdapterUser>(typeof deleted === 'string' ? deleted : null)
    }),
    linkAccount: (account) => call('linkAccount', async () => {
      const key = keys.account(account.provider, account.providerAccountId)
      const status = await script(createOwnedScript, [key, keys.userAccountsPrefix + account.userId], [JSON.stringify(account), '', ''])
      if (status === 'duplicate') throw storeFailure('linkAccount', 'duplicate', 'an account for this provider account id')
      return account
    }),
    unlinkAccount: ({ provider, providerAccountId }) => call('unlinkAccount', async () => {
      const deleted = await script(deleteOwnedScript, [keys.account(provider, providerAccountId)], [keys.userAccountsPrefix])
      return revive<AdapterAccount>(typeof deleted === 'string' ? deleted : null) ?? undefined
    }),
    getAccount: (providerAccountId, provider) => call('getAccount', () => read<AdapterAccount>(keys.account(provider, providerAccountId))),
    createSession: (session) => call('createSession', async () => {
      const key = keys.session(session.sessionToken)
      const args = [JSON.stringify(session), session.expires.getTime(), 'prune']
      const status = await script(createOwnedScript, [key, keys.userSessionsPrefix + session.userId], args)
      if (status === 'duplicate') throw storeFailure('createSession', 'duplicate', 'a session with this token')
      return session
    }),
    getSessionAndUser: (sessionToken) => call('getSessionAndUser', async () => {
      const found = await script(sessionAndUserScript, [keys.session(sessionToken)], [keys.user('')])
      if (!Array.isArray(found) || typeof found[0] !== 'string' || typeof found[1] !== 'string') return null
      const session = revive<AdapterSession>(found[0])
      const user = revive<AdapterUser>(found[1])
      return session && user ? { session, user } : null
    }),
    updateSession: ({ sessionToken, ...fields }) => call('updateSession', () =>
      updateRecord<AdapterSession>('updateSession', keys.session(sessionToken), (current) => ({ ...current, ...withoutUndefined(fields) }),
        replaceIfUnchanged((session) => session.expires))),
    deleteSession: (sessionToken) => call('deleteSession', async () => {
      const deleted = await script(deleteOwnedScript, [keys.session(sessionToken)], [keys.userSessionsPrefix])
      return revive<AdapterSession>(typeof deleted === 'string' ? deleted : null)
    }),
    createVerificationToken: (verificationToken) => call('createVerificationToken', async () => {
      const { identifier, token, expires } = verificationToken
      const created = await client.set(keys.verificationToken(identifier, token), JSON.stringify(verificationToken), 'PXAT', expires.getTime(), 'NX')
      if (created === null) throw storeFailure('createVerificationToken', 'duplicate', 'this verification token')
      return verificationToken
    }),
    useVerificationToken: ({ identifier, token }) => call('useVerificationToken', async () =>
      // The identifier is part of the key: a wrong one finds nothing and leaves the real token in place.
      revive<VerificationToken>(await client.getdel(keys.verificationToken(identifier, token)))),
    createAuthenticator: (authenticator) => call('createAuthenticator', async () => {
      const key = keys.authenticator(authenticator.credentialID)
      const status = await script(createOwnedScript, [key, keys.userAuthenticatorsPrefix + authenticator.userId], [JSON.stringify(authenticator), '', ''])
      if (status === 'duplicate') throw storeFailure('createAuthenticator', 'duplicate', 'an authenticator with this credential id')
      return authenticator
    }),
    getAuthenticator: (credentialID) => call('getAuthenticator', () => read<AdapterAuthenticator>(keys.authenticator(credentialID))),
    listAuthenticatorsByUserId: (userId) => call('listAuthenticatorsByUserId', async () => {
      const members = await client.smembers(keys.userAuthenticatorsPrefix + userId)
      if (members.length === 0) return []
      const found = await client.mget(...members)
      return found.flatMap((json) => revive<AdapterAuthenticator>(json) ?? [])
    }),
    updateAuthenticatorCounter: (credentialID, newCounter) => call('updateAuthenticatorCounter', async () => {
      const updated = await updateRecord<AdapterAuthenticator>('updateAuthenticatorCounter', keys.authenticator(credentialID),
        (current) => ({ ...current, counter: newCounter }), replaceIfUnchanged())
      if (!updated) throw storeFailure('updateAuthenticatorCounter', 'not-found', 'an authenticator with this credential id')
      return updated
    }),
  }
}

/** JSON back to a record, with ISO-8601 strings turned back into `Date`s (as `isDate` recognises them). */
function revive<T>(json: string | null): T | null {
  return json === null ? null : JSON.parse(json, reviveDates) as T
}

function reviveDates(_key: string, value: unknown): unknown {
  return typeof value === 'string' && isDate(value) ? new Date(value) : value
}

function withoutUndefined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>
}

// ioredis reports a lost or refused connection with these (MaxRetriesPerRequestError carries no code).
const unreachableMessage = /connection is closed|stream isn't writeable|reached the max retries|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND/i

function classifyRedisError(err: unknown): StoreFailureKind {
  if (err instanceof Error && (err.name === 'MaxRetriesPerRequestError' || unreachableMessage.test(err.message))) return 'unreachable'
  return 'rejected'
}
