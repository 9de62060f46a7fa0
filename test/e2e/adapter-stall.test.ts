/**
 * A database that stalls or goes away (issue #38, points 1 and 2): real PostgreSQL behind a TCP proxy the test controls. While the proxy
 * holds every byte, a session check on database sessions answers the documented 503 within `adapterTimeout`, never
 * hangs for as long as the stall lasts; when the bytes flow again the same process answers sessions again, without a
 * restart. The driver's own timeouts (pg's connect timeout, PostgreSQL's statement_timeout) are classified as an
 * unreachable store, not as a refusal.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'
import { CookieJar, send, testConfig } from '../support/auth-harness.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  postgresUrl,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { startStallProxy, type StallProxy } from '../support/stall-proxy.js'

/** A pool whose idle or broken connections do not crash the test process. */
function quietPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config)
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  return pool
}

/** The scratch schema's URL with its host and port pointed at the proxy. */
function throughProxy(url: string, port: number): string {
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(port)
  return proxied.toString()
}

await describeWithService('postgres', probePostgres, () => {
  let scratch: ScratchPostgresSchema
  let proxy: StallProxy
  const pools: pg.Pool[] = []
  const pool = (config: pg.PoolConfig) => {
    const created = quietPool(config)
    pools.push(created)
    return created
  }
  const kysely = (config: pg.PoolConfig) =>
    new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pool(config) }) })

  /** A user with a database session made directly, then checked through the proxy: the config and a timed check. */
  const sessionThroughProxy = async (email: string, poolSize: number, adapterTimeout: number) => {
    const direct = KyselyAdapter(kysely({ connectionString: scratch.url, max: 1 }))
    const user = await direct.createUser({ id: crypto.randomUUID(), email, emailVerified: null })
    const sessionToken = crypto.randomUUID()
    await direct.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) })
    const adapter = KyselyAdapter(kysely({ connectionString: throughProxy(scratch.url, proxy.port), max: poolSize }))
    const config = testConfig({ adapter, session: { strategy: 'database' }, adapterTimeout })
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', sessionToken)
    const check = async () => {
      const started = performance.now()
      const response = await send(config, '/auth/session', { jar })
      return { status: response.status, ms: performance.now() - started, body: await response.text() }
    }
    return { config, check, jar, sessionToken }
  }

  beforeAll(async () => {
    scratch = await createScratchPostgresSchema(postgresUrl())
    await migrate(kysely({ connectionString: scratch.url, max: 1 }))
    const target = new URL(postgresUrl())
    proxy = await startStallProxy({ host: target.hostname, port: Number(target.port || 5432) })
  })
  afterAll(async () => {
    proxy?.resume()
    await Promise.all(pools.map((p) => p.end().catch(() => {})))
    await proxy?.close()
    await scratch?.drop()
  })

  it('answers 503 within adapterTimeout while the database stalls, and sessions again when it answers', async () => {
    const { config, check } = await sessionThroughProxy('stall@example.test', 10, 500)

    const before = await check()
    expect(before.status).toBe(200)
    expect(JSON.parse(before.body)).toMatchObject({ user: { email: 'stall@example.test' } })

    proxy.stall()
    const during = await Promise.all(Array.from({ length: 5 }, check))
    for (const answer of during) {
      expect(answer.status).toBe(503)
      expect(answer.ms).toBeLessThan(2500)
      expect(answer.body).not.toContain('    at ')
    }
    const timedOut = config.recorded.errors.filter(
      (error) => error instanceof AdapterError && /did not answer within 500 ms/.test(error.message),
    )
    expect(timedOut.length).toBeGreaterThanOrEqual(5)
    expect((timedOut[0]?.cause as { kind?: string }).kind).toBe('unreachable')

    proxy.resume()
    const after = await check()
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toMatchObject({ user: { email: 'stall@example.test' } })
  })

  it('answers 503 at once while the database is gone (connections reset and refused), and sessions again when it is back', async () => {
    const { config, check, jar, sessionToken } = await sessionThroughProxy('gone@example.test', 4, 3000)
    expect((await check()).status).toBe(200)

    proxy.refuse()
    try {
      const during = await Promise.all(Array.from({ length: 5 }, check))
      for (const answer of during) {
        expect(answer.status).toBe(503)
        // A refused connection fails the call at once, well before the deadline.
        expect(answer.ms).toBeLessThan(2000)
        expect(answer.body).not.toContain('    at ')
      }
      // The session cookie is kept: an outage signs nobody out.
      expect(jar.cookies.get('authjs.session-token')).toBe(sessionToken)
      const failures = config.recorded.errors.filter((error) => error instanceof AdapterError)
      expect(failures.length).toBeGreaterThanOrEqual(5)
      expect(failures.every((error) => (error.cause as { kind?: string }).kind === 'unreachable')).toBe(true)
    } finally {
      proxy.accept()
    }
    const after = await check()
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toMatchObject({ user: { email: 'gone@example.test' } })
  })

  it("classifies pg's connect timeout through a stalled network as an unreachable store", async () => {
    proxy.stall()
    try {
      const adapter = KyselyAdapter(
        kysely({ connectionString: throughProxy(scratch.url, proxy.port), max: 1, connectionTimeoutMillis: 300 }),
      )
      const error = await Promise.resolve(adapter.getUser(crypto.randomUUID())).catch((thrown: unknown) => thrown)
      expect(error).toBeInstanceOf(AdapterError)
      expect((error as AdapterError).cause).toMatchObject({ kind: 'unreachable' })
    } finally {
      proxy.resume()
    }
  })

  it("classifies PostgreSQL's statement_timeout (a row held by a lock) as an unreachable store", async () => {
    const direct = KyselyAdapter(kysely({ connectionString: scratch.url, max: 1 }))
    const user = await direct.createUser({ id: crypto.randomUUID(), email: 'locked@example.test', emailVerified: null })
    const holder = pool({ connectionString: scratch.url, max: 1 })
    const locking = await holder.connect()
    try {
      await locking.query('begin')
      await locking.query('lock table "User" in access exclusive mode')
      const timeoutUrl = new URL(scratch.url)
      timeoutUrl.searchParams.set('options', `${timeoutUrl.searchParams.get('options')} -c statement_timeout=200`)
      const adapter = KyselyAdapter(kysely({ connectionString: timeoutUrl.toString(), max: 1 }))
      const error = await Promise.resolve(adapter.getUser(user.id)).catch((thrown: unknown) => thrown)
      expect(error).toBeInstanceOf(AdapterError)
      expect((error as AdapterError).cause).toMatchObject({ kind: 'unreachable' })
    } finally {
      await locking.query('rollback')
      locking.release()
    }
  })
})
