/** The pieces behind the credentials failure limits: account names, stored keys, and reading/clearing counters. */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountFieldOf, failureKey, normalizeAccount } from '../../src/providers-internal/credentials-limits.js'
import { MemoryRequestCounter, RedisRequestCounter } from '../../src/limits.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'

describe('account names', () => {
  it('normalises case, surrounding space and Unicode compatibility forms; refuses empty and non-text values', () => {
    expect(normalizeAccount('  Ada@Example.COM ')).toBe('ada@example.com')
    expect(normalizeAccount('ａｄａ')).toBe('ada') // full-width letters (NFKC)
    expect(normalizeAccount('   ')).toBeUndefined()
    expect(normalizeAccount(['ada'])).toBeUndefined()
    expect(normalizeAccount(undefined)).toBeUndefined()
    expect(normalizeAccount('a'.repeat(5000))?.length).toBe(320)
  })

  it('takes username, else email, else the first field that is not a password', () => {
    expect(accountFieldOf({ password: { type: 'password' }, username: {} })).toBe('username')
    expect(accountFieldOf({ password: { type: 'password' }, email: { type: 'email' } })).toBe('email')
    expect(accountFieldOf({ pin: { type: 'password' }, login: { type: 'text' } })).toBe('login')
    expect(accountFieldOf({})).toBe('username')
  })

  it('stored keys carry no name in the clear and differ per provider', () => {
    const key = failureKey('account-failures', 'credentials', 'ada')
    expect(key).not.toContain('ada')
    expect(key).not.toBe(failureKey('account-failures', 'other', 'ada'))
    expect(key).not.toBe(failureKey('account-lockout', 'credentials', 'ada'))
  })
})

describe('MemoryRequestCounter as a failure counter', () => {
  it('peeks without counting, reports the seconds left, and clears, answering at once', async () => {
    const counter = new MemoryRequestCounter()
    expect(counter.peek('k', 1000)).toEqual({ count: 0, secondsLeft: 0 })
    await counter.hit('k', 60, 1000)
    await counter.hit('k', 60, 1010)
    expect(counter.peek('k', 1020)).toEqual({ count: 2, secondsLeft: 40 })
    expect(counter.peek('k', 1060)).toEqual({ count: 0, secondsLeft: 0 })
    counter.clear('k')
    expect(counter.peek('k', 1020)).toEqual({ count: 0, secondsLeft: 0 })
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('RedisRequestCounter as a failure counter', () => {
    let client: Redis
    const prefix = `${scratchName('failure-counter')}:`
    beforeAll(async () => {
      client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 })
      await client.connect()
    })
    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    it('peeks without counting, reports the TTL in whole seconds, and clears for every instance', async () => {
      const first = new RedisRequestCounter(client, prefix)
      const second = new RedisRequestCounter(client, prefix)
      expect(await first.peek('k')).toEqual({ count: 0, secondsLeft: 0 })
      await first.hit('k', 30)
      await second.hit('k', 30)
      const peeked = await second.peek('k')
      expect(peeked.count).toBe(2)
      expect(peeked.secondsLeft).toBeGreaterThan(0)
      expect(peeked.secondsLeft).toBeLessThanOrEqual(30)
      expect((await first.peek('k')).count).toBe(2)
      await second.clear('k')
      expect(await first.peek('k')).toEqual({ count: 0, secondsLeft: 0 })
      expect(await client.exists(`${prefix}k`)).toBe(0)
    })
  })
})
