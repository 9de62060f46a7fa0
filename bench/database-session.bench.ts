/**
 * The session check with the database strategy (GET /session with a valid session cookie), Authchart against
 * @auth/core in one process. Both are handed the same adapter instance — our KyselyAdapter on PostgreSQL, then our
 * RedisAdapter on Redis; the adapter interface is Auth.js's, so @auth/core takes them as they are — and the same
 * config: `session: { strategy: 'database' }`, no providers (the user and the session row are made through the
 * adapter and the cookie is sent as a browser would).
 *
 * Two cases per store, with the same `updateAge` for both libraries so that they do the same store work:
 * - `updateAge` 86400 s (the default of both): a fresh session is not due for an update, so each check is one
 *   `getSessionAndUser` read;
 * - `updateAge` 0: every check is due, so each check is that read plus an `updateSession` write.
 * A check before measuring confirms the store work really is the same (the row's expiry moves, or it does not, for
 * both libraries). The stores are shared servers on a shared machine, so each side is measured three times,
 * alternating, and keeps its fastest median.
 */
import { pathToFileURL } from 'node:url'
import { Auth as AuthJs } from '@auth/core'
import type { Adapter as AuthJsAdapter } from '@auth/core/adapters'
import { Redis } from 'ioredis'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { RedisAdapter } from '../adapters/redis.js'
import { KyselyAdapter, migrate } from '../adapters/sql/index.js'
import type { Adapter } from '../src/types/adapters.js'
import { Auth } from '../src/index.js'
import { deleteKeysWithPrefix } from '../test/adapters/redis-keys-cleanup.js'
import { createScratchPostgresSchema, redisUrl, scratchName } from '../test/support/services.js'
import { measure, printComparison, type Measured } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const cookieName = 'authjs.session-token'
const maxAge = 30 * 24 * 3600

type Handler = (request: Request) => Promise<Response>

/** One store with an adapter on it, and how to take it down again. */
interface BenchStore {
  label: string
  adapter: Required<Adapter>
  close(): Promise<void>
}

async function openPostgres(): Promise<BenchStore> {
  const scratch = await createScratchPostgresSchema()
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 })
  // pg ends the process on an unheard 'error' event from a lost connection (see docs/adapters.md).
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
  try {
    await migrate(db)
  } catch (err) {
    await db.destroy()
    await scratch.drop()
    throw err
  }
  return {
    label: 'PostgreSQL',
    adapter: KyselyAdapter(db),
    async close() {
      await db.destroy()
      await scratch.drop()
    },
  }
}

async function openRedis(): Promise<BenchStore> {
  const prefix = `${scratchName('authchart_bench')}:`
  const client = new Redis(redisUrl(), { maxRetriesPerRequest: 1 })
  // The command's own error only says the retries ran out; the 'error' event before it says why.
  let lastError: Error | undefined
  client.on('error', (err: Error) => {
    lastError = err
  })
  try {
    await client.ping()
  } catch (err) {
    client.disconnect()
    throw lastError ?? err
  }
  return {
    label: 'Redis',
    adapter: RedisAdapter(client, { prefix }),
    async close() {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    },
  }
}

/** A user and a live session made through the adapter; the cookie header that names the session. */
async function seedSession(
  adapter: Required<Adapter>,
): Promise<{ cookie: string; sessionToken: string; email: string }> {
  const email = `${crypto.randomUUID()}@example.com`
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email,
    emailVerified: null,
    name: 'Bench User',
    image: null,
  })
  const sessionToken = crypto.randomUUID()
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + maxAge * 1000) })
  return { cookie: `${cookieName}=${sessionToken}`, sessionToken, email }
}

/** The two handlers, each with one config object built once (as an app would), on the same adapter. */
function handlers(adapter: Adapter, updateAge: number): { ours: Handler; theirs: Handler } {
  const session = { strategy: 'database' as const, maxAge, updateAge }
  const ours = { providers: [], secret, trustHost: true, adapter, session }
  // The same object. The two Adapter types differ only in the account methods: our AdapterAccount's extra token
  // fields are `unknown`, @auth/core's are JSON values, and TypeScript cannot relate the two index signatures.
  const theirsAdapter = adapter as unknown as AuthJsAdapter
  const theirs = { providers: [], secret, trustHost: true, adapter: theirsAdapter, session, basePath: '/auth' }
  return { ours: (r) => Auth(r, ours), theirs: (r) => AuthJs(r, theirs) }
}

const sessionCheck = (handler: Handler, cookie: string) =>
  handler(new Request(`${origin}/auth/session`, { headers: { cookie } }))

/**
 * Fails unless both libraries answer the user, and unless both leave the row's expiry alone (updateAge > 0) or both
 * move it (updateAge 0): the numbers compare equal store work or nothing.
 */
async function checkSameWork(
  adapter: Required<Adapter>,
  run: { ours: Handler; theirs: Handler },
  seeded: Awaited<ReturnType<typeof seedSession>>,
  updateAge: number,
) {
  for (const [name, handler] of Object.entries(run)) {
    const before = (await adapter.getSessionAndUser(seeded.sessionToken))?.session.expires.getTime()
    // Past the second the row was last written in, so that a due write is visible at second resolution.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const body = (await (await sessionCheck(handler, seeded.cookie)).json()) as { user?: { email?: string } } | null
    if (body?.user?.email !== seeded.email) throw new Error(`${name}: the session check did not answer the user`)
    const after = (await adapter.getSessionAndUser(seeded.sessionToken))?.session.expires.getTime()
    const wrote = before !== after
    if (wrote !== (updateAge === 0))
      throw new Error(`${name}: expected ${updateAge === 0 ? 'a' : 'no'} session write with updateAge ${updateAge}`)
  }
}

/**
 * Waits for the next whole second. Authchart counts time in whole seconds and @auth/core in milliseconds: right after
 * @auth/core wrote an expiry at 12:00:00.700, Authchart's clock still says 12:00:00, earlier than that write, so
 * with `updateAge` 0 its first checks would find no update due (until 12:00:01) and skip the write the case is
 * meant to measure. From a whole second on, every check is due for both.
 */
function untilNextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5))
}

/**
 * Measures @auth/core then Authchart, `pairs` times over, and keeps each side's best median. The store is a shared
 * server on a shared machine: outside load only ever slows a run down, so the fastest of alternating runs is the
 * fairest figure for both.
 */
async function measureAlternately(
  label: string,
  run: { ours: Handler; theirs: Handler },
  cookie: string,
  options: { opsPerRound: number; rounds: number; pairs: number },
) {
  const faster = (a: Measured | undefined, b: Measured) => (a && a.opsPerSecond >= b.opsPerSecond ? a : b)
  let theirs: Measured | undefined
  let ours: Measured | undefined
  for (let i = 0; i < options.pairs; i++) {
    await untilNextSecond()
    theirs = faster(
      theirs,
      await measure(`@auth/core ${label}`, async () => (await sessionCheck(run.theirs, cookie)).text(), options),
    )
    await untilNextSecond()
    ours = faster(
      ours,
      await measure(`authchart ${label}`, async () => (await sessionCheck(run.ours, cookie)).text(), options),
    )
  }
  if (!theirs || !ours) throw new Error('pairs must be at least 1')
  return { theirs, ours }
}

/** Runs the database-session benchmark and returns the ratios (Authchart / @auth/core) per case. */
export async function runDatabaseSessionBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const opsPerRound = options.quick ? 200 : 500
  const rounds = options.quick ? 3 : 5
  const pairs = options.quick ? 1 : 3
  const rows: Array<{ label: string; ours: Measured; theirs: Measured }> = []
  for (const open of [openPostgres, openRedis]) {
    let store: BenchStore
    try {
      store = await open()
    } catch (err) {
      console.warn(
        `skipped ${open === openPostgres ? 'PostgreSQL' : 'Redis'}: ${err instanceof Error ? err.message : String(err)}`,
      )
      continue
    }
    try {
      for (const updateAge of [86400, 0]) {
        const seeded = await seedSession(store.adapter)
        const run = handlers(store.adapter, updateAge)
        await checkSameWork(store.adapter, run, seeded, updateAge)
        const label = `GET /session, ${store.label}, updateAge ${updateAge} (${updateAge === 0 ? 'read + write' : 'read'})`
        rows.push({ label, ...(await measureAlternately(label, run, seeded.cookie, { opsPerRound, rounds, pairs })) })
      }
    } finally {
      await store.close()
    }
  }
  return printComparison(
    `Database session check (same adapter instance for both; in-process, sequential; best of ${pairs} alternating runs, each the median of ${rounds} rounds)`,
    rows,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDatabaseSessionBench({ quick: process.argv.includes('--quick') })
}
