/**
 * The database session strategy through `Auth()` on the real stores: PostgreSQL and MariaDB through the Kysely
 * adapter (after `migrate`), Redis through the Redis adapter. Session rows are read straight from the store, never
 * through the adapter, and the clock is controlled (`Date` only) where expiry matters. Also: the stores' unique
 * keys meeting two racing OAuth sign-ins (against the real oidc-provider), and the store going away mid-request.
 * Each store gets a corner of its own: a PostgreSQL schema, a MariaDB database, a Redis key prefix, all removed at
 * the end.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { Kysely, MysqlDialect, PostgresDialect, type Dialect } from 'kysely'
import { createPool } from 'mysql2'
import { createPool as createPromisePool } from 'mysql2/promise'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { RedisAdapter, redisKeys } from '../../adapters/redis.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { Adapter, AdapterUser } from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import Credentials from '../../src/providers/credentials.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import {
  dialectDyingBefore,
  killMysqlConnection,
  killPostgresConnection,
  type KillConnection,
} from '../adapters/connection-killer.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { sqlStoreReaders, type RawQuery } from '../adapters/sql-store-readers.js'
import { CookieJar, csrfToken, origin, send, session, signIn, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { probeRedisServerBinary, startRedisServer } from '../support/redis-server.js'
import {
  createScratchMysqlDatabase,
  createScratchPostgresSchema,
  describeWithService,
  probeMysql,
  probePostgres,
  probeRedis,
  redisUrl,
  scratchName,
  type ServiceProbe,
} from '../support/services.js'
import { scalarText } from '../../src/security/scalar-text.js'

const day = 24 * 3600
const cookieName = 'authjs.session-token'
const password = 'correct horse battery staple'

/** A session row as the store holds it. */
interface StoredSession {
  userId: string
  expires: Date
}

/** Reads of one store that bypass the adapter, so a test sees what was really written. */
interface StoreReaders {
  session(sessionToken: string): Promise<StoredSession | null>
  /** Tokens of every session row the user owns. */
  sessionsOf(userId: string): Promise<string[]>
  /** Ids of the users stored with this e-mail address. */
  usersWithEmail(email: string): Promise<string[]>
  user(id: string): Promise<object | null>
  /** The owner of the provider account, or null when no such account is stored. */
  accountOwner(provider: string, providerAccountId: string): Promise<string | null>
  /** Deletes the user's own record, as an admin tool working on the store directly would. */
  deleteUserRecord(id: string): Promise<void>
}

/** The adapter method before whose store work the store goes away. */
type FailurePoint = 'createSession' | 'updateSession'

/** An adapter on a store that can be made to go away in the middle of a request. */
interface FailingStore {
  adapter: Required<Adapter>
  /** The store goes away right before the adapter's next `method` reaches it. */
  failBefore(method: FailurePoint): void
  /** Raw reads of that store, when its data outlives the failure (SQL: the server is fine, one connection died). */
  survivingReaders?: StoreReaders
  /** Brings the store back after a failure, when it does not come back by itself. */
  recover(): Promise<void>
  dispose(): Promise<void>
}

interface OpenedStore {
  adapter: Required<Adapter>
  readers: StoreReaders
  openFailing(): Promise<FailingStore>
  close(): Promise<void>
}

interface StoreBackend {
  name: string
  probe: ServiceProbe
  open(): Promise<OpenedStore>
}

// ---------------------------------------------------------------------------------------------------------------
// The three stores

/** Raw SQL readers; the five-table readers come from the adapter suites, the rest are written here the same way. */
function sqlReaders(dialect: 'postgres' | 'mysql', query: RawQuery): StoreReaders {
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  const p = dialect === 'postgres' ? '$1' : '?'
  const tables = sqlStoreReaders(dialect, query)
  const column = async (text: string, value: string, name: string) =>
    (await query(text, [value])).map((row) => String((row as Record<string, unknown>)[name]))
  return {
    async session(sessionToken) {
      const row = (await tables.session(sessionToken)) as { userId: string; expires: Date } | null
      return row && { userId: String(row.userId), expires: row.expires }
    },
    sessionsOf: (userId) =>
      column(`select ${q('sessionToken')} from ${q('Session')} where ${q('userId')} = ${p}`, userId, 'sessionToken'),
    usersWithEmail: (email) => column(`select ${q('id')} from ${q('User')} where ${q('email')} = ${p}`, email, 'id'),
    user: (id) => tables.user(id),
    async accountOwner(provider, providerAccountId) {
      const row = (await tables.account(provider, providerAccountId)) as { userId: string } | null
      return row && String(row.userId)
    },
    // The documented schema's foreign keys remove the user's sessions with it (ON DELETE CASCADE).
    async deleteUserRecord(id) {
      await query(`delete from ${q('User')} where ${q('id')} = ${p}`, [id])
    },
  }
}

/** The statement each failure point's store work starts with, in both SQL dialects. */
const failingStatement: Record<FailurePoint, RegExp> = {
  createSession: /^insert into ["`]Session["`]/,
  updateSession: /^update ["`]Session["`]/,
}

/** pg reports a connection lost while checked out as an 'error' event, which ends the process when unheard. */
function hearConnectionErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {
    /* an idle client died; the pool replaces it */
  })
  pool.on('connect', (client) =>
    client.on('error', () => {
      /* the adapter fails the call with an AdapterError */
    }),
  )
  return pool
}

/** An opened SQL store, and its failing twin: the same database through a dialect whose connection dies on cue. */
function sqlStore(parts: {
  db: Kysely<unknown>
  readers: StoreReaders
  failingDialect: () => Dialect
  kill: KillConnection
  closeRaw: () => Promise<void>
  scratch: { drop(): Promise<void> }
}): OpenedStore {
  return {
    adapter: KyselyAdapter(parts.db),
    readers: parts.readers,
    async openFailing() {
      const dying = dialectDyingBefore(parts.failingDialect(), parts.kill)
      const failing = new Kysely<unknown>({ dialect: dying.dialect })
      return {
        adapter: KyselyAdapter(failing),
        failBefore: (method) => dying.arm(failingStatement[method]),
        survivingReaders: parts.readers,
        // The pool drops the dead connection and opens a new one on the next call.
        recover: async () => {},
        dispose: () => failing.destroy(),
      }
    },
    async close() {
      await parts.closeRaw()
      await parts.db.destroy()
      await parts.scratch.drop()
    },
  }
}

const postgres: StoreBackend = {
  name: 'postgres',
  probe: probePostgres,
  async open() {
    const scratch = await createScratchPostgresSchema()
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: hearConnectionErrors(new pg.Pool({ connectionString: scratch.url, max: 5 })),
      }),
    })
    await migrate(db)
    const raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
    const readers = sqlReaders(
      'postgres',
      async (text, values) => (await raw.query<Record<string, unknown>>(text, values)).rows,
    )
    return sqlStore({
      db,
      readers,
      closeRaw: () => raw.end(),
      scratch,
      // One connection, so the armed statement runs on the connection that is killed.
      failingDialect: () =>
        new PostgresDialect({ pool: hearConnectionErrors(new pg.Pool({ connectionString: scratch.url, max: 1 })) }),
      kill: killPostgresConnection(raw),
    })
  },
}

const mariadb: StoreBackend = {
  name: 'mariadb',
  probe: probeMysql,
  async open() {
    const scratch = await createScratchMysqlDatabase()
    // timezone 'Z': mysql2 writes and reads TIMESTAMP values as UTC, so expiries round-trip exactly.
    const db = new Kysely<unknown>({
      dialect: new MysqlDialect({ pool: createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 5 }) }),
    })
    await migrate(db)
    const raw = createPromisePool({ uri: scratch.url, timezone: 'Z', connectionLimit: 2 })
    const readers = sqlReaders('mysql', async (text, values) => {
      const [rows] = await raw.query(text, values)
      return Array.isArray(rows) ? rows : []
    })
    return sqlStore({
      db,
      readers,
      closeRaw: () => raw.end(),
      scratch,
      failingDialect: () =>
        new MysqlDialect({ pool: createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 1 }) }),
      kill: killMysqlConnection(raw),
    })
  },
}

/** Redis readers: JSON under the adapter's documented keys, found with SCAN (the prefix holds only this run's keys). */
function redisReaders(client: Redis, prefix: string): StoreReaders {
  const keys = redisKeys(prefix)
  const records = async (pattern: string) => {
    const found: Record<string, unknown>[] = []
    let cursor = '0'
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
      for (const json of batch.length > 0 ? await client.mget(...batch) : []) {
        if (json !== null) found.push(JSON.parse(json) as Record<string, unknown>)
      }
      cursor = next
    } while (cursor !== '0')
    return found
  }
  const json = async (key: string) => {
    const value = await client.get(key)
    return value === null ? null : (JSON.parse(value) as Record<string, unknown>)
  }
  return {
    async session(sessionToken) {
      const record = await json(keys.session(sessionToken))
      return record && { userId: String(record.userId), expires: new Date(String(record.expires)) }
    },
    sessionsOf: async (userId) =>
      (await records(`${prefix}session:*`)).filter((s) => s.userId === userId).map((s) => String(s.sessionToken)),
    usersWithEmail: async (email) =>
      (await records(`${prefix}user:*`)).filter((u) => u.email === email).map((u) => String(u.id)),
    user: (id) => json(keys.user(id)),
    async accountOwner(provider, providerAccountId) {
      const record = await json(keys.account(provider, providerAccountId))
      return record && String(record.userId)
    },
    // Only the user's own key: its sessions stay behind in Redis, orphaned.
    async deleteUserRecord(id) {
      await client.del(keys.user(id))
    },
  }
}

const redis: StoreBackend = {
  name: 'redis',
  probe: async () => {
    await probeRedis()
    // The mid-request failure runs on a private redis-server, which it kills; the shared one is never stopped.
    await probeRedisServerBinary()
  },
  async open() {
    const prefix = `${scratchName()}:`
    const client = new Redis(redisUrl())
    return {
      adapter: RedisAdapter(client, { prefix }),
      readers: redisReaders(client, prefix),
      async openFailing() {
        const server = await startRedisServer()
        // A bounded retry budget, as docs/adapters.md advises: without one, ioredis queues the command until Redis
        // returns and the request hangs instead of failing.
        const failing = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 })
        failing.on('error', () => {
          /* reported through the failing commands */
        })
        const adapter = RedisAdapter(failing)
        let armed: FailurePoint | undefined
        let crashed = false
        const crashIfArmed = async (method: FailurePoint) => {
          if (armed !== method) return
          armed = undefined
          crashed = true
          await server.stop('SIGKILL')
        }
        return {
          // The adapter's own methods; only the moment of the crash is chosen here.
          adapter: {
            ...adapter,
            createSession: async (s) => {
              await crashIfArmed('createSession')
              return adapter.createSession(s)
            },
            updateSession: async (s) => {
              await crashIfArmed('updateSession')
              return adapter.updateSession(s)
            },
          },
          failBefore: (method) => {
            armed = method
          },
          // A restarted server is empty (no persistence), like a crashed cache.
          async recover() {
            if (!crashed) return
            crashed = false
            await server.restart()
            if (failing.status !== 'ready') await new Promise<void>((resolve) => failing.once('ready', () => resolve()))
          },
          async dispose() {
            failing.disconnect()
            await server.stop()
          },
        }
      },
      async close() {
        await deleteKeysWithPrefix(client, prefix)
        client.disconnect()
      },
    }
  },
}

// ---------------------------------------------------------------------------------------------------------------
// The app under test

/** E-mail address → user id of the users the credentials provider accepts (with `password`). */
const directory = new Map<string, string>()

/** A credentials provider over `directory`: the user it returns is the adapter's, id and e-mail. */
const directoryCredentials = Credentials({
  credentials: { username: { label: 'E-mail' }, password: { label: 'Password', type: 'password' } },
  authorize: async ({ username, password: given }) => {
    const email = scalarText(username)
    const id = directory.get(email)
    return id && given === password ? { id, email } : null
  },
})

/** A user in the store that the credentials provider accepts. */
async function knownUser(adapter: Required<Adapter>): Promise<AdapterUser> {
  const email = `${randomUUID()}@example.com`
  const user = await adapter.createUser({
    id: randomUUID(),
    email,
    emailVerified: null,
    name: 'Grace Hopper',
    image: 'https://example.com/grace.png',
  })
  directory.set(email, user.id)
  return user
}

function sessionConfig(
  adapter: Adapter,
  options: { maxAge?: number; updateAge?: number } = {},
  overrides: Partial<AuthConfig> = {},
) {
  return testConfig({
    adapter,
    providers: [directoryCredentials],
    session: { strategy: 'database', ...options },
    ...overrides,
  })
}

const sessionCookieSet = (response: Response) =>
  response.headers.getSetCookie().filter((c) => c.startsWith(`${cookieName}=`))

/** Starts the clock at a whole second near the real time (Redis expires keys by its own, real clock). */
function controlledClock() {
  const start = Math.floor(Date.now() / 1000) * 1000
  vi.useFakeTimers({ now: start, toFake: ['Date'] })
  return { start, at: (seconds: number) => vi.setSystemTime(start + seconds * 1000) }
}

/** Resolves once `count` callers are waiting in it, so that they go on together. Fails after 10 s. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0
  let release: () => void = () => {}
  const all = new Promise<void>((resolve) => {
    release = resolve
  })
  return async () => {
    if (++arrived === count) release()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`barrier: ${arrived} of ${count} arrived`)), 10_000)
    })
    try {
      await Promise.race([all, timeout])
    } finally {
      clearTimeout(timer)
    }
  }
}

function loggedAdapterErrors(config: ReturnType<typeof testConfig>) {
  return config.recorded.errors.filter((e): e is AdapterError => e instanceof AdapterError).map((e) => e.cause)
}

// ---------------------------------------------------------------------------------------------------------------
// The suite, once per store

function databaseSessionSuite(backend: StoreBackend): void {
  let store: OpenedStore

  beforeAll(async () => {
    store = await backend.open()
  })
  afterAll(async () => {
    await store?.close()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  describe('POST /auth/callback/credentials', () => {
    it('creates a session row for the user, expiring maxAge from now, and sends its token as the cookie', async () => {
      const clock = controlledClock()
      const user = await knownUser(store.adapter)
      const jar = new CookieJar()
      const response = await signIn(sessionConfig(store.adapter, { maxAge: 7 * day }), jar, user.email, password)
      expect(response.status).toBe(302)
      const token = jar.cookies.get(cookieName) as string
      expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(await store.readers.session(token)).toEqual({
        userId: user.id,
        expires: new Date(clock.start + 7 * day * 1000),
      })
      expect(await store.readers.sessionsOf(user.id)).toEqual([token])
    })

    it('creates no session row for a wrong password', async () => {
      const user = await knownUser(store.adapter)
      const jar = new CookieJar()
      const response = await signIn(sessionConfig(store.adapter), jar, user.email, 'wrong')
      expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('CredentialsSignin')
      expect(jar.cookies.has(cookieName)).toBe(false)
      expect(await store.readers.sessionsOf(user.id)).toEqual([])
    })
  })

  describe('GET /auth/session', () => {
    it('returns the user of a live session', async () => {
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter)
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const body = (await session(config, jar)) as { user: object; expires: string }
      expect(body.user).toEqual({ name: 'Grace Hopper', email: user.email, image: 'https://example.com/grace.png' })
      const stored = await store.readers.session(jar.cookies.get(cookieName) as string)
      expect(body.expires).toBe(stored?.expires.toISOString())
    })

    it('extends the stored expiry by maxAge at most once per updateAge', async () => {
      const clock = controlledClock()
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter, { maxAge: 30 * day, updateAge: day })
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const token = jar.cookies.get(cookieName) as string
      const expiresAt = async () => (await store.readers.session(token))?.expires.getTime()
      const issued = clock.start + 30 * day * 1000
      expect(await expiresAt()).toBe(issued)

      clock.at(day / 2)
      const early = await send(config, '/auth/session', { jar })
      expect(sessionCookieSet(early)).toEqual([])
      expect(await expiresAt()).toBe(issued)

      clock.at(day + 1)
      const due = await send(config, '/auth/session', { jar })
      expect(sessionCookieSet(due)).toHaveLength(1)
      const extended = clock.start + (day + 1 + 30 * day) * 1000
      expect(await expiresAt()).toBe(extended)

      // Extended a second ago: the next update is due a day from now, not on this access.
      clock.at(day + 2)
      const again = await send(config, '/auth/session', { jar })
      expect(sessionCookieSet(again)).toEqual([])
      expect(await expiresAt()).toBe(extended)
    })

    it('keeps the millisecond of the expiry in the row and in the session answer, also when it slides', async () => {
      const clock = controlledClock()
      vi.setSystemTime(clock.start + 123)
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter, { maxAge: 30 * day, updateAge: 0 })
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const token = jar.cookies.get(cookieName) as string
      const stored = async () => (await store.readers.session(token))?.expires.toISOString()
      const issued = new Date(clock.start + 123 + 30 * day * 1000).toISOString()
      expect(issued).toMatch(/\.123Z$/)
      expect(await stored()).toBe(issued)

      vi.setSystemTime(clock.start + 60_000 + 987)
      const body = (await session(config, jar)) as { expires: string }
      const slid = new Date(clock.start + 60_987 + 30 * day * 1000).toISOString()
      expect(await stored()).toBe(slid)
      // As Auth.js answers: the expiry as this request read it, before the slide; the next check reads the slid one.
      expect(body.expires).toBe(issued)
      expect(((await session(config, jar)) as { expires: string }).expires).toBe(slid)
    })

    it('deletes an expired session row on access, answers null and clears the cookie', async () => {
      const clock = controlledClock()
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter, { maxAge: 60 })
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const token = jar.cookies.get(cookieName) as string
      expect(await store.readers.session(token)).not.toBeNull()
      clock.at(5 * 60)
      expect(await session(config, jar)).toBeNull()
      expect(await store.readers.session(token)).toBeNull()
      expect(jar.cookies.has(cookieName)).toBe(false)
    })

    it('answers null for a session cookie that names no session, clears it, and writes nothing', async () => {
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter)
      const jar = new CookieJar()
      jar.cookies.set(cookieName, randomUUID())
      expect(await session(config, jar)).toBeNull()
      expect(jar.cookies.has(cookieName)).toBe(false)
      jar.cookies.set(cookieName, 'not-even-a-uuid')
      expect(await session(config, jar)).toBeNull()
      expect(await store.readers.sessionsOf(user.id)).toEqual([])
    })

    it('answers null when the user behind a live session was deleted from the store', async () => {
      const user = await knownUser(store.adapter)
      const config = sessionConfig(store.adapter)
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      expect(await session(config, jar)).toMatchObject({ user: { email: user.email } })
      await store.readers.deleteUserRecord(user.id)
      expect(await session(config, jar)).toBeNull()
      expect(jar.cookies.has(cookieName)).toBe(false)
    })
  })

  describe('POST /auth/signout', () => {
    it('deletes the session row, clears the cookie and sends the signOut event with the row', async () => {
      const user = await knownUser(store.adapter)
      const ended: unknown[] = []
      const config = sessionConfig(
        store.adapter,
        {},
        {
          events: {
            signOut: (message) => {
              ended.push(message)
            },
          },
        },
      )
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const token = jar.cookies.get(cookieName) as string
      const response = await send(config, '/auth/signout', { jar, form: { csrfToken: await csrfToken(config, jar) } })
      expect(response.status).toBe(302)
      expect(await store.readers.session(token)).toBeNull()
      expect(jar.cookies.has(cookieName)).toBe(false)
      expect(ended).toEqual([{ session: expect.objectContaining({ sessionToken: token, userId: user.id }) }])
      expect(await session(config, jar)).toBeNull()
    })
  })

  oauthUniqueKeySuite(() => store)
  storeFailureSuite(() => store)
}

/**
 * Two first sign-ins of one new provider account racing (a double click, two tabs): both callbacks look the account
 * up before either creates anything, as on two app instances. A barrier in front of the adapter method holds each
 * call until both got there; then the store's unique keys decide, for real, and the loser resolves its user once more
 * and signs in as the winner's (issue #38, point 4; the crowd of 30 is test/e2e/oauth-first-sign-in-race-postgres.test.ts).
 */
function oauthUniqueKeySuite(current: () => OpenedStore): void {
  describe('unique keys meeting two racing first OAuth sign-ins (real oidc-provider)', () => {
    let op: RunningOidcProvider

    beforeAll(async () => {
      op = await startOidcProvider({
        clients: [{ client_id: 'app', client_secret: 's3cret', redirect_uris: [`${origin}/auth/callback/idp`] }],
        accounts: {
          carol: { name: 'Carol', email: 'carol@example.test', email_verified: true },
          // Providers need not share an e-mail address.
          'no-mail-1': { name: 'No Mail One' },
          'no-mail-2': { name: 'No Mail Two' },
          'no-mail-3': { name: 'No Mail Three' },
        },
      })
    })
    afterAll(async () => {
      await op?.close()
    })

    const oauthConfig = (adapter: Adapter) =>
      testConfig({
        adapter,
        session: { strategy: 'database' },
        providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 's3cret' })],
      })

    /** Runs the sign-in up to the provider's redirect back, so the callbacks themselves can be sent together. */
    async function reachCallback(config: AuthConfig, jar: CookieJar, account: string): Promise<string> {
      const start = await send(config, '/auth/signin/idp', {
        jar,
        form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/home' },
      })
      const result = await op.signInAs(start.headers.get('location') as string, account)
      if (result.mode !== 'query') throw new Error('expected a query response')
      return `${result.callbackUrl.pathname}${result.callbackUrl.search}`
    }

    /** Both callbacks at once; where each browser landed and the session cookie it got. */
    async function race(config: AuthConfig, account: string) {
      const jars = [new CookieJar(), new CookieJar()] as const
      const callbacks = [await reachCallback(config, jars[0], account), await reachCallback(config, jars[1], account)]
      const responses = await Promise.all(jars.map((jar, i) => send(config, callbacks[i], { jar })))
      return responses.map((response, i) => ({
        location: response.headers.get('location'),
        token: jars[i]?.cookies.get(cookieName),
      }))
    }

    it('the unique e-mail lets one createUser through; the other sign-in finds that user and signs in as it', async () => {
      const { adapter, readers } = current()
      const together = barrier(2)
      const config = oauthConfig({
        ...adapter,
        createUser: async (user) => {
          await together()
          return adapter.createUser(user)
        },
      })
      const outcome = await race(config, 'carol')

      // The loser's createUser met the unique address; it resolved the user again and found the winner's account.
      expect(outcome.map((o) => o.location)).toEqual([`${origin}/home`, `${origin}/home`])
      const users = await readers.usersWithEmail('carol@example.test')
      expect(users).toHaveLength(1)
      expect(await readers.accountOwner('idp', 'carol')).toBe(users[0])
      expect((await readers.sessionsOf(users[0])).sort()).toEqual(outcome.map((o) => o.token).sort())
      expect(loggedAdapterErrors(config)).toEqual([
        expect.objectContaining({ method: 'createUser', kind: 'duplicate' }),
      ])
    })

    it('the unique provider account lets one linkAccount through; the other removes the user it had just created and signs in as the owner', async () => {
      const { adapter, readers } = current()
      // Without an e-mail address nothing stops the second createUser: the Account key is the one that decides.
      const together = barrier(2)
      const created: string[] = []
      const config = oauthConfig({
        ...adapter,
        createUser: async (user) => {
          const stored = await adapter.createUser(user)
          created.push(stored.id)
          return stored
        },
        linkAccount: async (account) => {
          await together()
          await adapter.linkAccount(account)
        },
      })
      const outcome = await race(config, 'no-mail-3')

      expect(outcome.map((o) => o.location)).toEqual([`${origin}/home`, `${origin}/home`])
      expect(created).toHaveLength(2)
      const owner = await readers.accountOwner('idp', 'no-mail-3')
      expect(created).toContain(owner)
      const orphan = created.find((id) => id !== owner) as string
      expect(await readers.user(orphan)).toBeNull()
      expect(await readers.sessionsOf(orphan)).toEqual([])
      expect((await readers.sessionsOf(owner as string)).sort()).toEqual(outcome.map((o) => o.token).sort())
      expect(loggedAdapterErrors(config)).toEqual([
        expect.objectContaining({ method: 'linkAccount', kind: 'duplicate' }),
      ])
    })

    it('two users without an e-mail address are both created: no empty address collides on the unique index', async () => {
      const { adapter, readers } = current()
      const config = oauthConfig(adapter)
      for (const account of ['no-mail-1', 'no-mail-2']) {
        const jar = new CookieJar()
        const response = await send(config, await reachCallback(config, jar, account), { jar })
        expect(response.headers.get('location')).toBe(`${origin}/home`)
        expect(await session(config, jar)).toMatchObject({
          user: { name: account === 'no-mail-1' ? 'No Mail One' : 'No Mail Two' },
        })
      }
      const owners = [await readers.accountOwner('idp', 'no-mail-1'), await readers.accountOwner('idp', 'no-mail-2')]
      expect(new Set(owners).size).toBe(2)
      expect(await readers.usersWithEmail('')).toEqual([])
      expect(config.recorded.errors).toEqual([])
    })
  })
}

/** The store going away in the middle of a request: the client gets a 503 and no session, the log the cause. */
function storeFailureSuite(current: () => OpenedStore): void {
  describe('the store going away mid-request', () => {
    let failing: FailingStore

    beforeAll(async () => {
      failing = await current().openFailing()
    })
    beforeEach(async () => {
      await failing.recover()
    })
    afterAll(async () => {
      await failing?.dispose()
    })

    it('GET /auth/session answers 503 JSON with no stack and no session when the store dies before the sliding update', async () => {
      const user = await knownUser(failing.adapter)
      const config = sessionConfig(failing.adapter, { updateAge: 0 })
      const jar = new CookieJar()
      await signIn(config, jar, user.email, password)
      const token = jar.cookies.get(cookieName) as string
      const before = await failing.survivingReaders?.session(token)

      failing.failBefore('updateSession')
      const response = await send(config, '/auth/session', { jar })
      expect(response.status).toBe(503)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(response.headers.get('retry-after')).toBe('5')
      expect(response.headers.getSetCookie()).toEqual([])
      const text = await response.text()
      // Exactly this body: no stack, no driver message, no session.
      expect(JSON.parse(text)).toEqual({
        error: 'ServiceUnavailable',
        message: 'Sign-in is temporarily unavailable. Try again shortly.',
      })
      expect(loggedAdapterErrors(config)).toEqual([
        expect.objectContaining({ method: 'updateSession', kind: 'unreachable', err: expect.any(Error) }),
      ])

      if (failing.survivingReaders) {
        // The server itself is fine and the row is as it was. The pool may hand out the dead connection once more
        // before it notices (the driver's behaviour, not ours: that request answers 503 too), so recovery is
        // asserted within three requests rather than on the very next one.
        expect(await failing.survivingReaders.session(token)).toEqual(before)
        let recovered: unknown = null
        for (let attempt = 0; attempt < 3 && recovered === null; attempt++) {
          const again = await send(config, '/auth/session', { jar })
          if (again.status === 200) recovered = await again.json()
          else expect(again.status).toBe(503)
        }
        expect(recovered).toMatchObject({ user: { email: user.email } })
      }
    })

    it('POST /auth/callback/credentials answers 503 and sets no session when the store dies before the row is written', async () => {
      const user = await knownUser(failing.adapter)
      const config = sessionConfig(failing.adapter)
      const jar = new CookieJar()
      failing.failBefore('createSession')
      const response = await signIn(config, jar, user.email, password)
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(jar.cookies.has(cookieName)).toBe(false)
      expect(await response.text()).not.toMatch(/\bat \S+:\d+|terminat|connection|max retries/i)
      expect(loggedAdapterErrors(config)).toEqual([
        expect.objectContaining({ method: 'createSession', kind: 'unreachable' }),
      ])
      if (failing.survivingReaders) expect(await failing.survivingReaders.sessionsOf(user.id)).toEqual([])
    })
  })
}

for (const backend of [postgres, mariadb, redis]) {
  await describeWithService(backend.name, backend.probe, () => {
    describe(`database sessions through Auth() on ${backend.name}`, () => {
      databaseSessionSuite(backend)
    })
  })
}
