/**
 * Session management in one process (`MemorySessionStore`), through `Auth()` and the app API: a JWT session gets an
 * id and a record at sign-in, is listed for its own user only, and once revoked is refused at its next check (its
 * cookie cleared, `refused:session-revoked` logged once, the `sessionRevoked` event sent). The session check writes
 * no record (nor waits for one: a "last seen" that is due is written behind the answer); `revokeUserSessions` ends
 * every session of the user. The two-process case, on Redis and a Redis Cluster,
 * is test/e2e/multi-instance/session-revocation.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { MemorySessionStore, RedisSessionStore } from '../../src/flow/stores/logout.js'
import { listSessions, revokeOtherSessions, revokeSession, revokeUserSessions } from '../../src/index.js'
import type { SessionRecord } from '../../src/types/session-store.js'
import type { AuditRecord } from '../../src/types/audit.js'
import { decode, encode } from '../../src/jwt.js'
import { FlowStoreUnavailable } from '../../src/errors.js'
import { CookieJar, origin, secret, session, signIn, testConfig } from '../support/auth-harness.js'
import { countingStore } from '../support/counting-session-store.js'
import { redisUrl } from '../support/services.js'
import { startStallProxy } from '../support/stall-proxy.js'

function appRequest(jar: CookieJar): Request {
  return new Request(`${origin}/account`, { headers: { cookie: jar.header() } })
}

describe('session management (JWT sessions, one process)', () => {
  it('a session signed in on another instance writes no record at its checks here until updateAge has passed', async () => {
    const { store, puts } = countingStore()
    const config = testConfig({ sessionManagement: { store } })
    const jarOf = async (signedInAt: number) => {
      const token = {
        sub: 'u-ada',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        'authchart:sid': { id: `sid-${signedInAt}`, at: signedInAt, m: 'credentials' },
      }
      const jar = new CookieJar()
      jar.cookies.set('authjs.session-token', await encode({ token, secret, salt: 'authjs.session-token' }))
      return jar
    }
    // Signed in a minute ago elsewhere: the sign-in wrote the record there; checks here (each re-seals the cookie)
    // write nothing.
    const fresh = await jarOf(Date.now() - 60_000)
    for (let i = 0; i < 3; i++) expect(await session(config, fresh)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(puts()).toBe(0)
    // Signed in more than updateAge (a day by default) ago: "last seen" is due, once per updateAge in this process.
    const old = await jarOf(Date.now() - 86_400_000 - 60_000)
    for (let i = 0; i < 3; i++) expect(await session(config, old)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(puts()).toBe(1)
  })

  it('"last seen" is written once per updateAge per session, not once per instance: the cookie says when', async () => {
    // Two instances (each its own store object, so nothing in one process's memory is shared between them).
    const one = countingStore()
    const two = countingStore()
    const first = testConfig({ sessionManagement: { store: one.store } })
    const second = testConfig({ sessionManagement: { store: two.store } })
    const token = {
      sub: 'u-ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      'authchart:sid': { id: 'sid-two-instances', at: Date.now() - 3 * 86_400_000, m: 'credentials' },
    }
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', await encode({ token, secret, salt: 'authjs.session-token' }))
    expect(await session(first, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(one.puts()).toBe(1)
    // The re-issued cookie, checked by the other instance: written a moment ago, not due.
    for (let i = 0; i < 3; i++) expect(await session(second, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(two.puts()).toBe(0)
  })

  it('a sign-in seals its session id as one short string; a token sealed before in the object form is re-sealed so', async () => {
    const config = testConfig({ sessionManagement: { store: new MemorySessionStore() } })
    const claimOf = async (jar: CookieJar) => {
      const token = await decode({
        token: jar.cookies.get('authjs.session-token'),
        secret,
        salt: 'authjs.session-token',
      })
      return token?.['authchart:sid']
    }
    const jar = new CookieJar()
    await signIn(config, jar, 'ada')
    const claim = await claimOf(jar)
    expect(claim).toMatch(/^[A-Za-z0-9_-]{16}\.[0-9a-z]+\.\.credentials$/)
    const [listed] = (await listSessions(appRequest(jar), config)) ?? []
    expect(listed?.id).toBe(String(claim).split('.')[0])

    const old = new CookieJar()
    const signedInAt = Date.now() - 2 * 86_400_000
    const token = {
      sub: 'u-ada',
      name: 'Ada Lovelace',
      'authchart:sid': { id: 'sid-old', at: signedInAt, m: 'github' },
    }
    old.cookies.set('authjs.session-token', await encode({ token, secret, salt: 'authjs.session-token' }))
    expect(await session(config, old)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(await claimOf(old)).toMatch(new RegExp(`^sid-old\\.${signedInAt.toString(36)}\\.[0-9a-z]+\\.github$`))
  })

  it('lists a user’s sessions with their records, and a revoked one is refused at its next check', async () => {
    const { store, puts } = countingStore()
    const revoked: unknown[] = []
    const config = testConfig({
      sessionManagement: { store },
      events: { sessionRevoked: (message) => void revoked.push(message) },
    })
    const laptop = new CookieJar()
    const phone = new CookieJar()
    const other = new CookieJar()
    await signIn(config, laptop, 'ada')
    await signIn(config, phone, 'ada')
    await signIn(config, other, 'alan')
    expect(puts()).toBe(3)

    // Plain checks write nothing (the record is written when the session slides, once per updateAge).
    for (let i = 0; i < 5; i++) expect(await session(config, phone)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(puts()).toBe(3)

    const listed = (await listSessions(appRequest(laptop), config)) as Array<SessionRecord & { current: boolean }>
    expect(listed).toHaveLength(2)
    expect(listed[0]).toMatchObject({ userId: 'u-ada', current: true, method: 'credentials' })
    expect(listed.every((s) => s.userId === 'u-ada')).toBe(true)
    expect(JSON.stringify(listed)).not.toContain('sessionToken')
    const phoneId = listed.find((s) => !s.current)?.id as string

    // Alan can neither list nor end Ada's sessions.
    const alans = (await listSessions(appRequest(other), config)) ?? []
    expect(alans.map((s) => s.userId)).toEqual(['u-alan'])
    expect(await revokeSession(appRequest(other), config, phoneId)).toBe(false)
    expect(await session(config, phone)).toMatchObject({ user: { name: 'Ada Lovelace' } })

    expect(await revokeSession(appRequest(laptop), config, phoneId)).toBe(true)
    expect(revoked).toEqual([{ userId: 'u-ada', sessionIds: [phoneId], by: 'user' }])
    expect(await session(config, phone)).toBeNull()
    // The cookie was cleared, and the refusal logged once under its code.
    expect([...phone.cookies.keys()].some((name) => name.includes('session-token'))).toBe(false)
    expect(config.recorded.warnings.filter((code) => code === 'refused:session-revoked')).toHaveLength(1)
    expect(await session(config, laptop)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(await listSessions(appRequest(phone), config)).toBeNull()
  })

  it('revokeOtherSessions keeps the current one; revokeUserSessions ends them all, a later sign-in works', async () => {
    const audited: AuditRecord[] = []
    const config = testConfig({
      sessionManagement: { store: new MemorySessionStore() },
      audit: (record) => void audited.push(record),
    })
    const [a, b, c] = [new CookieJar(), new CookieJar(), new CookieJar()]
    for (const jar of [a, b, c]) await signIn(config, jar, 'ada')
    expect(await revokeOtherSessions(appRequest(a), config)).toBe(2)
    expect(await session(config, b)).toBeNull()
    expect(await session(config, c)).toBeNull()
    expect(await session(config, a)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    await new Promise((resolve) => setTimeout(resolve, 2))
    expect(await revokeUserSessions(config, 'u-ada')).toBe(1)
    expect(await session(config, a)).toBeNull()
    // Each revocation is one audit record with the user and how many sessions it ended.
    expect(audited.filter((r) => r.type === 'session-revoked')).toEqual([
      { type: 'session-revoked', userId: 'u-ada', count: 2, outcome: 'revoked', time: expect.any(String) },
      { type: 'session-revoked', userId: 'u-ada', count: 1, outcome: 'revoked', time: expect.any(String) },
    ])
    const again = new CookieJar()
    await signIn(config, again, 'ada')
    expect(await session(config, again)).toMatchObject({ user: { name: 'Ada Lovelace' } })
  })
})

describe('session management: "last seen" written behind (RedisSessionStore on the local Redis)', () => {
  it('concurrent checks of one due cookie write its record once; a write Redis refuses is logged once', async () => {
    const client = new Redis(redisUrl(), { maxRetriesPerRequest: 1 })
    const prefix = `authchart-test:behind:${randomUUID()}:`
    const store = new RedisSessionStore(client, { prefix })
    const userId = `u-${randomUUID()}`
    try {
      const config = testConfig({ sessionManagement: { store } })
      const jarOf = async (id: string) => {
        const signedInAt = Date.now() - 2 * 86_400_000
        const token = { sub: userId, name: 'Ada Lovelace', 'authchart:sid': { id, at: signedInAt, m: 'credentials' } }
        const jar = new CookieJar()
        jar.cookies.set('authjs.session-token', await encode({ token, secret, salt: 'authjs.session-token' }))
        return jar
      }
      expect(await store.isRevoked(userId, 'none', Date.now())).toBe(false)
      // The user's records key holds a string: Redis refuses every record of this user (WRONGTYPE).
      await client.set(`${prefix}session-records:{${userId}}`, 'not a hash')
      const [a, b] = [await jarOf('sid-a'), await jarOf('sid-b')]
      // Three checks of one cookie and one of another, in one turn: all answered, two records sent, one line logged.
      const answers = await Promise.all([
        session(config, a),
        session(config, a),
        session(config, a),
        session(config, b),
      ])
      for (const answer of answers) expect(answer).toMatchObject({ user: { name: 'Ada Lovelace' } })
      await store.close()
      const logged = config.recorded.errors.filter((e) => e.message.includes('the session record could not be written'))
      expect(logged).toHaveLength(1)
      const [first] = logged
      if (!(first instanceof FlowStoreUnavailable)) throw new Error('the record write was not logged as the store’s')
      expect(String(first.cause?.err)).toMatch(/2 session records were not written: WRONGTYPE/)
    } finally {
      await store.close()
      client.disconnect()
    }
  })
})

describe('session management: the session check and a slow store (RedisSessionStore on the local Redis, behind a proxy)', () => {
  it('answers a check whose "last seen" is due without waiting for the write, and the record lands when Redis does', async () => {
    const url = new URL(redisUrl())
    const proxy = await startStallProxy({ host: url.hostname, port: Number(url.port || 6379) })
    const client = new Redis({ host: '127.0.0.1', port: proxy.port, maxRetriesPerRequest: 1 })
    const store = new RedisSessionStore(client, { prefix: `authchart-test:slow-store:${randomUUID()}:` })
    try {
      const config = testConfig({ sessionManagement: { store } })
      const signedInAt = Date.now() - 2 * 86_400_000
      const token = {
        sub: 'u-ada',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        'authchart:sid': { id: 'sid-slow', at: signedInAt, m: 'credentials' },
      }
      const jar = new CookieJar()
      jar.cookies.set('authjs.session-token', await encode({ token, secret, salt: 'authjs.session-token' }))
      // The revocations are loaded once; from then on the check reads them from memory.
      expect(await store.isRevoked('u-ada', 'sid-slow', signedInAt)).toBe(false)
      proxy.stall()
      const started = Date.now()
      expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
      expect(Date.now() - started).toBeLessThan(1000)
      proxy.resume()
      const listed = await store.list('u-ada')
      expect(listed.map((record) => [record.id, record.method])).toEqual([['sid-slow', 'credentials']])
    } finally {
      await store.close()
      client.disconnect()
      await proxy.close()
    }
  })
})
