import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter, redisKeys } from '../../adapters/redis.js'
import { AdapterError } from '../../src/errors.js'
import { redisServerAvailable, startRedisServer, type PrivateRedis } from '../support/redis-server.js'
import { describeWithService, probeRedis, redisUrl, scratchName, type ServiceProbe } from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { inDays, newAccount, newAuthenticator, newUser } from './conformance-fixtures.js'
import { deleteKeysWithPrefix } from './redis-keys-cleanup.js'

await describeWithService('redis', probeRedis, () => {
  describe('RedisAdapter (ioredis)', () => {
    const prefix = `${scratchName()}:`
    const keys = redisKeys(prefix)
    let client: Redis

    beforeAll(() => {
      client = new Redis(redisUrl())
    })

    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    const readJson = async (key: string) => {
      const json = await client.get(key)
      return json === null ? null : JSON.parse(json) as object
    }

    adapterConformanceSuite(async () => ({
      adapter: RedisAdapter(client, { prefix }),
      store: {
        user: (id) => readJson(keys.user(id)),
        account: (provider, providerAccountId) => readJson(keys.account(provider, providerAccountId)),
        session: (sessionToken) => readJson(keys.session(sessionToken)),
        verificationToken: (identifier, token) => readJson(keys.verificationToken(identifier, token)),
        authenticator: (credentialID) => readJson(keys.authenticator(credentialID)),
      },
    }))
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('RedisAdapter expiry and key layout', () => {
    const prefix = `${scratchName()}:`
    const keys = redisKeys(prefix)
    let client: Redis
    let adapter: ReturnType<typeof RedisAdapter>

    beforeAll(() => {
      client = new Redis(redisUrl())
      adapter = RedisAdapter(client, { prefix })
    })

    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    /** Milliseconds until the key's expiry, measured against the expected expiry date. */
    const expiryOffset = async (key: string, expected: Date) => Date.now() + await client.pttl(key) - expected.getTime()

    it('a session key expires in Redis when the session does, and updateSession moves that', async () => {
      const user = await adapter.createUser(newUser())
      const sessionToken = randomUUID()
      const expires = inDays(1)
      await adapter.createSession({ sessionToken, userId: user.id, expires })
      expect(Math.abs(await expiryOffset(keys.session(sessionToken), expires))).toBeLessThan(2000)
      const later = inDays(30)
      await adapter.updateSession({ sessionToken, expires: later })
      expect(Math.abs(await expiryOffset(keys.session(sessionToken), later))).toBeLessThan(2000)
    })

    it('a verification token key expires when the token does', async () => {
      const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inDays(1) }
      await adapter.createVerificationToken(token)
      expect(Math.abs(await expiryOffset(keys.verificationToken(token.identifier, token.token), token.expires))).toBeLessThan(2000)
    })

    it('a session whose expiry has already passed is not kept', async () => {
      const user = await adapter.createUser(newUser())
      const sessionToken = randomUUID()
      await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() - 1000) })
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      expect(await client.smembers(keys.userSessionsPrefix + user.id)).toEqual([])
    })

    it("createSession drops expired sessions from the user's session set", async () => {
      const user = await adapter.createUser(newUser())
      await adapter.createSession({ sessionToken: 'short-lived', userId: user.id, expires: new Date(Date.now() + 50) })
      await new Promise((resolve) => setTimeout(resolve, 120))
      await adapter.createSession({ sessionToken: 'current', userId: user.id, expires: inDays(30) })
      expect(await client.smembers(keys.userSessionsPrefix + user.id)).toEqual([keys.session('current')])
    })

    it('concurrent updateUser calls that change different fields all take effect (compare-and-set, retried)', async () => {
      const user = await adapter.createUser(newUser())
      const fields = Array.from({ length: 8 }, (_, i) => `field${i}`)
      await Promise.all(fields.map((field) => adapter.updateUser({ id: user.id, [field]: 'set' })))
      const stored = await adapter.getUser(user.id)
      expect(stored).toMatchObject(Object.fromEntries(fields.map((field) => [field, 'set'])))
      expect(stored).toMatchObject({ email: user.email, name: user.name })
    })

    it('deleteUser leaves no key of the user behind, index sets and e-mail index included', async () => {
      const user = await adapter.createUser(newUser())
      const account = newAccount(user.id)
      await adapter.linkAccount(account)
      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(30) })
      const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
      const userKeys = [
        keys.user(user.id), keys.userByEmail(user.email), keys.account(account.provider, account.providerAccountId),
        keys.session(session.sessionToken), keys.authenticator(authenticator.credentialID),
        keys.userAccountsPrefix + user.id, keys.userSessionsPrefix + user.id, keys.userAuthenticatorsPrefix + user.id,
      ]
      expect(await client.exists(...userKeys)).toBe(userKeys.length)
      await adapter.deleteUser(user.id)
      expect(await client.exists(...userKeys)).toBe(0)
    })
  })
})

const privateRedisProbe: ServiceProbe = async () => {
  const available = await redisServerAvailable()
  if (!available.ok) throw new Error(available.reason)
}

await describeWithService('a private redis-server', privateRedisProbe, () => {
  describe('RedisAdapter when Redis goes away', () => {
    let server: PrivateRedis
    let client: Redis

    beforeAll(async () => {
      server = await startRedisServer()
      // A bounded retry budget: without one, ioredis queues commands until Redis returns, and the request hangs.
      client = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 })
      client.on('error', () => { /* reported through the failing commands */ })
    })

    afterAll(async () => {
      client?.disconnect()
      await server?.stop()
    })

    it('fails a call with an AdapterError of kind "unreachable", and works again once Redis is back', async () => {
      const adapter = RedisAdapter(client)
      const user = await adapter.createUser(newUser())
      await server.stop('SIGKILL')

      const failure = await Promise.resolve(adapter.getUser(user.id)).catch((err: unknown) => err)
      expect(failure).toBeInstanceOf(AdapterError)
      expect((failure as AdapterError).cause).toMatchObject({ method: 'getUser', kind: 'unreachable' })
      expect((failure as AdapterError).message).toBe('getUser: the store could not be reached')

      await server.restart()
      await new Promise<void>((resolve) => client.once('ready', () => resolve()))
      // The server kept nothing (no persistence), so the user is gone, but the adapter answers again.
      expect(await adapter.getUser(user.id)).toBeNull()
    })
  })
})
