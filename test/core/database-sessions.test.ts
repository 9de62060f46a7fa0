/**
 * The database session strategy through `Auth()`, on the memory adapter with a controlled clock: sliding expiry at
 * most once per updateAge, clean-up of expired rows, sign-out, credentials sign-in with database sessions, and
 * what happens when the adapter fails.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import type { Adapter } from '../../src/types/adapters.js'
import { CookieJar, csrfToken, send, session, signIn, testConfig, users } from '../support/auth-harness.js'

afterEach(() => {
  vi.useRealTimers()
})

const day = 24 * 3600

async function withKnownUsers(adapter: Required<Adapter>) {
  for (const { user } of Object.values(users)) await adapter.createUser({ ...user, emailVerified: null })
}

function dbConfig(adapter: Adapter, sessionOptions: Record<string, unknown> = {}) {
  return testConfig({ adapter, session: { strategy: 'database', ...sessionOptions } })
}

describe('database sessions', () => {
  it('signs a credentials user in with a database session (the adapter knows the user)', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    const response = await signIn(config, jar)
    expect(response.status).toBe(302)
    const token = jar.cookies.get('authjs.session-token') as string
    expect(token).toMatch(/^[0-9a-f-]{36}$/)
    expect(store.sessions.get(token)?.userId).toBe('u-ada')
    expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada Lovelace', email: 'ada@example.com' } })
  })

  it('finds the credentials user by e-mail when the id is not the adapter id', async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: 'db-1', name: 'Ada (db)', email: 'ada@example.com', emailVerified: null })
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada (db)' } })
  })

  it('refuses a credentials user the adapter does not know with CredentialsSignin and creates no session', async () => {
    const store = createMemoryStore()
    const config = dbConfig(MemoryAdapter(store))
    const jar = new CookieJar()
    const location = new URL((await signIn(config, jar)).headers.get('location') as string)
    expect(location.searchParams.get('error')).toBe('CredentialsSignin')
    expect(store.sessions.size).toBe(0)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    // The log says why and what to do (seed the user), once, as a coded warn line.
    expect(config.recorded.warnings).toEqual(['credentials-user-unknown'])
  })

  it("the built-in logger's line for the unknown user says to create it through the adapter", async () => {
    const lines: string[] = []
    const spy = vi.spyOn(console, 'warn').mockImplementation((line: string) => void lines.push(line))
    try {
      const config = dbConfig(MemoryAdapter())
      delete config.logger
      await signIn(config, new CookieJar())
    } finally {
      spy.mockRestore()
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^\[authchart\]\[warn\]\[credentials-user-unknown\] .*adapter\.createUser.*provider=credentials$/,
    )
  })

  it('extends the expiry by maxAge at most once per updateAge', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter, { maxAge: 30 * day, updateAge: day })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = jar.cookies.get('authjs.session-token') as string
    const issued = store.sessions.get(token)?.expires.getTime() as number
    vi.setSystemTime(new Date('2026-01-01T12:00:00Z'))
    const early = await send(config, '/auth/session', { jar })
    expect(early.headers.getSetCookie()).toEqual([])
    expect(store.sessions.get(token)?.expires.getTime()).toBe(issued)
    vi.setSystemTime(new Date('2026-01-02T00:00:01Z'))
    const due = await send(config, '/auth/session', { jar })
    expect(due.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(true)
    expect(store.sessions.get(token)?.expires.getTime()).toBe(issued + (day + 1) * 1000)
  })

  it('extends on every access with updateAge 0', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter, { updateAge: 0 })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = jar.cookies.get('authjs.session-token') as string
    for (const second of [1, 2, 3]) {
      vi.setSystemTime(new Date(Date.UTC(2026, 0, 1, 0, 0, second)))
      await send(config, '/auth/session', { jar })
      expect(store.sessions.get(token)?.expires.getTime()).toBe(Date.UTC(2026, 0, 1, 0, 0, second) + 30 * day * 1000)
    }
  })

  it('keeps the millisecond of the expiry: the row is written to it, and the session answer shows what the row held when read', async () => {
    const signedInAt = Date.parse('2026-01-01T00:00:00.123Z')
    vi.useFakeTimers({ now: signedInAt, toFake: ['Date'] })
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter, { updateAge: 0 })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = jar.cookies.get('authjs.session-token') as string
    // As Auth.js writes it: maxAge from the request's clock, to the millisecond.
    expect(store.sessions.get(token)?.expires.toISOString()).toBe('2026-01-31T00:00:00.123Z')
    const slidAt = Date.parse('2026-01-01T00:00:05.987Z')
    vi.setSystemTime(slidAt)
    const body = (await session(config, jar)) as { expires: string }
    expect(store.sessions.get(token)?.expires.toISOString()).toBe('2026-01-31T00:00:05.987Z')
    // As Auth.js answers: the expiry the check read, before it slid the row (the cookie carries the new one).
    expect(body.expires).toBe('2026-01-31T00:00:00.123Z')
  })

  it("asks the session callback with Auth.js's database arguments: the row as read with its user, and the user", async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const owner = await adapter.getUser('u-ada')
    // Written a day ago with a 2-day maxAge; the default updateAge slides it on this check.
    const readExpiry = new Date(Date.now() + day * 1000)
    await adapter.createSession({ sessionToken: 'row-token', userId: 'u-ada', expires: readExpiry })
    const calls: unknown[] = []
    const config = testConfig({
      adapter,
      session: { strategy: 'database', maxAge: 2 * day },
      callbacks: {
        session: (params) => {
          calls.push(params)
          return { ...params.session, user: { ...params.session.user, id: params.user.id } }
        },
      },
    })
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', 'row-token')
    const body = await session(config, jar)
    expect(store.sessions.get('row-token')?.expires.getTime()).toBeGreaterThan(readExpiry.getTime())
    expect(calls).toHaveLength(1)
    expect(calls[0]).toEqual({
      session: { sessionToken: 'row-token', userId: 'u-ada', expires: readExpiry, user: owner },
      user: owner,
      newSession: undefined,
    })
    // The app spread the row into its answer: everything but the session token reaches the client, which the
    // HttpOnly cookie keeps from scripts.
    expect(body).toEqual({
      userId: 'u-ada',
      expires: readExpiry.toISOString(),
      user: { ...owner, emailVerified: null, id: 'u-ada' },
    })
    expect(JSON.stringify(body)).not.toContain('row-token')
  })

  it('answers name, e-mail and image only without a session callback, on an update too', async () => {
    const adapter = MemoryAdapter()
    await withKnownUsers(adapter)
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    await signIn(config, jar)
    const read = await session(config, jar)
    const updated = await (
      await send(config, '/auth/session', { jar, json: { csrfToken: await csrfToken(config, jar), data: { x: 1 } } })
    ).json()
    for (const body of [read, updated]) {
      expect(Object.keys(body as object).sort()).toEqual(['expires', 'user'])
      // The test user has no image, so the JSON leaves it out; no id, no emailVerified.
      expect(Object.keys((body as { user: object }).user).sort()).toEqual(['email', 'name'])
    }
  })

  it('shows the expiry an app or another library wrote into the row, milliseconds included', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    // Written a minute ago with the default maxAge, so the default updateAge leaves it as it is.
    const expires = new Date(Date.now() - 60_000 + 30 * day * 1000)
    expires.setUTCMilliseconds(789)
    await adapter.createSession({ sessionToken: 'written-by-the-app', userId: 'u-ada', expires })
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', 'written-by-the-app')
    const body = (await session(dbConfig(adapter), jar)) as { expires: string }
    expect(body.expires).toBe(expires.toISOString())
    expect(body.expires).toMatch(/\.789Z$/)
  })

  it('deletes an expired session on access and answers null', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter, { maxAge: 60 })
    const jar = new CookieJar()
    await signIn(config, jar)
    vi.setSystemTime(new Date('2026-01-01T00:05:00Z'))
    expect(await session(config, jar)).toBeNull()
    expect(store.sessions.size).toBe(0)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('answers null for a cookie that names no session, and clears it', async () => {
    const config = dbConfig(MemoryAdapter())
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', 'no-such-session')
    expect(await session(config, jar)).toBeNull()
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('answers null when the user behind a live session was deleted', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const config = dbConfig(adapter)
    const jar = new CookieJar()
    await signIn(config, jar)
    await adapter.deleteUser('u-ada')
    expect(await session(config, jar)).toBeNull()
  })

  it('deletes the session on sign-out and sends the signOut event with it', async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await withKnownUsers(adapter)
    const events: unknown[] = []
    const config = testConfig({
      adapter,
      session: { strategy: 'database' },
      events: {
        signOut: (m) => {
          events.push(m)
        },
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = jar.cookies.get('authjs.session-token') as string
    await send(config, '/auth/signout', { jar, form: { csrfToken: await csrfToken(config, jar) } })
    expect(store.sessions.has(token)).toBe(false)
    expect(events).toEqual([{ session: expect.objectContaining({ sessionToken: token, userId: 'u-ada' }) }])
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('answers 503 JSON (no stack, no session) when the database fails mid-request, and logs an AdapterError', async () => {
    const adapter = MemoryAdapter()
    await withKnownUsers(adapter)
    let down = false
    const flaky: Adapter = {
      ...adapter,
      getSessionAndUser: async (t) => {
        if (down) throw new Error('connection terminated')
        return adapter.getSessionAndUser(t)
      },
    }
    const config = dbConfig(flaky)
    const jar = new CookieJar()
    await signIn(config, jar)
    down = true
    const response = await send(config, '/auth/session', { jar })
    expect(response.status).toBe(503)
    const text = await response.text()
    expect(text).not.toMatch(/connection terminated|at .*\.ts/)
    expect(config.recorded.errors.some((e) => (e as { type?: string }).type === 'AdapterError')).toBe(true)
  })

  it('refuses a database strategy whose adapter lacks session methods, naming them', async () => {
    const { createSession: _c, ...partial } = MemoryAdapter()
    const config = dbConfig(partial)
    expect((await send(config, '/auth/session')).status).toBe(500)
    const error = config.recorded.errors.find((e) => (e as { type?: string }).type === 'MissingAdapterMethods')
    expect(error?.message).toContain('createSession')
  })
})
