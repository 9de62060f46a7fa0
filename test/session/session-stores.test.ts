/**
 * The session stores of session management: records listed per user and dropped when they expire or are revoked,
 * revocations by id and by per-user epoch, answered from memory; the Redis store (on the local Redis) shares them
 * between two store objects (two processes' worth) through pub/sub, and loads those made before it started.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { MemorySessionStore, RedisSessionStore } from '../../src/flow/stores/logout.js'
import { userAgentSummary } from '../../src/session/user-agent.js'
import { startRedisServer } from '../support/redis-server.js'
import type { SessionStore, StoredSessionRecord } from '../../src/types/session-store.js'

const record = (id: string, userId: string, createdAt: number, expiresAt: number): StoredSessionRecord => ({
  id,
  userId,
  createdAt,
  lastSeenAt: createdAt,
  expiresAt,
})

async function until(check: () => boolean | Promise<boolean>, ms = 1000): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('not within time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return Date.now() - start
}

function behavesAsASessionStore(name: string, make: () => SessionStore) {
  describe(name, () => {
    it('lists a record written behind (putBehind), reporting no failure', async () => {
      const store = make()
      const now = Date.now()
      const user = `u-${randomUUID()}`
      const failed = vi.fn()
      store.putBehind?.(record('s1', user, now, now + 60_000), failed)
      expect((await store.list(user)).map((r) => r.id)).toEqual(['s1'])
      expect(failed).not.toHaveBeenCalled()
      await store.close?.()
    })

    it('lists a user’s live records only, never another user’s', async () => {
      const store = make()
      const now = Date.now()
      const user = `u-${randomUUID()}`
      await store.put(record('s1', user, now, now + 60_000))
      await store.put(record('s2', user, now, now + 60_000))
      await store.put(record('gone', user, now - 120_000, now - 1))
      await store.put(record('x1', `${user}-other`, now, now + 60_000))
      expect((await store.list(user)).map((r) => r.id).sort()).toEqual(['s1', 's2'])
      expect(await store.isRevoked(user, 's1', now)).toBe(false)
      await store.close?.()
    })

    it('revokes by id (for that user only) and by epoch (sessions signed in before it)', async () => {
      const store = make()
      const now = Date.now()
      const user = `u-${randomUUID()}`
      await store.put(record('s1', user, now, now + 60_000))
      await store.put(record('s2', user, now, now + 60_000))
      await store.revoke(user, ['s1'], 60)
      expect(await store.isRevoked(user, 's1', now)).toBe(true)
      expect(await store.isRevoked(`${user}-other`, 's1', now)).toBe(false)
      expect(await store.isRevoked(user, 's2', now)).toBe(false)
      expect((await store.list(user)).map((r) => r.id)).toEqual(['s2'])
      await store.revokeUser(user, now + 1, 60)
      expect(await store.isRevoked(user, 's2', now)).toBe(true)
      expect(await store.isRevoked(user, 'later', now + 2)).toBe(false)
      expect(await store.list(user)).toEqual([])
      await store.close?.()
    })

    it('never lists a revoked session, even when a check under way writes its record again after the revocation', async () => {
      const store = make()
      const now = Date.now()
      const user = `u-${randomUUID()}`
      await store.put(record('s1', user, now, now + 60_000))
      await store.put(record('s2', user, now, now + 60_000))
      await store.revoke(user, ['s1'], 60)
      // The "last seen" of a check that read the session before the revocation, arriving after it.
      await store.put({ ...record('s1', user, now, now + 60_000), lastSeenAt: now + 1 })
      expect((await store.list(user)).map((r) => r.id)).toEqual(['s2'])
      await store.revokeUser(user, now + 1, 60)
      await store.put(record('s2', user, now, now + 60_000))
      expect(await store.list(user)).toEqual([])
      await store.close?.()
    })
  })
}

behavesAsASessionStore('MemorySessionStore', () => new MemorySessionStore())

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
const prefix = `authchart-test:sessions:${randomUUID()}:`
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length > 0) await redis.del(...keys)
  redis.disconnect()
})

behavesAsASessionStore('RedisSessionStore', () => new RedisSessionStore(redis, { prefix }))

describe('RedisSessionStore between instances', () => {
  it('a revocation made through one store reaches another by pub/sub, and a store started later loads it', async () => {
    const one = new RedisSessionStore(redis, { prefix })
    const two = new RedisSessionStore(redis, { prefix })
    const user = `u-${randomUUID()}`
    const now = Date.now()
    // Both are loaded and subscribed: after the first check, every answer comes from memory without a promise.
    expect(await two.isRevoked(user, 's1', now)).toBe(false)
    expect(two.isRevoked(user, 's1', now)).toBe(false)
    await one.revoke(user, ['s1'], 60)
    const ms = await until(() => two.isRevoked(user, 's1', now) === true)
    expect(ms).toBeLessThan(1000)
    await one.revokeUser(user, now + 5, 60)
    await until(() => two.isRevoked(user, 'other', now) === true)
    const three = new RedisSessionStore(redis, { prefix })
    expect(await three.isRevoked(user, 's1', now + 10)).toBe(true)
    expect(await three.isRevoked(user, 'other', now)).toBe(true)
    expect(await three.isRevoked(user, 'newer', now + 10)).toBe(false)
    await Promise.all([one.close(), two.close(), three.close()])
  })
})

describe('RedisSessionStore record writes', () => {
  it('a listing waits for this process’s record writes still on their way (they are sent once per turn, together)', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const user = `u-${randomUUID()}`
    const now = Date.now()
    // Loaded (the revocations read once), so the listing's read is sent at once.
    expect(await store.isRevoked(user, 'none', now)).toBe(false)
    // Not awaited one by one: the way concurrent session checks of one instance write their "last seen".
    const writes = Array.from({ length: 200 }, (_, i) => store.put(record(`s${i}`, user, now, now + 60_000)))
    expect(await store.list(user)).toHaveLength(200)
    await Promise.all(writes)
    await store.close()
  })

  it('writes records of any characters in one command, each read back as written', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const now = Date.now()
    const user = `u-${randomUUID()}-ü:1:`
    // Fields and texts travel in one argument, a JSON array that Redis's Lua decodes: multi-byte characters,
    // quotes, backslashes and digits inside a value must come back as they were, and not shift the next record.
    const odd = [
      { ...record('12:3:é', user, now, now + 60_000), userAgent: 'Ünïcödé 🦊 on 7:8:9 "q" \\', method: 'prov:ider' },
      { ...record('', user, now, now + 60_000), clientAddress: '::1' },
      { ...record('plain', user, now, now + 70_000), amr: ['pwd', 'otp'] },
    ]
    // A lone surrogate, which Redis's JSON decoder refuses escaped: in a session id it is written as any UTF-8
    // client writes it (U+FFFD), inside the record's text it stays escaped, and the records sent with it are written.
    const lone = { ...record('lone\ud800', user, now, now + 60_000), userAgent: 'half \udc00 a pair' }
    await Promise.all([...odd, lone].map((written) => store.put(written)))
    const listed = await store.list(user)
    const asWritten = { ...lone, id: 'lone\ufffd' }
    const expected = [...odd, asWritten].sort((a, b) => a.id.localeCompare(b.id))
    expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected)
    await store.close()
  })

  it('writes and lists the records of a user id with a lone surrogate, and the records sent with them', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const now = Date.now()
    // `encodeURIComponent` throws on a lone surrogate: the key is built from the id as UTF-8 writes it, and a batch
    // never fails (or leaves a put waiting) because one of its users has such an id.
    const odd = `u-${randomUUID()}-\ud800`
    const plain = `u-${randomUUID()}`
    const failed = vi.fn()
    store.putBehind(record('behind', odd, now, now + 60_000), failed)
    await Promise.all([
      store.put(record('put', odd, now, now + 60_000)),
      store.put(record('other', plain, now, now + 60_000)),
    ])
    expect((await store.list(odd)).map((r) => r.id).sort()).toEqual(['behind', 'put'])
    expect((await store.list(plain)).map((r) => r.id)).toEqual(['other'])
    expect(failed).not.toHaveBeenCalled()
    await store.close()
  })

  it('keeps a record as its times in base 36 and what else it has, and still lists records kept as JSON', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    // Whole seconds, so that authTime (epoch seconds) is whole too.
    const now = Math.floor(Date.now() / 1000) * 1000
    const user = `u-${randomUUID()}`
    const key = `${prefix}session-records:{${user}}`
    const full = { ...record('full', user, now, now + 60_000), method: 'github', amr: ['fed'], authTime: now / 1000 }
    await store.put(full)
    const kept = await redis.hget(key, 'full')
    expect(kept).toBe(
      `~${now.toString(36)}.${now.toString(36)}.${(now + 60_000).toString(36)}.["github",null,null,["fed"],${now / 1000}]`,
    )
    // A time the base 36 form cannot hold is kept as JSON, and read back the same.
    const odd = record('odd', user, now + 0.5, now + 60_000)
    await store.put(odd)
    expect(JSON.parse((await redis.hget(key, 'odd')) ?? '')).toEqual(odd)
    // Records another version wrote as JSON are listed; one naming another user, or not a record, is dropped.
    await redis.hset(key, 'old', JSON.stringify(record('old', user, now, now + 60_000)))
    await redis.hset(key, 'stray', JSON.stringify(record('stray', 'someone-else', now, now + 60_000)))
    await redis.hset(key, 'junk', '~12.zz')
    const listed = await store.list(user)
    expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual([full, odd, record('old', user, now, now + 60_000)])
    expect(await redis.hkeys(key)).toEqual(expect.not.arrayContaining(['stray', 'junk']))
    await store.close()
  })

  it('fails only the write that Redis refused in a shared pipeline, with Redis’s error', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const now = Date.now()
    const good = `u-${randomUUID()}`
    const bad = `u-${randomUUID()}`
    // The user's records key holds a string: HSET on it is refused (WRONGTYPE).
    await redis.set(`${prefix}session-records:{${bad}}`, 'not a hash')
    const results = await Promise.allSettled([
      store.put(record('a', good, now, now + 60_000)),
      store.put(record('b', bad, now, now + 60_000)),
    ])
    expect(results[0]).toEqual({ status: 'fulfilled', value: undefined })
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('WRONGTYPE') } })
    expect((await store.list(good)).map((r) => r.id)).toEqual(['a'])
    await store.close()
  })
})

describe('RedisSessionStore records written behind (the session check’s "last seen")', () => {
  it('reach another instance within writeBehindMs and a round trip, and close() writes what still waits', async () => {
    const one = new RedisSessionStore(redis, { prefix })
    const two = new RedisSessionStore(redis, { prefix })
    const user = `u-${randomUUID()}`
    const now = Date.now()
    const failed = vi.fn()
    one.putBehind(record('s1', user, now, now + 60_000), failed)
    const ms = await until(async () => (await two.list(user)).length === 1)
    expect(ms).toBeLessThan(1000)
    // Written behind and not yet sent when the store closes: close() sends it and waits for Redis's answer.
    one.putBehind(record('s2', user, now, now + 60_000), failed)
    await one.close()
    expect(await redis.hget(`${prefix}session-records:{${user}}`, 's2')).toMatch(/^~[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.$/)
    expect(failed).not.toHaveBeenCalled()
    await two.close()
  })

  it('wait up to writeBehindMs for others and go in one command; a put takes them along at the end of its turn', async () => {
    // Redis's own record of the commands it ran (MONITOR), filtered to this test's keys.
    const monitor = await redis.monitor()
    const evals: string[][] = []
    const mine = `${prefix}behind-${randomUUID()}`
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'eval' && args.some((arg) => arg.includes(mine))) evals.push(args)
    })
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    const now = Date.now()
    const failed = vi.fn()
    try {
      // Three checks, each in an event-loop turn of its own, as a server answers requests: one command.
      const store = new RedisSessionStore(redis, { prefix: mine, writeBehindMs: 100 })
      for (const id of ['a', 'b', 'c']) {
        store.putBehind(record(id, 'u-1', now, now + 60_000), failed)
        await turn()
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(evals).toHaveLength(0)
      await until(() => evals.length === 1)
      expect(evals[0]?.[2]).toBe('3')
      // A sign-in's put does not wait for the timer, and the record written behind before it goes with it.
      const slow = new RedisSessionStore(redis, { prefix: mine, writeBehindMs: 60_000 })
      slow.putBehind(record('d', 'u-2', now, now + 60_000), failed)
      const started = Date.now()
      await slow.put(record('e', 'u-2', now, now + 60_000))
      expect(Date.now() - started).toBeLessThan(1000)
      await until(() => evals.length === 2)
      expect(evals[1]?.[2]).toBe('2')
      // writeBehindMs 0: batched by turn only, one command per turn.
      const eager = new RedisSessionStore(redis, { prefix: mine, writeBehindMs: 0 })
      for (const id of ['f', 'g']) {
        eager.putBehind(record(id, 'u-3', now, now + 60_000), failed)
        await turn()
      }
      await until(() => evals.length === 4)
      expect((await eager.list('u-3')).map((r) => r.id).sort()).toEqual(['f', 'g'])
      expect(failed).not.toHaveBeenCalled()
      await Promise.all([store.close(), slow.close(), eager.close()])
    } finally {
      monitor.disconnect()
      const keys = await redis.keys(`${mine}*`)
      if (keys.length > 0) await redis.del(...keys)
    }
  })

  it('refuses a writeBehindMs that is not a number of milliseconds', () => {
    for (const writeBehindMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RedisSessionStore(redis, { prefix, writeBehindMs })).toThrow(/writeBehindMs/)
    }
  })

  it('of one session in one turn are written once, the newest; failures are reported once per write', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const now = Date.now()
    const good = `u-${randomUUID()}`
    const bad = `u-${randomUUID()}`
    await redis.set(`${prefix}session-records:{${bad}}`, 'not a hash')
    const failed = vi.fn()
    store.putBehind({ ...record('s', good, now, now + 60_000), lastSeenAt: now }, failed)
    store.putBehind({ ...record('s', good, now, now + 60_000), lastSeenAt: now + 5 }, failed)
    // Three writes of two sessions of a user whose key Redis refuses: two records fail, reported together.
    store.putBehind(record('b1', bad, now, now + 60_000), failed)
    store.putBehind({ ...record('b1', bad, now, now + 60_000), lastSeenAt: now + 5 }, failed)
    store.putBehind(record('b2', bad, now, now + 60_000), failed)
    expect((await store.list(good)).map((r) => [r.id, r.lastSeenAt])).toEqual([['s', now + 5]])
    expect(failed).toHaveBeenCalledTimes(1)
    expect(String(failed.mock.calls[0]?.[0])).toMatch(/2 session records were not written: WRONGTYPE/)
    await store.close()
  })

  it('a put after a record written behind of the same session is not overwritten by an older one', async () => {
    const store = new RedisSessionStore(redis, { prefix })
    const now = Date.now()
    const user = `u-${randomUUID()}`
    const failed = vi.fn()
    store.putBehind({ ...record('s', user, now, now + 60_000), lastSeenAt: now + 1 }, failed)
    const put = store.put({ ...record('s', user, now, now + 60_000), lastSeenAt: now + 2 })
    store.putBehind({ ...record('s', user, now, now + 60_000), lastSeenAt: now + 3 }, failed)
    await put
    expect((await store.list(user)).map((r) => r.lastSeenAt)).toEqual([now + 3])
    expect(failed).not.toHaveBeenCalled()
    await store.close()
  })
})

describe('RedisSessionStore when Redis dies', () => {
  it('keeps answering from memory and prints nothing while its subscription reconnects', async () => {
    const server = await startRedisServer()
    const client = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 })
    client.on('error', () => {})
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const store = new RedisSessionStore(client, { prefix })
      const user = `u-${randomUUID()}`
      const now = Date.now()
      await store.revoke(user, ['gone'], 60)
      expect(await store.isRevoked(user, 'gone', now)).toBe(true)
      await server.stop('SIGKILL')
      // Several reconnect attempts of both connections (every 50 ms).
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(store.isRevoked(user, 'gone', now)).toBe(true)
      expect(store.isRevoked(user, 'kept', now)).toBe(false)
      const unhandled = printed.mock.calls.filter((call) => String(call[0]).includes('Unhandled error event'))
      expect(unhandled).toEqual([])
      await store.close()
    } finally {
      printed.mockRestore()
      client.disconnect()
    }
  })
})

describe('userAgentSummary', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome on macOS',
    ],
    ['something odd', 'Unknown browser'],
  ])('%s → %s', (header, summary) => {
    expect(userAgentSummary(header)).toBe(summary)
  })
  it('says nothing without a header', () => {
    expect(userAgentSummary(null)).toBeUndefined()
  })
})
