/**
 * The Redis adapter, on an ioredis client: a single server, a Sentinel-managed primary or a Redis Cluster, with the
 * same code. Records are JSON under namespaced keys; sessions and verification tokens expire in Redis at their
 * `expires` (a record whose expiry has already passed is never stored). Needs Redis 6.2 or later (GETDEL, PXAT).
 *
 * On a Cluster every command and script touches one slot: a user's row and its lists of accounts, sessions and
 * authenticators share the user id as hash tag. What cannot share a slot (the e-mail index and the user; a session
 * or account and its user's list) is written as single-slot steps in an order chosen so that a crash or a
 * concurrent call between two steps leaves nothing a reader or a later sign-in could trip over:
 * - an e-mail index is claimed with a lease before the user's row carries the address, and made permanent after;
 *   a reader follows it only to a row that still carries that address, and a permanent index whose user no longer
 *   has the address is taken over by the next claimant;
 * - a record owned by a user is listed under the user before it is written, and deleted before it is unlisted, so
 *   a list may name a record that is gone (skipped, and deleted records are checked to name the user) but a record
 *   is never missing from its user's list;
 * - an account or authenticator whose user is gone (a `deleteUser` cut short) may be linked again to a new user.
 * `docs/adapters.md` lists what is atomic and what is made safe by order.
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisAdapter } from 'authchart/adapters/redis'
 * Auth(request, { adapter: RedisAdapter(new Redis(process.env.REDIS_URL)), providers: [...] })
 * ```
 * @module adapters/redis
 */
import { randomBytes } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import {
  isDate,
  type Adapter,
  type AdapterAccount,
  type AdapterAuthenticator,
  type AdapterFactor,
  type AdapterSession,
  type AdapterUser,
  type VerificationToken,
} from '../src/types/adapters.js'
import { InvalidConfig } from '../src/errors.js'
import { factorRecord } from './factor-record.js'
import { runStoreCall, storeFailure, type StoreFailureKind } from './store-failure.js'
import {
  claimEmailScript,
  commitClaimScript,
  compareAndSetScript,
  createFactorScript,
  deleteFactorScript,
  deleteIfEqualScript,
  deleteIfOwnedScript,
  deleteUserRowScript,
  listSessionScript,
  takeOverClaimScript,
  useTotpStepScript,
} from './redis-scripts.js'

/** Options of `RedisAdapter`. */
export interface RedisAdapterOptions {
  /** Prepended to every key, so that several apps (or test runs) can share one Redis. Default `authchart:`. */
  prefix?: string
  /**
   * Milliseconds an e-mail address stays claimed by a `createUser` or `updateUser` that has not finished yet.
   * A writer that crashes mid-way blocks the address for at most this long. Default 10000.
   */
  emailClaimLeaseMs?: number
}

/**
 * The keys a `RedisAdapter` with `prefix` uses; exported so that tools and tests can read the store directly.
 * Keys in braces share a Cluster slot: a user's row and its three lists are tagged with the user id.
 */
export function redisKeys(prefix = 'authchart:') {
  return {
    user: (id: string) => `${prefix}user:{${id}}`,
    /** Value: the user id, after a claim token and a colon (`<22 characters>:<id>`). */
    userByEmail: (email: string) => `${prefix}user-by-email:${email}`,
    // The provider id is encoded so that `a:b` + `c` and `a` + `b:c` stay two different keys.
    account: (provider: string, providerAccountId: string) =>
      `${prefix}account:${encodeURIComponent(provider)}:${providerAccountId}`,
    /** A set of account keys. */
    userAccounts: (userId: string) => `${prefix}user-accounts:{${userId}}`,
    session: (sessionToken: string) => `${prefix}session:${sessionToken}`,
    /** A sorted set of session keys, scored by each session's expiry (epoch ms). */
    userSessions: (userId: string) => `${prefix}user-sessions:{${userId}}`,
    verificationToken: (identifier: string, token: string) =>
      `${prefix}verification-token:${encodeURIComponent(identifier)}:${token}`,
    authenticator: (credentialID: string) => `${prefix}authenticator:${credentialID}`,
    /** A set of authenticator keys. */
    userAuthenticators: (userId: string) => `${prefix}user-authenticators:{${userId}}`,
    /** A second factor, under its user's hash tag: a factor and its user's lists change in one script. */
    factor: (userId: string, factorId: string) => `${prefix}factor:{${userId}}:${factorId}`,
    /** A set of the user's factor ids. */
    userFactors: (userId: string) => `${prefix}user-factors:{${userId}}`,
    /** A hash of the user's unused recovery codes: code hash → factor id. */
    userRecoveryCodes: (userId: string) => `${prefix}user-recovery-codes:{${userId}}`,
  }
}

// Compare-and-set retries before an update under constant contention gives up.
const maxUpdateAttempts = 16
// Rounds of claiming an e-mail index (each one lost only to a concurrent writer) before giving up.
const maxClaimAttempts = 8

/** A claim value: a fresh token, so that two claims by one user are told apart, then the user id. */
const newClaim = (userId: string) => `${randomBytes(16).toString('base64url')}:${userId}`
const claimPattern = /^[A-Za-z0-9_-]{22}:/
/** The user id an e-mail index names (a bare id, as written before claims had tokens, is read as it is). */
const claimOwner = (value: string) => (claimPattern.test(value) ? value.slice(23) : value)

/**
 * An adapter that keeps users, accounts, sessions, verification tokens and authenticators in Redis.
 * Every failure is thrown as an `AdapterError` naming the method. `useVerificationToken` is a single `GETDEL`, so a
 * token is used at most once under any concurrency.
 * @param client A connected (or lazily connecting) ioredis `Redis` or `Cluster`.
 * @param options Key prefix, e-mail claim lease.
 * @returns An adapter with all 19 methods, and Authchart's two account-token, five second-factor and one
 *   session-record (`listSessionsByUser`) methods.
 * @throws InvalidConfig when `emailClaimLeaseMs` is not a positive whole number.
 */
export function RedisAdapter(client: Redis | Cluster, options: RedisAdapterOptions = {}): Required<Adapter> {
  const keys = redisKeys(options.prefix)
  const leaseMs = options.emailClaimLeaseMs ?? 10_000
  if (!(Number.isInteger(leaseMs) && leaseMs > 0)) {
    throw new InvalidConfig('emailClaimLeaseMs must be a whole number of milliseconds above 0', {
      emailClaimLeaseMs: leaseMs,
    })
  }
  const call = <T>(method: string, run: () => Promise<T>) => runStoreCall(method, classifyRedisError, run)
  const script = (source: string, scriptKeys: string[], args: (string | number)[]) =>
    client.eval(source, scriptKeys.length, ...scriptKeys, ...args)
  const read = async <T>(key: string): Promise<T | null> => revive<T>(await client.get(key))
  const duplicateEmail = (method: string) => storeFailure(method, 'duplicate', 'a user with this email')

  /**
   * Claims `email` for `userId` with a lease and returns the claim. A leased claim is someone's write in progress:
   * duplicate. A permanent one is a duplicate if its user still has the address, and stale otherwise (a writer
   * died after moving the user to another address, or the user is gone), in which case it is taken over.
   */
  const claimEmail = async (method: string, email: string, userId: string): Promise<string> => {
    const key = keys.userByEmail(email)
    for (let attempt = 0; attempt < maxClaimAttempts; attempt++) {
      const claim = newClaim(userId)
      const result = (await script(claimEmailScript, [key], [claim, leaseMs])) as [string, string?, number?]
      if (result[0] === 'ok') return claim
      const [, current = '', remainingMs = -2] = result
      if (remainingMs === -2) continue // gone between SET and GET: try again
      if (remainingMs !== -1) throw duplicateEmail(method)
      const holder = await read<AdapterUser>(keys.user(claimOwner(current)))
      // Whoever holds it (even `userId` itself: a createUser repeating an existing id) keeps a live address.
      if (holder?.email === email) throw duplicateEmail(method)
      if ((await script(takeOverClaimScript, [key], [current, claim, leaseMs])) === 1) return claim
    }
    throw storeFailure(method, 'rejected', `the e-mail claim (still contended after ${maxClaimAttempts} attempts)`)
  }
  const commitClaim = async (email: string, claim: string) =>
    (await script(commitClaimScript, [keys.userByEmail(email)], [claim])) === 1
  const dropClaim = (email: string, claim: string) => script(deleteIfEqualScript, [keys.userByEmail(email)], [claim])
  /** Removes `email`'s index if it names `userId` (and not whoever took it over since). */
  const releaseEmailOf = async (email: string, userId: string) => {
    const current = await client.get(keys.userByEmail(email))
    if (current !== null && claimOwner(current) === userId) await dropClaim(email, current)
  }

  /**
   * Read, change, write back only if unchanged (`commit` says whether it wrote); retried when another writer got
   * there first. `null` when the record does not exist.
   */
  const updateRecord = async <T>(
    method: string,
    key: string,
    change: (current: T) => T,
    commit: (before: string, current: T, next: T) => Promise<boolean>,
  ) => {
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const before = await client.get(key)
      if (before === null) return null
      const current = JSON.parse(before, reviveDates) as T
      const next = change(current)
      if (await commit(before, current, next)) return next
    }
    throw storeFailure(method, 'rejected', `the update (still contended after ${maxUpdateAttempts} attempts)`)
  }
  const replaceIfUnchanged = async (key: string, before: string, next: unknown, expiresAt?: Date) =>
    (await script(compareAndSetScript, [key], [before, JSON.stringify(next), expiresAt ? expiresAt.getTime() : ''])) ===
    1

  /**
   * Creates a record owned by a user and listed in one of its sets: listed first, then written with `NX`. A taken
   * key is a duplicate, unless `mayReplaceOrphan` and the record's user no longer exists (a `deleteUser` cut
   * short), in which case nobody can use the record and the new one replaces it.
   */
  const createOwned = async (
    method: string,
    subject: string,
    key: string,
    list: string,
    record: { userId: string },
    mayReplaceOrphan: boolean,
  ) => {
    const json = JSON.stringify(record)
    await client.sadd(list, key)
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      if ((await client.set(key, json, 'NX')) !== null) return
      const existing = await client.get(key)
      if (existing === null) continue
      const owner = revive<{ userId?: unknown }>(existing)?.userId
      if (
        mayReplaceOrphan &&
        typeof owner === 'string' &&
        owner !== record.userId &&
        (await client.exists(keys.user(owner))) === 0
      ) {
        if (await replaceIfUnchanged(key, existing, record)) return
        continue
      }
      if (owner !== record.userId) await client.srem(list, key)
      throw storeFailure(method, 'duplicate', subject)
    }
    throw storeFailure(method, 'rejected', `the write (still contended after ${maxUpdateAttempts} attempts)`)
  }
  /** Deletes a record (GETDEL) and then unlists it from its user's set or sorted set. */
  const deleteOwned = async <T extends { userId: string }>(
    key: string,
    unlist: (userId: string) => Promise<unknown>,
  ) => {
    const record = revive<T>(await client.getdel(key))
    if (record && typeof record.userId === 'string') await unlist(record.userId)
    return record
  }

  return {
    createUser: (user) =>
      call('createUser', async () => {
        const record = { ...user, id: user.id || crypto.randomUUID() }
        const json = JSON.stringify(record)
        const email = record.email || null
        const claim = email ? await claimEmail('createUser', email, record.id) : null
        if ((await client.set(keys.user(record.id), json, 'NX')) === null) {
          if (email && claim) await dropClaim(email, claim)
          throw storeFailure('createUser', 'duplicate', 'a user with this id')
        }
        if (email && claim && !(await commitClaim(email, claim))) {
          // The lease ran out while this call stalled, and another user took the address: undo the row.
          await script(deleteIfEqualScript, [keys.user(record.id)], [json])
          throw duplicateEmail('createUser')
        }
        return JSON.parse(json, reviveDates) as AdapterUser
      }),
    getUser: (id) => call('getUser', () => read<AdapterUser>(keys.user(id))),
    getUserByEmail: (email) =>
      call('getUserByEmail', async () => {
        const claim = await client.get(keys.userByEmail(email))
        if (claim === null) return null
        // An index is followed only to a row that carries the address: a claim in progress or a stale one finds nobody.
        const user = await read<AdapterUser>(keys.user(claimOwner(claim)))
        return user?.email === email ? user : null
      }),
    getUserByAccount: ({ provider, providerAccountId }) =>
      call('getUserByAccount', async () => {
        const account = await read<{ userId: string }>(keys.account(provider, providerAccountId))
        return account ? read<AdapterUser>(keys.user(account.userId)) : null
      }),
    updateUser: ({ id, ...fields }) =>
      call('updateUser', async () => {
        const key = keys.user(id)
        const updated = await updateRecord<AdapterUser>(
          'updateUser',
          key,
          (current) => ({ ...current, ...withoutUndefined(fields) }),
          async (before, current, next) => {
            const oldEmail = current.email || null
            const newEmail = next.email || null
            if (oldEmail === newEmail) return replaceIfUnchanged(key, before, next)
            // New address claimed first, then the row, then the claim made permanent, then the old address let go.
            const claim = newEmail ? await claimEmail('updateUser', newEmail, id) : null
            if (!(await replaceIfUnchanged(key, before, next))) {
              if (newEmail && claim) await dropClaim(newEmail, claim)
              return false
            }
            if (newEmail && claim && !(await commitClaim(newEmail, claim))) {
              // Lost the address while stalled past the lease: put the row back as it was, if nobody changed it since.
              await replaceIfUnchanged(key, JSON.stringify(next), current)
              throw duplicateEmail('updateUser')
            }
            if (oldEmail) await releaseEmailOf(oldEmail, id)
            return true
          },
        )
        if (!updated) throw storeFailure('updateUser', 'not-found', 'a user with this id')
        return updated
      }),
    deleteUser: (userId) =>
      call('deleteUser', async () => {
        const user = await read<AdapterUser>(keys.user(userId))
        if (!user) return null
        // The e-mail index first, so that from here on no sign-in finds this user by address; then what it owns
        // (each record checked to name this user); the row and its lists last. Cut short, the call can be repeated.
        if (user.email) await releaseEmailOf(user.email, userId)
        const lists = [keys.userAccounts(userId), keys.userSessions(userId), keys.userAuthenticators(userId)] as const
        const [accounts, sessions, authenticators] = await Promise.all([
          client.smembers(lists[0]),
          client.zrange(lists[1], '0', '-1'),
          client.smembers(lists[2]),
        ])
        await Promise.all(
          [...accounts, ...sessions, ...authenticators].map((key) => script(deleteIfOwnedScript, [key], [userId])),
        )
        // The factors share the user's slot: they go with the row, in the same script.
        const factorIds = await client.smembers(keys.userFactors(userId))
        const factorKeys = [
          keys.userFactors(userId),
          keys.userRecoveryCodes(userId),
          ...factorIds.map((id) => keys.factor(userId, id)),
        ]
        const deleted = await script(deleteUserRowScript, [keys.user(userId), ...lists, ...factorKeys], [])
        return revive<AdapterUser>(typeof deleted === 'string' ? deleted : null)
      }),
    linkAccount: (account) =>
      call('linkAccount', async () => {
        await createOwned(
          'linkAccount',
          'an account for this provider account id',
          keys.account(account.provider, account.providerAccountId),
          keys.userAccounts(account.userId),
          account,
          true,
        )
        return account
      }),
    unlinkAccount: ({ provider, providerAccountId }) =>
      call(
        'unlinkAccount',
        async () =>
          (await deleteOwned<AdapterAccount>(keys.account(provider, providerAccountId), (userId) =>
            client.srem(keys.userAccounts(userId), keys.account(provider, providerAccountId)),
          )) ?? undefined,
      ),
    getAccount: (providerAccountId, provider) =>
      call('getAccount', () => read<AdapterAccount>(keys.account(provider, providerAccountId))),
    listAccountsByUserId: (userId) =>
      call('listAccountsByUserId', async () => {
        // Account keys hash to slots of their own, so one GET each rather than an MGET that a Cluster would refuse.
        const listed = await client.smembers(keys.userAccounts(userId))
        const accounts = await Promise.all(listed.map((key) => read<AdapterAccount>(key)))
        // A stale entry (an account unlinked or relinked elsewhere by a call cut short) names no account of this user.
        return accounts.filter((account): account is AdapterAccount => account?.userId === userId)
      }),
    updateAccount: ({ provider, providerAccountId, ...fields }) =>
      call('updateAccount', () =>
        updateRecord<AdapterAccount>(
          'updateAccount',
          keys.account(provider, providerAccountId),
          (current) => {
            const next: Record<string, unknown> = { ...current }
            for (const [field, value] of Object.entries(fields)) {
              // `null` clears a field, as a NULL column reads back from SQL; `undefined` leaves it as it is.
              if (value === null) delete next[field]
              else if (value !== undefined) next[field] = value
            }
            return next as AdapterAccount
          },
          (before, _current, next) => replaceIfUnchanged(keys.account(provider, providerAccountId), before, next),
        ),
      ),
    createSession: (session) =>
      call('createSession', async () => {
        const expiresMs = session.expires.getTime()
        if (expiresMs <= Date.now()) return session // already over: nothing worth storing
        const key = keys.session(session.sessionToken)
        const list = keys.userSessions(session.userId)
        await script(listSessionScript, [list], [expiresMs, key, Date.now()])
        if ((await client.set(key, JSON.stringify(session), 'PXAT', expiresMs, 'NX')) === null) {
          const owner = revive<{ userId?: unknown }>(await client.get(key))?.userId
          if (owner !== session.userId) await client.zrem(list, key)
          throw storeFailure('createSession', 'duplicate', 'a session with this token')
        }
        return session
      }),
    getSessionAndUser: (sessionToken) =>
      call('getSessionAndUser', async () => {
        const session = await read<AdapterSession>(keys.session(sessionToken))
        if (!session) return null
        const user = await read<AdapterUser>(keys.user(session.userId))
        return user ? { session, user } : null
      }),
    updateSession: ({ sessionToken, ...fields }) =>
      call('updateSession', () => {
        const key = keys.session(sessionToken)
        return updateRecord<AdapterSession>(
          'updateSession',
          key,
          (current) => ({ ...current, ...withoutUndefined(fields) }),
          async (before, _current, next) => {
            // The user's list first keeps the session until at least its new expiry (GT: never shortened, so a
            // late or failed update cannot drop a live session from the list).
            await client.zadd(keys.userSessions(next.userId), 'GT', String(next.expires.getTime()), key)
            return replaceIfUnchanged(key, before, next, next.expires)
          },
        )
      }),
    deleteSession: (sessionToken) =>
      call('deleteSession', () =>
        deleteOwned<AdapterSession>(keys.session(sessionToken), (userId) =>
          client.zrem(keys.userSessions(userId), keys.session(sessionToken)),
        ),
      ),
    listSessionsByUser: (userId) =>
      call('listSessionsByUser', async () => {
        // The user's sorted set, scored by expiry: only the unexpired keys. Session keys hash to slots of their own,
        // so one GET each (a Cluster refuses an MGET across slots).
        const listed = await client.zrangebyscore(keys.userSessions(userId), String(Date.now() + 1), '+inf')
        const sessions = await Promise.all(listed.map((key) => read<AdapterSession>(key)))
        // A stale entry (a session deleted by a call cut short) names no session of this user.
        return sessions.filter((session): session is AdapterSession => session?.userId === userId)
      }),
    createVerificationToken: (verificationToken) =>
      call('createVerificationToken', async () => {
        const { identifier, token, expires } = verificationToken
        const created = await client.set(
          keys.verificationToken(identifier, token),
          JSON.stringify(verificationToken),
          'PXAT',
          expires.getTime(),
          'NX',
        )
        if (created === null) throw storeFailure('createVerificationToken', 'duplicate', 'this verification token')
        return verificationToken
      }),
    useVerificationToken: ({ identifier, token }) =>
      call('useVerificationToken', async () =>
        // The identifier is part of the key: a wrong one finds nothing and leaves the real token in place.
        revive<VerificationToken>(await client.getdel(keys.verificationToken(identifier, token))),
      ),
    createAuthenticator: (authenticator) =>
      call('createAuthenticator', async () => {
        await createOwned(
          'createAuthenticator',
          'an authenticator with this credential id',
          keys.authenticator(authenticator.credentialID),
          keys.userAuthenticators(authenticator.userId),
          authenticator,
          true,
        )
        return authenticator
      }),
    getAuthenticator: (credentialID) =>
      call('getAuthenticator', () => read<AdapterAuthenticator>(keys.authenticator(credentialID))),
    listAuthenticatorsByUserId: (userId) =>
      call('listAuthenticatorsByUserId', async () => {
        const members = await client.smembers(keys.userAuthenticators(userId))
        // One GET per key: on a Cluster the keys live in different slots, so MGET is not an option.
        const found = await Promise.all(members.map((key) => read<AdapterAuthenticator>(key)))
        return found.filter((authenticator): authenticator is AdapterAuthenticator => authenticator?.userId === userId)
      }),
    updateAuthenticatorCounter: (credentialID, newCounter) =>
      call('updateAuthenticatorCounter', async () => {
        const key = keys.authenticator(credentialID)
        const updated = await updateRecord<AdapterAuthenticator>(
          'updateAuthenticatorCounter',
          key,
          (current) => ({ ...current, counter: newCounter }),
          (before, _current, next) => replaceIfUnchanged(key, before, next),
        )
        if (!updated)
          throw storeFailure('updateAuthenticatorCounter', 'not-found', 'an authenticator with this credential id')
        return updated
      }),
    createFactor: (factor) =>
      call('createFactor', async () => {
        const record = factorRecord(factor)
        const { userId, id } = record
        const result = await script(
          createFactorScript,
          [keys.factor(userId, id), keys.userFactors(userId), keys.userRecoveryCodes(userId)],
          [JSON.stringify(record), id, ...(factor.recoveryCodeHashes ?? [])],
        )
        if (result === 'duplicate-factor') throw storeFailure('createFactor', 'duplicate', 'a factor with this id')
        if (result === 'duplicate-code')
          throw storeFailure('createFactor', 'duplicate', 'a recovery code with this hash')
        return record
      }),
    listFactorsByUserId: (userId) =>
      call('listFactorsByUserId', async () => {
        const ids = await client.smembers(keys.userFactors(userId))
        const found = await Promise.all(ids.map((id) => read<AdapterFactor>(keys.factor(userId, id))))
        return found
          .filter((factor): factor is AdapterFactor => factor?.userId === userId)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      }),
    useTotpStep: ({ userId, factorId, step }) =>
      call('useTotpStep', async () => {
        if (!Number.isSafeInteger(step)) return false
        return (await script(useTotpStepScript, [keys.factor(userId, factorId)], [userId, step])) === 1
      }),
    useRecoveryCode: ({ userId, codeHash }) =>
      // HDEL removes a field once: of concurrent calls for one code, one sees 1.
      call('useRecoveryCode', async () => (await client.hdel(keys.userRecoveryCodes(userId), codeHash)) === 1),
    deleteFactor: ({ userId, factorId }) =>
      call('deleteFactor', async () => {
        const deleted = await script(
          deleteFactorScript,
          [keys.factor(userId, factorId), keys.userFactors(userId), keys.userRecoveryCodes(userId)],
          [userId, factorId],
        )
        return revive<AdapterFactor>(typeof deleted === 'string' ? deleted : null)
      }),
  }
}

/** JSON back to a record, with ISO-8601 strings turned back into `Date`s (as `isDate` recognises them). */
function revive<T>(json: string | null): T | null {
  return json === null ? null : (JSON.parse(json, reviveDates) as T)
}

function reviveDates(_key: string, value: unknown): unknown {
  return typeof value === 'string' && isDate(value) ? new Date(value) : value
}

function withoutUndefined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>
}

// ioredis reports a lost or refused connection with these (MaxRetriesPerRequestError carries no code); the
// second line is a Cluster without a serving primary for the slot (failing over) or with no node reachable.
const unreachableMessage = new RegExp(
  [
    "connection is closed|stream isn't writeable|reached the max retries|command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND",
    "CLUSTERDOWN|TRYAGAIN|cluster isn't ready|failed to refresh slots cache|none of startup nodes|too many cluster redirections",
  ].join('|'),
  'i',
)

function classifyRedisError(err: unknown): StoreFailureKind {
  if (err instanceof Error && (err.name === 'MaxRetriesPerRequestError' || unreachableMessage.test(err.message)))
    return 'unreachable'
  return 'rejected'
}
