/**
 * The services the test suites run against (Redis, PostgreSQL, MariaDB/MySQL): where they are, whether they answer,
 * and a private corner of each for one test run.
 *
 * A suite that needs a service wraps itself in `describeWithService`. When the service does not answer, the suite's
 * tests are reported as skipped and the reason is printed (`skipped postgres: connect ECONNREFUSED ...`); under
 * `CI=true` the suite fails instead, because there a missing service is a broken pipeline, not a laptop without it.
 */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import pg from 'pg'
import { createConnection } from 'mysql2/promise'
import { describe, it } from 'vitest'

/** Redis for tests: `REDIS_URL`, default the local server. */
export function redisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
}

/** PostgreSQL for tests: `DATABASE_URL_PG`, default database `test` on the local server. */
export function postgresUrl(): string {
  return process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/test'
}

/** MariaDB/MySQL for tests: `DATABASE_URL_MYSQL`, default database `test` on the local server. */
export function mysqlUrl(): string {
  return process.env.DATABASE_URL_MYSQL ?? 'mysql://root@127.0.0.1:3306/test'
}

/** Resolves when the service answers; rejects with the reason when it does not. */
export type ServiceProbe = () => Promise<void>

const probeTimeoutMs = 2000

/** Probes Redis with a PING. */
export const probeRedis: ServiceProbe = async () => {
  const client = new Redis(redisUrl(), {
    lazyConnect: true,
    connectTimeout: probeTimeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  // connect() itself only says "Connection is closed."; the 'error' event before it says why.
  let lastError: Error | undefined
  client.on('error', (err: Error) => {
    lastError = err
  })
  try {
    await client.connect()
    await client.ping()
  } catch (err) {
    throw lastError ?? err
  } finally {
    client.disconnect()
  }
}

/** Probes PostgreSQL with `select 1`. */
export const probePostgres: ServiceProbe = async () => {
  const client = new pg.Client({ connectionString: postgresUrl(), connectionTimeoutMillis: probeTimeoutMs })
  try {
    await client.connect()
    await client.query('select 1')
  } finally {
    await client.end().catch(() => {
      /* never connected */
    })
  }
}

/** Probes MariaDB/MySQL with `select 1`. */
export const probeMysql: ServiceProbe = async () => {
  const connection = await createConnection({ uri: mysqlUrl(), connectTimeout: probeTimeoutMs })
  try {
    await connection.query('select 1')
  } finally {
    await connection.end()
  }
}

const probeResults = new Map<ServiceProbe, Promise<string | null>>()

/** Why the service is unreachable, or `null` when it answered. Each probe runs once per test file. */
function unreachableReason(probe: ServiceProbe): Promise<string | null> {
  let result = probeResults.get(probe)
  if (!result) {
    result = probe().then(
      () => null,
      (err: unknown) => (err instanceof Error ? err.message || err.name : String(err)),
    )
    probeResults.set(probe, result)
  }
  return result
}

/**
 * `describe(name, fn)` when the service answers. Otherwise the suite's tests are reported as skipped and
 * `skipped <name>: <reason>` is printed, except under `CI=true`, where the suite fails with the reason.
 * Probes once, while the file is collected: `await describeWithService(...)` at the top level of a test file.
 */
export async function describeWithService(name: string, probe: ServiceProbe, fn: () => void): Promise<void> {
  const reason = await unreachableReason(probe)
  if (reason === null) {
    describe(name, fn)
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it(`needs ${name}, which must be reachable under CI=true`, () => {
        throw new Error(`${name} is unreachable: ${reason}`)
      })
    })
  } else {
    console.warn(`skipped ${name}: ${reason}`)
    describe.runIf(false)(name, fn)
  }
}

/** A name no other run uses: `<prefix>_<16 hex>`, safe as an SQL identifier and as a key prefix. */
export function scratchName(prefix = 'authchart_test'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`
}

/** A PostgreSQL schema of one's own: `url` puts it first on the search_path; `drop` removes it with its tables. */
export interface ScratchPostgresSchema {
  schema: string
  url: string
  drop(): Promise<void>
}

/** Creates a fresh schema in the test database, so fixed table names never collide with another suite's. */
export async function createScratchPostgresSchema(baseUrl = postgresUrl()): Promise<ScratchPostgresSchema> {
  const schema = scratchName()
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  try {
    await admin.query(`create schema "${schema}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(baseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    schema,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      try {
        await client.query(`drop schema if exists "${schema}" cascade`)
      } finally {
        await client.end()
      }
    },
  }
}

/** A MariaDB/MySQL database of one's own: `url` points at it; `drop` removes it. */
export interface ScratchMysqlDatabase {
  database: string
  url: string
  drop(): Promise<void>
}

/** Creates a fresh database on the server of `baseUrl`, so fixed table names never collide with another suite's. */
export async function createScratchMysqlDatabase(baseUrl = mysqlUrl()): Promise<ScratchMysqlDatabase> {
  const database = scratchName()
  const run = async (statement: string) => {
    const connection = await createConnection({ uri: baseUrl })
    try {
      await connection.query(statement)
    } finally {
      await connection.end()
    }
  }
  await run(`create database \`${database}\``)
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return { database, url: url.toString(), drop: () => run(`drop database if exists \`${database}\``) }
}
