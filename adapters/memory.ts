/**
 * The embedded adapter: everything in `Map`s of this process. Meant for development, tests and single-process
 * demos; the data is gone when the process ends and is not shared between instances.
 * @example
 * ```ts
 * import { MemoryAdapter } from 'authchart/adapters/memory'
 * Auth(request, { adapter: MemoryAdapter(), providers: [...] })
 * ```
 * @module adapters/memory
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from '../src/types/adapters.js'
import { factorRecord } from './factor-record.js'
import { storeFailure } from './store-failure.js'

/** The maps a `MemoryAdapter` keeps its records in. Pass your own to inspect or seed them. */
export interface MemoryStore {
  users: Map<string, AdapterUser>
  /** User id by e-mail address: e-mail addresses are unique, as in the SQL schema. */
  userIdsByEmail: Map<string, string>
  /** Keyed by `memoryAccountKey(provider, providerAccountId)`. */
  accounts: Map<string, AdapterAccount>
  /** Keyed by session token. */
  sessions: Map<string, AdapterSession>
  /** Keyed by token: tokens are unique, as in the SQL schema; the identifier is checked on use. */
  verificationTokens: Map<string, VerificationToken>
  /** Keyed by credential id. */
  authenticators: Map<string, AdapterAuthenticator>
  /** Second factors, keyed by factor id. Optional so that a store made before factors existed still works. */
  factors?: Map<string, AdapterFactor>
  /** Unused recovery codes: the owner of each code hash. */
  recoveryCodes?: Map<string, MemoryRecoveryCode>
}

/** Whose a stored recovery code hash is. */
export interface MemoryRecoveryCode {
  userId: string
  factorId: string
}

/** An empty store. */
export function createMemoryStore(): MemoryStore {
  return {
    users: new Map(),
    userIdsByEmail: new Map(),
    accounts: new Map(),
    sessions: new Map(),
    verificationTokens: new Map(),
    authenticators: new Map(),
    factors: new Map(),
    recoveryCodes: new Map(),
  }
}

/** The key of an account in `MemoryStore.accounts`. JSON keeps `a:b` + `c` apart from `a` + `b:c`. */
export function memoryAccountKey(provider: string, providerAccountId: string): string {
  return JSON.stringify([provider, providerAccountId])
}

/**
 * An adapter that keeps users, accounts, sessions, verification tokens and authenticators in memory. Records are
 * copied in and out (`structuredClone`), so a caller mutating a returned object never changes the store.
 * @param store Where to keep the records; a fresh store by default.
 * @returns An adapter with all 19 methods, and Authchart's two account-token, five second-factor and one
 *   session-record (`listSessionsByUser`) methods.
 */
export function MemoryAdapter(store: MemoryStore = createMemoryStore()): Required<Adapter> {
  const { users, userIdsByEmail, accounts, sessions, verificationTokens, authenticators } = store
  const factors = (store.factors ??= new Map<string, AdapterFactor>())
  const recoveryCodes = (store.recoveryCodes ??= new Map<string, MemoryRecoveryCode>())

  const userOrNull = (id: string | undefined) => {
    const user = id === undefined ? undefined : users.get(id)
    return user ? structuredClone(user) : null
  }

  return {
    async createUser(user) {
      const record = withoutUndefined({ ...user, id: user.id || crypto.randomUUID() })
      if (users.has(record.id)) throw storeFailure('createUser', 'duplicate', 'a user with this id')
      if (record.email && userIdsByEmail.has(record.email))
        throw storeFailure('createUser', 'duplicate', 'a user with this email')
      users.set(record.id, structuredClone(record))
      if (record.email) userIdsByEmail.set(record.email, record.id)
      return structuredClone(record)
    },
    async getUser(id) {
      return userOrNull(id)
    },
    async getUserByEmail(email) {
      return userOrNull(userIdsByEmail.get(email))
    },
    async getUserByAccount({ provider, providerAccountId }) {
      return userOrNull(accounts.get(memoryAccountKey(provider, providerAccountId))?.userId)
    },
    async updateUser(patch) {
      const existing = users.get(patch.id)
      if (!existing) throw storeFailure('updateUser', 'not-found', 'a user with this id')
      const updated: AdapterUser = { ...existing, ...withoutUndefined(patch) }
      if (updated.email !== existing.email) {
        if (updated.email && userIdsByEmail.has(updated.email))
          throw storeFailure('updateUser', 'duplicate', 'a user with this email')
        if (existing.email) userIdsByEmail.delete(existing.email)
        if (updated.email) userIdsByEmail.set(updated.email, updated.id)
      }
      users.set(updated.id, structuredClone(updated))
      return structuredClone(updated)
    },
    async deleteUser(userId) {
      const user = users.get(userId)
      if (!user) return null
      users.delete(userId)
      if (user.email) userIdsByEmail.delete(user.email)
      for (const map of [accounts, sessions, authenticators, factors, recoveryCodes] as Map<
        string,
        { userId: string }
      >[]) {
        for (const [key, record] of map) if (record.userId === userId) map.delete(key)
      }
      return user
    },
    async linkAccount(account) {
      const key = memoryAccountKey(account.provider, account.providerAccountId)
      if (accounts.has(key)) throw storeFailure('linkAccount', 'duplicate', 'an account for this provider account id')
      const record = withoutUndefined(account)
      accounts.set(key, structuredClone(record))
      return structuredClone(record)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const key = memoryAccountKey(provider, providerAccountId)
      const account = accounts.get(key)
      accounts.delete(key)
      return account
    },
    async getAccount(providerAccountId, provider) {
      const account = accounts.get(memoryAccountKey(provider, providerAccountId))
      return account ? structuredClone(account) : null
    },
    async listAccountsByUserId(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map((a) => structuredClone(a))
    },
    async updateAccount({ provider, providerAccountId, ...fields }) {
      const key = memoryAccountKey(provider, providerAccountId)
      const existing = accounts.get(key)
      if (!existing) return null
      const updated = withoutNulls({ ...existing, ...withoutUndefined(fields) }) as AdapterAccount
      accounts.set(key, structuredClone(updated))
      return structuredClone(updated)
    },
    async createSession(session) {
      if (sessions.has(session.sessionToken))
        throw storeFailure('createSession', 'duplicate', 'a session with this token')
      const record = withoutUndefined(session)
      sessions.set(record.sessionToken, structuredClone(record))
      return structuredClone(record)
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = userOrNull(session?.userId)
      return session && user ? { session: structuredClone(session), user } : null
    },
    async updateSession(patch) {
      const existing = sessions.get(patch.sessionToken)
      if (!existing) return null
      const updated = { ...existing, ...withoutUndefined(patch) }
      sessions.set(updated.sessionToken, structuredClone(updated))
      return structuredClone(updated)
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      sessions.delete(sessionToken)
      return session ?? null
    },
    // The record fields travel on the session object itself, so the list answers them as written.
    async listSessionsByUser(userId) {
      const now = Date.now()
      return [...sessions.values()]
        .filter((session) => session.userId === userId && session.expires.getTime() > now)
        .map((session) => structuredClone(session))
    },
    async createVerificationToken(verificationToken) {
      if (verificationTokens.has(verificationToken.token)) {
        throw storeFailure('createVerificationToken', 'duplicate', 'a verification token with this value')
      }
      const record = withoutUndefined(verificationToken)
      verificationTokens.set(record.token, structuredClone(record))
      return structuredClone(record)
    },
    async useVerificationToken({ identifier, token }) {
      // Check and delete in one synchronous step: no other call can run between them.
      const stored = verificationTokens.get(token)
      if (!stored || stored.identifier !== identifier) return null
      verificationTokens.delete(token)
      return stored
    },
    async createAuthenticator(authenticator) {
      if (authenticators.has(authenticator.credentialID)) {
        throw storeFailure('createAuthenticator', 'duplicate', 'an authenticator with this credential id')
      }
      const record = withoutUndefined(authenticator)
      authenticators.set(record.credentialID, structuredClone(record))
      return structuredClone(record)
    },
    async getAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      return authenticator ? structuredClone(authenticator) : null
    },
    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map((a) => structuredClone(a))
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const existing = authenticators.get(credentialID)
      if (!existing)
        throw storeFailure('updateAuthenticatorCounter', 'not-found', 'an authenticator with this credential id')
      existing.counter = newCounter
      return structuredClone(existing)
    },
    async createFactor(factor) {
      const record = factorRecord(factor)
      const hashes = factor.recoveryCodeHashes ?? []
      // All checks before any write: the factor and its codes are stored together or not at all.
      if (factors.has(record.id)) throw storeFailure('createFactor', 'duplicate', 'a factor with this id')
      if (new Set(hashes).size !== hashes.length || hashes.some((hash) => recoveryCodes.has(hash)))
        throw storeFailure('createFactor', 'duplicate', 'a recovery code with this hash')
      factors.set(record.id, structuredClone(record))
      for (const hash of hashes) recoveryCodes.set(hash, { userId: record.userId, factorId: record.id })
      return structuredClone(record)
    },
    async listFactorsByUserId(userId) {
      return [...factors.values()].filter((f) => f.userId === userId).map((f) => structuredClone(f))
    },
    async useTotpStep({ userId, factorId, step }) {
      // Check and write in one synchronous step: no other call can run between them.
      const factor = factors.get(factorId)
      if (!factor || factor.userId !== userId || factor.type !== 'totp' || !Number.isSafeInteger(step)) return false
      if (factor.lastUsedStep !== null && step <= factor.lastUsedStep) return false
      factor.lastUsedStep = step
      return true
    },
    async useRecoveryCode({ userId, codeHash }) {
      const owner = recoveryCodes.get(codeHash)
      if (!owner || owner.userId !== userId) return false
      recoveryCodes.delete(codeHash)
      return true
    },
    async deleteFactor({ userId, factorId }) {
      const factor = factors.get(factorId)
      if (!factor || factor.userId !== userId) return null
      factors.delete(factorId)
      for (const [hash, owner] of recoveryCodes) if (owner.factorId === factorId) recoveryCodes.delete(hash)
      return factor
    },
  }
}

/** An account field set to `null` is cleared: gone, as a NULL column reads back from SQL. */
function withoutNulls<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as T
}

/** A field given as `undefined` means "not given": it neither overwrites a stored value nor gets stored. */
function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T
}
