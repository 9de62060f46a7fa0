/** The request counters behind the e-mail sign-in limits: in memory, and in a real Redis shared by instances. */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  counterKey,
  MemoryRequestCounter,
  RedisRequestCounter,
} from '../../src/providers-internal/email-request-limits.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'

describe('MemoryRequestCounter', () => {
  it('counts hits per key within the window and starts again after it', async () => {
    const counter = new MemoryRequestCounter()
    expect(await counter.hit('a', 60, 1000)).toBe(1)
    expect(await counter.hit('a', 60, 1010)).toBe(2)
    expect(await counter.hit('b', 60, 1010)).toBe(1)
    expect(await counter.hit('a', 60, 1060)).toBe(1)
  })

  it('keys carry no address in the clear', () => {
    expect(counterKey('address', 'ada@example.com')).not.toContain('ada')
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('RedisRequestCounter', () => {
    let client: Redis
    const prefix = `${scratchName('email-limit')}:`
    beforeAll(async () => {
      client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 })
      await client.connect()
    })
    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    it('two instances share one count, and the key expires with its window', async () => {
      const first = new RedisRequestCounter(client, prefix)
      const second = new RedisRequestCounter(client, prefix)
      expect(await first.hit('k', 60)).toBe(1)
      expect(await second.hit('k', 60)).toBe(2)
      const ttl = await client.ttl(`${prefix}k`)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(60)
    })
  })
})
