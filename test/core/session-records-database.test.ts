/**
 * Where a database session's record is kept (docs/sessions.md, "Where the record is kept"): on the row, when the
 * adapter has `listSessionsByUser` (here the memory adapter, the SQL and Redis ones in the adapter conformance suite),
 * written with the row at sign-in and with the expiry when it slides, never on a plain check; listed from the rows, and
 * ended by deleting the row. An Auth.js adapter (no `listSessionsByUser`, and a `createSession` that refuses fields its
 * model lacks, as Prisma's client does) is never handed the record: the session store keeps it, as before.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter, createMemoryStore } from '../../adapters/memory.js'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import { Auth, listSessions, revokeOtherSessions, revokeSession, revokeUserSessions } from '../../src/index.js'
import type { Adapter, AdapterSession } from '../../src/types/adapters.js'
import { databaseSessionId, readSessionRecord } from '../../src/effects/session/session-record.js'
import { CookieJar, origin, session, signIn, testConfig, users } from '../support/auth-harness.js'
import { countingStore } from '../support/counting-session-store.js'

/** The listed id of the database session a jar's cookie holds. */
function idOf(jar: CookieJar): string {
  const token = [...jar.cookies].find(([name]) => name.includes('session-token'))?.[1]
  if (!token) throw new Error('no session cookie in the jar')
  return databaseSessionId(token)
}

function appRequest(jar: CookieJar): Request {
  return new Request(`${origin}/account`, { headers: { cookie: jar.header() } })
}

/** The memory adapter with the harness's users, its session rows readable, and its session writes counted. */
async function seededAdapter() {
  const data = createMemoryStore()
  const adapter = MemoryAdapter(data)
  for (const { user } of Object.values(users)) await adapter.createUser({ ...user, emailVerified: null })
  const writes: string[] = []
  const counted: Required<Adapter> = {
    ...adapter,
    createSession: (row) => {
      writes.push('create')
      return adapter.createSession(row)
    },
    updateSession: (row) => {
      writes.push('update')
      return adapter.updateSession(row)
    },
  }
  return { adapter: counted, rows: (): AdapterSession[] => [...data.sessions.values()], writes }
}

/**
 * An Auth.js-style adapter over the memory one: none of Authchart's methods, and a `createSession` /
 * `updateSession` that throw on a field the Auth.js model lacks, as Prisma's client does.
 */
function authjsStyle(adapter: Required<Adapter>): Adapter {
  const model = new Set(['sessionToken', 'userId', 'expires'])
  const strict = (row: object) => {
    const unknown = Object.keys(row).filter((field) => !model.has(field))
    if (unknown.length > 0) throw new Error(`Unknown argument \`${unknown[0]}\``)
  }
  return {
    createUser: adapter.createUser,
    getUser: adapter.getUser,
    getUserByEmail: adapter.getUserByEmail,
    getUserByAccount: adapter.getUserByAccount,
    updateUser: adapter.updateUser,
    linkAccount: adapter.linkAccount,
    getSessionAndUser: adapter.getSessionAndUser,
    deleteSession: adapter.deleteSession,
    createSession: (row) => {
      strict(row)
      return adapter.createSession(row)
    },
    updateSession: (row) => {
      strict(row)
      return adapter.updateSession(row)
    },
  }
}

const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' }

describe('database session records on the row (memory adapter)', () => {
  it('the sign-in writes the record with the row; checks write nothing; a slide updates lastSeenAt on the row', async () => {
    const { adapter, rows, writes } = await seededAdapter()
    const { store, puts } = countingStore()
    const config = testConfig({
      adapter,
      session: { strategy: 'database', updateAge: 3600 },
      sessionManagement: { store },
    })
    const laptop = new CookieJar()
    await signIn(config, laptop, 'ada')
    expect(writes).toEqual(['create'])
    const [row] = rows()
    expect(row).toMatchObject({ userId: 'u-ada', method: 'credentials' })
    expect(row?.createdAt).toBeInstanceOf(Date)
    // The sign-in time is OpenID Connect's `auth_time`: whole seconds.
    const signedInAt = Math.floor((row?.createdAt?.getTime() ?? 0) / 1000)
    expect(row?.authTime?.getTime()).toBe(signedInAt * 1000)
    expect(row?.lastSeenAt?.getTime()).toBe(row?.createdAt?.getTime())
    // The session store holds no record of it: the row does.
    expect(puts()).toBe(0)

    for (let i = 0; i < 5; i++) expect(await session(config, laptop)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(writes).toEqual(['create'])

    const listed = (await listSessions(appRequest(laptop), config)) ?? []
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ userId: 'u-ada', current: true, method: 'credentials' })
    expect(listed[0]?.lastSeenAt).toBe(row?.lastSeenAt?.getTime())
    expect(listed[0]?.authTime).toBe(signedInAt)
    expect(JSON.stringify(listed)).not.toContain(row.sessionToken)

    // At updateAge 0 every check slides the row, and "last seen" goes with the expiry in the one write.
    const sliding = { ...config, session: { strategy: 'database' as const, updateAge: 0 } }
    await new Promise((resolve) => setTimeout(resolve, 5))
    const seen = new Request(`${origin}/auth/session`, { headers: { cookie: laptop.header(), ...browser } })
    expect((await Auth(seen, sliding)).status).toBe(200)
    expect(writes).toEqual(['create', 'update'])
    const [slid] = rows()
    expect(slid?.lastSeenAt?.getTime()).toBeGreaterThan(row?.lastSeenAt?.getTime() ?? Number.POSITIVE_INFINITY)
    expect(slid?.deviceSummary).toBe('Firefox on Linux')
    expect(slid?.createdAt?.getTime()).toBe(row?.createdAt?.getTime())
    expect(puts()).toBe(0)
    // The one reader of the record reads the row's.
    expect(await readSessionRecord(config, slid)).toMatchObject({
      userId: 'u-ada',
      lastSeenAt: slid?.lastSeenAt?.getTime(),
      userAgent: 'Firefox on Linux',
      authTime: signedInAt,
    })
  })

  it('a session callback answering the row it is handed shows none of the record', async () => {
    const { adapter, rows } = await seededAdapter()
    const config = testConfig({
      adapter,
      session: { strategy: 'database' },
      callbacks: { session: ({ session }) => ({ ...session }) },
    })
    const laptop = new CookieJar()
    await signIn(config, laptop, 'ada')
    expect(rows()[0]).toMatchObject({ method: 'credentials', lastSeenAt: expect.any(Date) })
    const answered = await session(config, laptop)
    expect(answered).toMatchObject({ userId: 'u-ada', user: { name: 'Ada Lovelace' } })
    for (const field of ['lastSeenAt', 'deviceSummary', 'clientAddress', 'method', 'amr', 'authTime', 'sessionToken'])
      expect(answered).not.toHaveProperty(field)
  })

  it('revoking deletes the row: refused at once; another user can neither list nor end it', async () => {
    const { adapter, rows } = await seededAdapter()
    const config = testConfig({
      adapter,
      session: { strategy: 'database' },
      sessionManagement: { store: new MemorySessionStore() },
    })
    const [laptop, phone, tablet, other] = [new CookieJar(), new CookieJar(), new CookieJar(), new CookieJar()]
    for (const jar of [laptop, phone, tablet]) await signIn(config, jar, 'ada')
    await signIn(config, other, 'alan')
    const listed = (await listSessions(appRequest(laptop), config)) ?? []
    expect(listed.map((s) => s.current)).toEqual([true, false, false])
    const phoneId = idOf(phone)
    expect(listed.find((s) => s.id === phoneId)?.current).toBe(false)

    expect(((await listSessions(appRequest(other), config)) ?? []).map((s) => s.userId)).toEqual(['u-alan'])
    expect(await revokeSession(appRequest(other), config, phoneId)).toBe(false)
    expect(rows()).toHaveLength(4)

    expect(await revokeSession(appRequest(laptop), config, phoneId)).toBe(true)
    expect(rows()).toHaveLength(3)
    expect(await session(config, phone)).toBeNull()
    expect(await revokeOtherSessions(appRequest(laptop), config)).toBe(1)
    expect(await session(config, tablet)).toBeNull()
    expect(rows().filter((row) => row.userId === 'u-ada')).toHaveLength(1)
    expect(await revokeUserSessions(config, 'u-ada')).toBe(1)
    expect(rows().map((row) => row.userId)).toEqual(['u-alan'])
    expect(await session(config, laptop)).toBeNull()
    expect(await session(config, other)).toMatchObject({ user: { name: 'Alan Turing' } })
  })

  it('a row that keeps no record and has none in the store is still listed, and can be ended', async () => {
    const { adapter, rows } = await seededAdapter()
    const config = testConfig({
      adapter,
      session: { strategy: 'database' },
      sessionManagement: { store: new MemorySessionStore() },
    })
    const laptop = new CookieJar()
    await signIn(config, laptop, 'ada')
    // A session made before the record existed (by Auth.js, or an earlier Authchart).
    const old = { sessionToken: 'old-token', userId: 'u-ada', expires: new Date(Date.now() + 86_400_000) }
    await adapter.createSession(old)
    const listed = (await listSessions(appRequest(laptop), config)) ?? []
    expect(listed).toHaveLength(2)
    const bare = listed.find((s) => !s.current)
    expect(bare?.expiresAt).toBe(old.expires.getTime())
    expect(bare).not.toHaveProperty('method')
    expect(await revokeSession(appRequest(laptop), config, bare?.id ?? '')).toBe(true)
    expect(rows().map((row) => row.sessionToken)).not.toContain('old-token')
  })
})

describe('database session records with an Auth.js adapter (no listSessionsByUser)', () => {
  it('the adapter is never handed the record; the session store keeps it, and revoking still deletes the row', async () => {
    const { adapter, rows } = await seededAdapter()
    const { store, puts } = countingStore()
    const config = testConfig({
      adapter: authjsStyle(adapter),
      session: { strategy: 'database', updateAge: 0 },
      sessionManagement: { store },
    })
    const [laptop, phone] = [new CookieJar(), new CookieJar()]
    await signIn(config, laptop, 'ada')
    await signIn(config, phone, 'ada')
    expect(config.recorded.errors).toEqual([])
    expect(Object.keys(rows()[0] ?? {}).sort()).toEqual(['expires', 'sessionToken', 'userId'])
    expect(puts()).toBe(2)
    // Slides go to the store too (updateAge 0: every check), and the row gets the expiry only.
    expect(await session(config, laptop)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(puts()).toBe(3)
    expect(config.recorded.errors).toEqual([])

    const listed = (await listSessions(appRequest(laptop), config)) ?? []
    expect(listed).toHaveLength(2)
    expect(listed[0]).toMatchObject({ current: true, method: 'credentials' })
    expect(await readSessionRecord(config, rows()[0])).toMatchObject({ method: 'credentials' })
    expect(await revokeSession(appRequest(laptop), config, listed[1]?.id)).toBe(true)
    expect(rows()).toHaveLength(1)
    expect(await session(config, phone)).toBeNull()
  })
})
