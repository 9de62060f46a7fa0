import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FlowStoreUnavailable, InvalidConfig } from '../../../src/errors.js'
import { RedisFlowStore } from '../../../src/flow/stores/redis.js'
import { randomToken } from '../../../src/security/random.js'
import { probeRedisServerBinary, sparePort, startRedisServer, type PrivateRedis } from '../../support/redis-server.js'
import { describeWithService, probeRedis, redisUrl as sharedRedisUrl } from '../../support/services.js'
import { flowStoreConformance, sampleRecord } from './conformance.js'

const redisUrl = sharedRedisUrl()

/** A key prefix no other test run uses, so suites can share one Redis and clean up after themselves. */
const runPrefix = () => `authchart:test:${randomToken(6)}:`

async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    cursor = next
    if (keys.length) await client.del(...keys)
  } while (cursor !== '0')
}

await describeWithService('redis', probeRedis, () =>
  describe('RedisFlowStore on the shared Redis', () => {
    const prefix = runPrefix()
    let client: Redis
    beforeAll(() => {
      client = new Redis(redisUrl)
    })
    afterAll(async () => {
      await dropPrefix(client, prefix)
      await client.quit()
    })

    flowStoreConformance(
      'redis',
      async () => {
        const own = new Redis(redisUrl)
        return {
          store: RedisFlowStore(own, { prefix: `${prefix}a:` }),
          foreign: RedisFlowStore(own, { prefix: `${prefix}b:` }),
          close: async () => {
            await own.quit()
          },
        }
      },
      { singleUse: true },
    )

    it('keeps a flow under one hash-tagged key, as compact JSON, with the record expiry as TTL', async () => {
      const store = RedisFlowStore(client, { prefix })
      const record = sampleRecord()
      const ref = await store.save(record, null)
      expect(ref).toMatch(/^[A-Za-z0-9_-]{22}$/)
      const key = `${prefix}{${ref}}`
      expect(await client.get(key)).toBe(JSON.stringify(record))
      const ttl = await client.pttl(key)
      const expected = record.x * 1000 - Date.now()
      expect(ttl).toBeGreaterThan(expected - 2000)
      expect(ttl).toBeLessThanOrEqual(expected + 50)
      expect(Buffer.byteLength(JSON.stringify(record))).toBeLessThan(400)
    })

    it('a save with prevRef deletes the previous key and issues a new id', async () => {
      const store = RedisFlowStore(client, { prefix })
      const first = await store.save(sampleRecord(), null)
      const second = await store.save(sampleRecord({ s: 'linkingAccount' }), first)
      expect(second).not.toBe(first)
      expect(await client.exists(`${prefix}{${first}}`)).toBe(0)
      expect(await client.exists(`${prefix}{${second}}`)).toBe(1)
    })

    it('an already expired record is not written at all', async () => {
      const store = RedisFlowStore(client, { prefix })
      const ref = await store.save(sampleRecord({ x: Math.floor(Date.now() / 1000) - 5 }), null)
      expect(await client.exists(`${prefix}{${ref}}`)).toBe(0)
    })

    it('two instances on two connections: 20 concurrent consumes of one flow give exactly one record', async () => {
      const a = new Redis(redisUrl)
      const b = new Redis(redisUrl)
      try {
        const storeA = RedisFlowStore(a, { prefix })
        const storeB = RedisFlowStore(b, { prefix })
        for (let round = 0; round < 5; round++) {
          const record = sampleRecord()
          const ref = await storeA.save(record, null)
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) => (i % 2 ? storeA : storeB).consume(ref)),
          )
          expect(results.filter((r) => r !== null)).toEqual([record])
        }
      } finally {
        a.disconnect()
        b.disconnect()
      }
    })

    it('a value under the prefix that is not a flow record reads as null', async () => {
      const store = RedisFlowStore(client, { prefix })
      const ref = randomToken(16)
      await client.set(`${prefix}{${ref}}`, '{"not":"a flow"}', 'PX', 10_000)
      expect(await store.load(ref)).toBeNull()
      await client.set(`${prefix}{${ref}}`, 'not json', 'PX', 10_000)
      expect(await store.consume(ref)).toBeNull()
    })

    it('revoke drops a flow', async () => {
      const store = RedisFlowStore(client, { prefix })
      const ref = await store.save(sampleRecord(), null)
      await store.revoke(ref)
      expect(await store.load(ref)).toBeNull()
    })

    it('a ref that cannot be one of ours is answered without a round trip', async () => {
      // Nothing listens on this port: any command would fail, so a null answer proves none was sent.
      const dead = new Redis({
        host: '127.0.0.1',
        port: await sparePort(),
        lazyConnect: true,
        retryStrategy: () => null,
      })
      dead.on('error', () => {})
      const store = RedisFlowStore(dead, { operationTimeoutMs: 300 })
      try {
        for (const ref of ['', 'short', 'A'.repeat(21) + 'B', `${'A'.repeat(20)}:*`, 'A'.repeat(23)]) {
          expect(await store.load(ref)).toBeNull()
          expect(await store.consume(ref)).toBeNull()
        }
        await expect(store.load(randomToken(16))).rejects.toBeInstanceOf(FlowStoreUnavailable)
      } finally {
        dead.disconnect()
      }
    })

    it('rejects a nonsensical timeout with an AuthError', () => {
      expect(() => RedisFlowStore(client, { operationTimeoutMs: 0 })).toThrow(InvalidConfig)
      expect(() => RedisFlowStore(client, { operationTimeoutMs: Number.NaN })).toThrow(InvalidConfig)
    })
  }),
)

await describeWithService('redis-server binary', probeRedisServerBinary, () =>
  describe('RedisFlowStore on a server without GETDEL (Redis < 6.2)', () => {
    let server: PrivateRedis
    let client: Redis
    beforeAll(async () => {
      server = await startRedisServer({ extraArgs: ['--rename-command', 'GETDEL', ''] })
      client = new Redis(server.url)
    })
    afterAll(async () => {
      client?.disconnect()
      await server?.stop()
    })

    it('falls back to the script and stays single-use under 20 concurrent consumes', async () => {
      await expect(client.getdel('probe')).rejects.toThrow(/unknown command/i)
      const store = RedisFlowStore(client)
      for (let round = 0; round < 3; round++) {
        const record = sampleRecord()
        const ref = await store.save(record, null)
        const results = await Promise.all(Array.from({ length: 20 }, () => store.consume(ref)))
        expect(results.filter((r) => r !== null)).toEqual([record])
        expect(await store.load(ref)).toBeNull()
      }
    })
  }),
)

await describeWithService('redis-server binary', probeRedisServerBinary, () =>
  describe('RedisFlowStore through Redis Sentinel', () => {
    let master: PrivateRedis
    let sentinel: PrivateRedis
    let client: Redis
    beforeAll(async () => {
      master = await startRedisServer()
      sentinel = await startRedisServer({ sentinelOf: { name: 'authchart', port: master.port } })
      client = new Redis({ sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: 'authchart' })
    })
    afterAll(async () => {
      client?.disconnect()
      await sentinel?.stop()
      await master?.stop()
    })

    flowStoreConformance(
      'redis sentinel',
      async () => ({
        store: RedisFlowStore(client, { prefix: 's1:' }),
        foreign: RedisFlowStore(client, { prefix: 's2:' }),
      }),
      { singleUse: true },
    )

    it('the flows land on the master the Sentinel names', async () => {
      const ref = await RedisFlowStore(client, { prefix: 's1:' }).save(sampleRecord(), null)
      const direct = new Redis(master.url)
      try {
        expect(await direct.exists(`s1:{${ref}}`)).toBe(1)
      } finally {
        direct.disconnect()
      }
    })
  }),
)
