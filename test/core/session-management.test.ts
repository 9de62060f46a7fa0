/**
 * Session management in one process (`MemorySessionStore`), through `Auth()` and the app API: a JWT session gets an
 * id and a record at sign-in, is listed for its own user only, and once revoked is refused at its next check (its
 * cookie cleared, `refused:session-revoked` logged once, the `sessionRevoked` event sent). The session check writes
 * no record; `revokeUserSessions` ends every session of the user. The two-process case, on Redis and a Redis Cluster,
 * is test/e2e/multi-instance/session-revocation.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import { listSessions, revokeOtherSessions, revokeSession, revokeUserSessions } from '../../src/index.js'
import type { SessionRecord } from '../../src/types/session-store.js'
import type { AuditRecord } from '../../src/types/audit.js'
import { encode } from '../../src/jwt.js'
import { CookieJar, origin, secret, session, signIn, testConfig } from '../support/auth-harness.js'
import { countingStore } from '../support/counting-session-store.js'

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
