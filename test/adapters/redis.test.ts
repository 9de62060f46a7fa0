import type { Cluster } from 'ioredis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter, redisKeys } from '../../adapters/redis.js'
import { AdapterError, InvalidConfig } from '../../src/errors.js'
import {
  probeRedisServerBinary,
  redisServerAvailable,
  startRedisServer,
  type PrivateRedis,
} from '../support/redis-server.js'
import { probeRedisCluster, startRedisCluster, type PrivateRedisCluster } from '../support/redis-cluster.js'
import { describeWithService, probeRedis, redisUrl, scratchName, type ServiceProbe } from '../support/services.js'
import { newUser } from './conformance-fixtures.js'
import { failureKind, redisAdapterSuite, type RedisTarget } from './redis-adapter-suite.js'
import { deleteKeysWithPrefix } from './redis-keys-cleanup.js'

describe('RedisAdapter options', () => {
  it('refuses an e-mail claim lease that is not a positive whole number of milliseconds, naming the option', () => {
    const idle = new Redis({ lazyConnect: true })
    try {
      for (const emailClaimLeaseMs of [0, -1, 1.5, Number.NaN]) {
        expect(() => RedisAdapter(idle, { emailClaimLeaseMs })).toThrow(InvalidConfig)
        expect(() => RedisAdapter(idle, { emailClaimLeaseMs })).toThrow(/emailClaimLeaseMs/)
      }
    } finally {
      idle.disconnect()
    }
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('RedisAdapter on a single Redis server', () => {
    const prefix = `${scratchName()}:`
    let client: Redis
    beforeAll(() => {
      client = new Redis(redisUrl())
    })
    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })
    redisAdapterSuite((): RedisTarget => ({ client, prefix }))
  })
})

await describeWithService('a private Redis Cluster', probeRedisCluster, () => {
  describe('RedisAdapter on a Redis Cluster (three primaries, three replicas)', () => {
    let cluster: PrivateRedisCluster
    let client: Cluster
    beforeAll(async () => {
      cluster = await startRedisCluster()
      client = cluster.client()
    }, 30_000)
    afterAll(async () => {
      client?.disconnect()
      await cluster?.stop()
    })
    redisAdapterSuite((): RedisTarget => ({ client, prefix: 'authchart:' }))
  })
})

await describeWithService('a private Redis Cluster', probeRedisCluster, () => {
  describe('RedisAdapter when a Cluster primary dies', () => {
    let cluster: PrivateRedisCluster
    let client: Cluster
    beforeAll(async () => {
      cluster = await startRedisCluster()
      // The bounded client docs/adapters.md recommends.
      client = cluster.client({
        redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 500, commandTimeout: 1500 },
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        clusterRetryStrategy: () => 100,
        slotsRefreshTimeout: 500,
      })
    }, 30_000)
    afterAll(async () => {
      client?.disconnect()
      await cluster?.stop()
    })

    it('calls on its slots fail fast as "unreachable" (or succeed), and every call works again after the failover', async () => {
      const adapter = RedisAdapter(client)
      const user = await adapter.createUser(newUser())
      await cluster.kill(await cluster.primaryOf(redisKeys().user(user.id)))
      const outcomes: unknown[] = []
      const until = Date.now() + 1500
      while (Date.now() < until) {
        const started = Date.now()
        outcomes.push(
          await failureKind(
            Promise.resolve(adapter.getUser(user.id)).then((found) => {
              // Before the failover the row cannot be read; after it, the replica's copy is.
              expect(found?.id).toBe(user.id)
            }),
          ),
        )
        expect(Date.now() - started).toBeLessThan(5000)
      }
      expect(outcomes.filter((kind) => kind !== null && kind !== 'unreachable')).toEqual([])
      expect(outcomes).toContain('unreachable')

      await cluster.waitUntilHealthy(20_000)
      const deadline = Date.now() + 10_000
      let found = null
      while (!found && Date.now() < deadline) found = await Promise.resolve(adapter.getUser(user.id)).catch(() => null)
      // The replica had the user: nothing was lost, and the failed-over slot serves reads and writes.
      expect(found?.id).toBe(user.id)
      expect((await adapter.updateUser({ id: user.id, name: 'after the failover' })).name).toBe('after the failover')
    }, 60_000)
  })
})

await describeWithService(
  'a private redis-server',
  async () => {
    await probeRedisServerBinary()
  },
  () => {
    describe('RedisAdapter through Redis Sentinel', () => {
      let primary: PrivateRedis
      let sentinel: PrivateRedis
      let client: Redis
      beforeAll(async () => {
        primary = await startRedisServer()
        sentinel = await startRedisServer({ sentinelOf: { name: 'authchart', port: primary.port } })
        client = new Redis({ sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: 'authchart' })
      })
      afterAll(async () => {
        client?.disconnect()
        await sentinel?.stop()
        await primary?.stop()
      })
      redisAdapterSuite((): RedisTarget => ({ client, prefix: 'authchart:' }))
    })
  },
)

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
      client.on('error', () => {
        /* reported through the failing commands */
      })
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
      // The client reconnects on its own (it may already have by now): the adapter answers again within seconds.
      const deadline = Date.now() + 10_000
      let answered: unknown = 'not yet'
      while (answered === 'not yet' && Date.now() < deadline) {
        answered = await Promise.resolve(adapter.getUser(user.id)).catch(() => 'not yet')
        if (answered === 'not yet') await new Promise((resolve) => setTimeout(resolve, 50))
      }
      // The server kept nothing (no persistence), so the user is gone.
      expect(answered).toBeNull()
    })
  })
})
