import type { Cluster } from 'ioredis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter } from '../../adapters/redis.js'
import { AdapterError } from '../../src/errors.js'
import { redisServerAvailable, startRedisServer, type PrivateRedis } from '../support/redis-server.js'
import { probeRedisCluster, startRedisCluster, type PrivateRedisCluster } from '../support/redis-cluster.js'
import { describeWithService, probeRedis, redisUrl, scratchName, type ServiceProbe } from '../support/services.js'
import { newUser } from './conformance-fixtures.js'
import { redisAdapterSuite, type RedisTarget } from './redis-adapter-suite.js'
import { deleteKeysWithPrefix } from './redis-keys-cleanup.js'

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
