/**
 * The Redis adapter's tests beyond conformance, written once and run on a single server and on a Redis Cluster
 * (`redis.test.ts`): expiry, key layout, and the order of single-slot steps that stands in for atomicity where a
 * write spans slots. A crash between two steps is reproduced by writing the state it would leave straight into Redis
 * (the adapter's own keys, as `redisKeys` names them), then showing that readers and the next sign-in cope.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import { beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter, redisKeys } from '../../adapters/redis.js'
import { AdapterError } from '../../src/errors.js'
import { adapterConformanceSuite } from './conformance.js'
import { inDays, newAccount, newAuthenticator, newUser } from './conformance-fixtures.js'

export interface RedisTarget {
  client: Redis | Cluster
  prefix: string
}

/** The kind an `AdapterError` reports (`duplicate`, `unreachable`, ...), or the error itself when it is not one. */
export async function failureKind(promise: unknown): Promise<unknown> {
  const error = await Promise.resolve(promise).then(
    () => null,
    (err: unknown) => err,
  )
  if (error instanceof AdapterError) return (error.cause as { kind?: unknown } | undefined)?.kind
  return error
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Registers conformance and the Redis-specific tests; `target` is read once the suite's `beforeAll` hooks ran. */
export function redisAdapterSuite(target: () => RedisTarget): void {
  const readJson = async (key: string) => {
    const json = await target().client.get(key)
    return json === null ? null : (JSON.parse(json) as object)
  }

  describe('conformance', () => {
    adapterConformanceSuite(async () => {
      const { client, prefix } = target()
      const keys = redisKeys(prefix)
      return {
        adapter: RedisAdapter(client, { prefix }),
        store: {
          user: (id) => readJson(keys.user(id)),
          account: (provider, providerAccountId) => readJson(keys.account(provider, providerAccountId)),
          session: (sessionToken) => readJson(keys.session(sessionToken)),
          verificationToken: (identifier, token) => readJson(keys.verificationToken(identifier, token)),
          authenticator: (credentialID) => readJson(keys.authenticator(credentialID)),
        },
        factorStore: {
          factor: (userId, factorId) => readJson(keys.factor(userId, factorId)),
          recoveryCodeHashes: (userId) => client.hkeys(keys.userRecoveryCodes(userId)),
        },
      }
    })
  })

  describe('expiry and key layout', () => {
    let client: Redis | Cluster
    let keys: ReturnType<typeof redisKeys>
    let adapter: ReturnType<typeof RedisAdapter>
    beforeAll(() => {
      client = target().client
      keys = redisKeys(target().prefix)
      adapter = RedisAdapter(client, { prefix: target().prefix })
    })

    /** Milliseconds until the key's expiry, measured against the expected expiry date. */
    const expiryOffset = async (key: string, expected: Date) =>
      Date.now() + (await client.pttl(key)) - expected.getTime()

    it('a session key expires in Redis when the session does, and updateSession moves that', async () => {
      const user = await adapter.createUser(newUser())
      const sessionToken = randomUUID()
      const expires = inDays(1)
      await adapter.createSession({ sessionToken, userId: user.id, expires })
      expect(Math.abs(await expiryOffset(keys.session(sessionToken), expires))).toBeLessThan(2000)
      const later = inDays(30)
      await adapter.updateSession({ sessionToken, expires: later })
      expect(Math.abs(await expiryOffset(keys.session(sessionToken), later))).toBeLessThan(2000)
      // The user's session list is scored by expiry, and follows the extension.
      expect(Number(await client.zscore(keys.userSessions(user.id), keys.session(sessionToken)))).toBe(later.getTime())
    })

    it('a verification token key expires when the token does', async () => {
      const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inDays(1) }
      await adapter.createVerificationToken(token)
      expect(
        Math.abs(await expiryOffset(keys.verificationToken(token.identifier, token.token), token.expires)),
      ).toBeLessThan(2000)
    })

    it('a session whose expiry has already passed is not kept', async () => {
      const user = await adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() - 1000) })
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      expect(await client.zrange(keys.userSessions(user.id), '0', '-1')).toEqual([])
    })

    it("createSession drops expired sessions from the user's session list", async () => {
      const user = await adapter.createUser(newUser())
      await adapter.createSession({
        sessionToken: `short-${randomUUID()}`,
        userId: user.id,
        expires: new Date(Date.now() + 50),
      })
      await pause(120)
      const current = randomUUID()
      await adapter.createSession({ sessionToken: current, userId: user.id, expires: inDays(30) })
      expect(await client.zrange(keys.userSessions(user.id), '0', '-1')).toEqual([keys.session(current)])
    })

    it('concurrent updateUser calls that change different fields all take effect (compare-and-set, retried)', async () => {
      const user = await adapter.createUser(newUser())
      const fields = Array.from({ length: 8 }, (_, i) => `field${i}`)
      await Promise.all(fields.map(async (field) => adapter.updateUser({ id: user.id, [field]: 'set' })))
      const stored = await adapter.getUser(user.id)
      expect(stored).toMatchObject(Object.fromEntries(fields.map((field) => [field, 'set'])))
      expect(stored).toMatchObject({ email: user.email, name: user.name })
    })

    it('deleteUser leaves no key of the user behind, lists and e-mail index included', async () => {
      const user = await adapter.createUser(newUser())
      const account = newAccount(user.id)
      await adapter.linkAccount(account)
      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(30) })
      const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
      const userKeys = [
        keys.user(user.id),
        keys.userByEmail(user.email),
        keys.account(account.provider, account.providerAccountId),
        keys.session(session.sessionToken),
        keys.authenticator(authenticator.credentialID),
        keys.userAccounts(user.id),
        keys.userSessions(user.id),
        keys.userAuthenticators(user.id),
      ]
      // One key at a time: on a Cluster they live in different slots.
      const existing = async () =>
        (await Promise.all(userKeys.map((key) => client.exists(key)))).reduce((a, b) => a + b, 0)
      expect(await existing()).toBe(userKeys.length)
      await adapter.deleteUser(user.id)
      expect(await existing()).toBe(0)
    })

    it("a user's row and its three lists share one hash tag (one Cluster slot); the e-mail index is on its own", () => {
      const id = randomUUID()
      const tag = (key: string) => /\{([^}]*)\}/.exec(key)?.[1]
      for (const key of [keys.user(id), keys.userAccounts(id), keys.userSessions(id), keys.userAuthenticators(id)])
        expect(tag(key)).toBe(id)
      expect(tag(keys.userByEmail('a@example.com'))).toBeUndefined()
    })
  })

  describe('writes that span slots: safe under concurrency and after a crash between steps', () => {
    let client: Redis | Cluster
    let keys: ReturnType<typeof redisKeys>
    let adapter: ReturnType<typeof RedisAdapter>
    const leaseMs = 400
    beforeAll(() => {
      client = target().client
      keys = redisKeys(target().prefix)
      adapter = RedisAdapter(client, { prefix: target().prefix, emailClaimLeaseMs: leaseMs })
    })
    const claimOf = (userId: string) => `${randomBytes(16).toString('base64url')}:${userId}`

    it('20 concurrent createUser calls with one e-mail: exactly one user, the others a duplicate, no row left by a loser', async () => {
      const email = `${randomUUID()}@example.com`
      const users = Array.from({ length: 20 }, () => newUser({ email }))
      const outcomes = await Promise.all(users.map((user) => failureKind(adapter.createUser(user))))
      expect(outcomes.filter((kind) => kind === null)).toHaveLength(1)
      expect(outcomes.filter((kind) => kind === 'duplicate')).toHaveLength(19)
      const winner = users[outcomes.indexOf(null)]
      expect((await adapter.getUserByEmail(email))?.id).toBe(winner?.id)
      const rows = await Promise.all(users.map((user) => client.exists(keys.user(user.id))))
      expect(rows.reduce((a, b) => a + b, 0)).toBe(1)
      // The winner's index is permanent, not a lease that would lapse.
      expect(await client.pttl(keys.userByEmail(email))).toBe(-1)
    })

    it("createUser repeating an existing user's id and e-mail is a duplicate and leaves that user's e-mail index alone", async () => {
      const user = await adapter.createUser(newUser())
      expect(await failureKind(adapter.createUser({ ...user }))).toBe('duplicate')
      expect((await adapter.getUserByEmail(user.email))?.id).toBe(user.id)
    })

    it('two users moving to one new address at once: one gets it, the other a duplicate and keeps its old address', async () => {
      const [a, b] = await Promise.all([adapter.createUser(newUser()), adapter.createUser(newUser())])
      const email = `${randomUUID()}@example.com`
      const outcomes = await Promise.all([a, b].map((user) => failureKind(adapter.updateUser({ id: user.id, email }))))
      expect(outcomes.sort()).toEqual(['duplicate', null].sort())
      const owner = await adapter.getUserByEmail(email)
      const loser = owner?.id === a.id ? b : a
      expect(owner?.email).toBe(email)
      expect((await adapter.getUser(loser.id))?.email).toBe(loser.email)
      expect((await adapter.getUserByEmail(loser.email))?.id).toBe(loser.id)
      // The winner's old address is free again.
      const winnerBefore = owner?.id === a.id ? a : b
      expect(await adapter.getUserByEmail(winnerBefore.email)).toBeNull()
      expect(await client.exists(keys.userByEmail(winnerBefore.email))).toBe(0)
    })

    it('crash after claiming an address, before the row: nobody is found by it, and it is free once the lease ends', async () => {
      const email = `${randomUUID()}@example.com`
      await client.set(keys.userByEmail(email), claimOf(randomUUID()), 'PX', leaseMs)
      expect(await adapter.getUserByEmail(email)).toBeNull()
      expect(await failureKind(adapter.createUser(newUser({ email })))).toBe('duplicate')
      await pause(leaseMs + 100)
      const user = await adapter.createUser(newUser({ email }))
      expect((await adapter.getUserByEmail(email))?.id).toBe(user.id)
    })

    it('crash in updateUser after the row moved to a new address, before the old index went: the old address is taken over', async () => {
      const moved = await adapter.createUser(newUser())
      const oldEmail = moved.email
      // The state such a crash leaves: the row carries the new address, the old index still names the user.
      await client.set(keys.user(moved.id), JSON.stringify({ ...moved, email: `${randomUUID()}@example.com` }))
      expect(await client.exists(keys.userByEmail(oldEmail))).toBe(1)
      expect(await adapter.getUserByEmail(oldEmail)).toBeNull()
      const next = await adapter.createUser(newUser({ email: oldEmail }))
      expect((await adapter.getUserByEmail(oldEmail))?.id).toBe(next.id)
    })

    it('crash in createUser after the row, before the index was made permanent: the lease lapses, the next sign-up works', async () => {
      const email = `${randomUUID()}@example.com`
      const orphan = newUser({ email })
      await client.set(keys.user(orphan.id), JSON.stringify(orphan))
      await client.set(keys.userByEmail(email), claimOf(orphan.id), 'PX', leaseMs)
      // Within the lease the row is found (the write was nearly done); after it, the address is free.
      expect((await adapter.getUserByEmail(email))?.id).toBe(orphan.id)
      await pause(leaseMs + 100)
      expect(await adapter.getUserByEmail(email)).toBeNull()
      const user = await adapter.createUser(newUser({ email }))
      expect((await adapter.getUserByEmail(email))?.id).toBe(user.id)
    })

    it('an account left behind by a deleteUser cut short does not stop the next sign-in from linking it', async () => {
      const gone = await adapter.createUser(newUser())
      const account = newAccount(gone.id)
      await adapter.linkAccount(account)
      // deleteUser cut short the other way round: the row went, the account did not (a link racing the delete).
      await client.del(keys.user(gone.id))
      expect(await adapter.getUserByAccount(account)).toBeNull()
      const next = await adapter.createUser(newUser())
      await adapter.linkAccount({ ...account, userId: next.id })
      expect((await adapter.getUserByAccount(account))?.id).toBe(next.id)
      // A live owner still makes it a duplicate.
      const third = await adapter.createUser(newUser())
      expect(await failureKind(adapter.linkAccount({ ...account, userId: third.id }))).toBe('duplicate')
      expect(
        await client.sismember(keys.userAccounts(third.id), keys.account(account.provider, account.providerAccountId)),
      ).toBe(0)
    })

    it('deleteUser racing linkAccount and createSession, 20 times: whatever survives, the next sign-in links the account and signs in', async () => {
      for (let round = 0; round < 20; round++) {
        const user = await adapter.createUser(newUser())
        const account = newAccount(user.id)
        const sessionToken = randomUUID()
        await Promise.allSettled([
          adapter.deleteUser(user.id),
          adapter.linkAccount(account),
          adapter.createSession({ sessionToken, userId: user.id, expires: inDays(1) }),
        ])
        // Nothing that survived is reachable through the deleted user.
        expect(await adapter.getUser(user.id)).toBeNull()
        expect(await adapter.getUserByEmail(user.email)).toBeNull()
        expect(await adapter.getUserByAccount(account)).toBeNull()
        expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
        // The same person signs in again: a new user, the same address and provider account.
        const next = await adapter.createUser(newUser({ email: user.email }))
        await adapter.linkAccount({ ...account, userId: next.id })
        expect((await adapter.getUserByAccount(account))?.id).toBe(next.id)
        expect((await adapter.getUserByEmail(user.email))?.id).toBe(next.id)
      }
    })

    it("deleteUser never deletes another user's record named in a stale list entry", async () => {
      const [a, b] = await Promise.all([adapter.createUser(newUser()), adapter.createUser(newUser())])
      const account = newAccount(b.id)
      await adapter.linkAccount(account)
      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: b.id, expires: inDays(1) })
      const accountKey = keys.account(account.provider, account.providerAccountId)
      await client.sadd(keys.userAccounts(a.id), accountKey)
      await client.zadd(keys.userSessions(a.id), String(inDays(1).getTime()), keys.session(session.sessionToken))
      await adapter.deleteUser(a.id)
      expect((await adapter.getUserByAccount(account))?.id).toBe(b.id)
      expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(b.id)
    })

    it('a session listed under its user but never written (crash between the steps) is skipped and pruned', async () => {
      const user = await adapter.createUser(newUser())
      await client.zadd(keys.userSessions(user.id), String(Date.now() + 100), keys.session(randomUUID()))
      await pause(150)
      const live = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(1) })
      expect(await client.zrange(keys.userSessions(user.id), '0', '-1')).toEqual([keys.session(live.sessionToken)])
      expect(await adapter.deleteUser(user.id)).toMatchObject({ id: user.id })
    })

    it('20 concurrent useVerificationToken calls: exactly one gets the token', async () => {
      const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inDays(1) }
      await adapter.createVerificationToken(token)
      const used = await Promise.all(Array.from({ length: 20 }, async () => adapter.useVerificationToken(token)))
      expect(used.filter((found) => found !== null)).toHaveLength(1)
    })
  })
}
