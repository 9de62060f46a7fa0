/**
 * What differs between the three SQL engines the Kysely adapter supports, kept in one place: how to recognise the
 * engine, how values must be written and read back, and which driver errors mean what.
 */
import { sql, type Kysely } from 'kysely'
import { AdapterError } from '../../src/errors.js'
import type { StoreFailureKind } from '../store-failure.js'

/** The SQL engines the adapter and `migrate` support. MariaDB counts as `mysql`. */
export type SqlDialect = 'postgres' | 'mysql' | 'sqlite'

/**
 * The engine a Kysely instance talks to, read from the SQL it compiles: `$1` placeholders are PostgreSQL, backtick
 * quoting is MySQL, `"x" = ?` is SQLite. This uses only public API and also recognises third-party dialects that
 * reuse Kysely's compilers (e.g. other PostgreSQL or SQLite drivers).
 * @throws {AdapterError} for any other engine.
 */
export function detectDialect<DB>(db: Kysely<DB>): SqlDialect {
  const probe = sql`select ${sql.ref('probe')} where ${1}`.compile(db).sql
  if (probe === 'select "probe" where $1') return 'postgres'
  if (probe === 'select `probe` where ?') return 'mysql'
  if (probe === 'select "probe" where ?') return 'sqlite'
  throw new AdapterError('the Kysely adapter supports the PostgreSQL, MySQL/MariaDB and SQLite dialects only', {
    compiled: probe,
  })
}

/** Whether `INSERT/UPDATE/DELETE ... RETURNING` can be used. MySQL has none (MariaDB has it for DELETE only). */
export function supportsReturning(dialect: SqlDialect): boolean {
  return dialect !== 'mysql'
}

/**
 * A value as the driver must receive it. better-sqlite3 binds neither `Date` nor `boolean`: dates become ISO-8601
 * text (sortable, and what `toDate` reads back), booleans 1/0. pg and mysql2 bind both themselves.
 */
export function toStoreValue(value: unknown, dialect: SqlDialect): unknown {
  if (dialect !== 'sqlite') return value
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

/** A date column's value as a `Date`: pg and mysql2 give `Date`s, SQLite gives the ISO text (or epoch ms) it stored. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value
  if (typeof value === 'string' || typeof value === 'number') return new Date(value)
  throw new AdapterError('a date column holds a value that is not a date', { received: typeof value })
}

/** A boolean column's value: MySQL and SQLite store booleans as 0/1. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}

/** An integer column's value: pg returns `bigint` columns as strings so that no precision is lost. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value)
}

const duplicateCodes = new Set([
  '23505', // PostgreSQL unique_violation
  'ER_DUP_ENTRY', // MySQL/MariaDB 1062
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
])

const unreachableCodes = new Set([
  '57P01',
  '57P02',
  '57P03', // PostgreSQL: the server terminated the connection or is shutting down / starting
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // PostgreSQL connection exceptions
  'PROTOCOL_CONNECTION_LOST',
  'ER_CONNECTION_KILLED',
  'ER_SERVER_SHUTDOWN', // mysql2 / MariaDB
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'SQLITE_CANTOPEN',
  // Timeouts are an unreachable store too, not a refusal: the same call may succeed once the database answers
  // again. PostgreSQL: statement_timeout and lock_timeout cancel the statement (57014, 55P03); mysql2: a query or
  // connect timeout; MariaDB: max_statement_time.
  '57014',
  '55P03',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_STATEMENT_TIMEOUT',
  'ER_LOCK_WAIT_TIMEOUT',
])

// Some drivers report a lost connection or a timeout with a message only (pg: "Connection terminated unexpectedly",
// pg's pool: "timeout exceeded when trying to connect", pg's `query_timeout`: "Query read timeout", better-sqlite3:
// "The database connection is not open", Kysely: "driver has already been destroyed").
const unreachableMessage =
  /connection terminated|connection is not open|not queryable|connection (lost|closed)|has already been destroyed|pool is closed|can't add new command when connection is in closed state|timeout exceeded when trying to connect|query read timeout/i

/** What a driver error means, for the `AdapterError` the adapter throws. */
export function classifySqlError(err: unknown): StoreFailureKind {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : ''
  if (duplicateCodes.has(code)) return 'duplicate'
  if (unreachableCodes.has(code)) return 'unreachable'
  if (err instanceof Error && unreachableMessage.test(err.message)) return 'unreachable'
  return 'rejected'
}
