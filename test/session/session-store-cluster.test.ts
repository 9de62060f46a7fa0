/**
 * `RedisSessionStore` records on a real Redis Cluster (six `redis-server` processes): records written behind for users
 * whose hash tags fall on different primaries are each sent to their own node (no cross-slot command), listed, and a
 * record Redis refuses is reported once without failing the others.
 */
import { randomUUID } from 'node:crypto'
import type { Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RedisSessionStore } from '../../src/flow/stores/logout.js'
import {
  boundedClusterOptions,
  probeRedisCluster,
  startRedisCluster,
  type PrivateRedisCluster,
} from '../support/redis-cluster.js'
import { describeWithService } from '../support/services.js'

await describeWithService('a private Redis Cluster', probeRedisCluster, () =>
  describe('RedisSessionStore records written behind on a Redis Cluster', () => {
    let cluster: PrivateRedisCluster
    let client: Cluster
    beforeAll(async () => {
      cluster = await startRedisCluster()
      client = cluster.client(boundedClusterOptions)
    }, 30_000)
    afterAll(async () => {
      client?.disconnect()
      await cluster?.stop()
    })

    it('writes each user’s record to its own slot, and reports a refused one once', async () => {
      const prefix = `authchart-test:cluster-records:${randomUUID()}:`
      const store = new RedisSessionStore(client, { prefix })
      const now = Date.now()
      // Enough users that their hash tags land on every primary.
      const users = Array.from({ length: 12 }, () => `u-${randomUUID()}`)
      const bad = `u-${randomUUID()}`
      await client.set(`${prefix}session-records:{${bad}}`, 'not a hash')
      const failed = vi.fn()
      const record = (id: string, userId: string) => ({
        id,
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + 60_000,
      })
      for (const user of users) store.putBehind(record(`s-${user}`, user), failed)
      store.putBehind(record('b1', bad), failed)
      store.putBehind(record('b2', bad), failed)
      for (const user of users) expect((await store.list(user)).map((r) => r.id)).toEqual([`s-${user}`])
      expect(failed).toHaveBeenCalledTimes(1)
      expect(String(failed.mock.calls[0]?.[0])).toMatch(/2 session records were not written: WRONGTYPE/)
      await store.close()
    })
  }),
)
