/**
 * The SQL audit sink: appends each audit record (`config.audit`, docs/observability.md) to a table, hash-chained, so
 * that a row deleted or edited afterwards is found by `verifyAuditChain` (`authchart audit verify`).
 *
 * Each row holds its sequence number, the record as canonical JSON (keys sorted), and `hash` = SHA-256 of the previous
 * row's hash, a newline, and this row's canonical JSON (the first row chains from the empty string). Appends are
 * serialized: in this process through one queue, across processes by a lock held from the read of the last row until
 * the new one is committed (PostgreSQL: an advisory transaction lock; MySQL/MariaDB: a named lock, GET_LOCK; SQLite:
 * the file's write lock, taken by `begin immediate`), and the sequence number is the primary key, so two appends can
 * never both extend the same row.
 */
// A namespace import: apps whose bundler also walks the SQL adapter for a browser build (Qwik City's Vite build of an
// `authchart/adapters/sql` config) get a stub for node:crypto there, which has no named exports to bind.
import * as nodeCrypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { AuditRecord } from '../../src/types/audit.js'
import { classifySqlError, detectDialect, toNumber, type SqlDialect } from './dialect.js'

/** The table the sink appends to, unless told otherwise. */
export const defaultAuditTable = 'AuthchartAudit'

export interface SqlAuditSinkOptions {
  /** The table's name. Default `AuthchartAudit`. */
  table?: string
}

/** An audit sink writing to SQL: call it with a record; `migrate()` creates its table; `flush()` waits for appends. */
export interface SqlAuditSink {
  (record: AuditRecord): Promise<void>
  /** Creates the table where it is missing (idempotent). */
  migrate(): Promise<void>
  /** Resolves once every record handed to the sink so far is written (or failed). */
  flush(): Promise<void>
}

/** One row as read back. */
interface AuditRow {
  seq: number
  time: string
  type: string
  userId: string | null
  record: string
  hash: string
}

/** The record as canonical JSON: keys sorted, undefined fields left out, so the same record always hashes the same. */
export function canonicalAuditJson(record: AuditRecord | Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(record).sort()) {
    const value: unknown = Reflect.get(record, key)
    if (value !== undefined) sorted[key] = value
  }
  return JSON.stringify(sorted)
}

/** The chain's link: SHA-256 (hex) of the previous row's hash, a newline, and this row's canonical JSON. */
export function auditRowHash(previousHash: string, canonical: string): string {
  return nodeCrypto.createHash('sha256').update(`${previousHash}\n${canonical}`).digest('hex')
}

function columnTypes(dialect: SqlDialect): { seq: string; short: string; text: string; hash: string } {
  if (dialect === 'postgres') return { seq: 'bigint', short: 'text', text: 'text', hash: 'text' }
  if (dialect === 'mysql') return { seq: 'bigint', short: 'varchar(255)', text: 'mediumtext', hash: 'char(64)' }
  return { seq: 'integer', short: 'text', text: 'text', hash: 'text' }
}

/**
 * Creates the audit table where it is missing. Idempotent; a table that exists is left as it is.
 * @param db A Kysely instance on PostgreSQL, MySQL/MariaDB or SQLite.
 */
export async function migrateAuditTable<DB>(db: Kysely<DB>, options: SqlAuditSinkOptions = {}): Promise<void> {
  const dialect = detectDialect(db)
  const types = columnTypes(dialect)
  await db.schema
    .createTable(options.table ?? defaultAuditTable)
    .ifNotExists()
    .addColumn('seq', sql.raw(types.seq), (col) => col.primaryKey())
    .addColumn('time', sql.raw(types.short), (col) => col.notNull())
    .addColumn('type', sql.raw(types.short), (col) => col.notNull())
    .addColumn('userId', sql.raw(types.short))
    .addColumn('record', sql.raw(types.text), (col) => col.notNull())
    .addColumn('hash', sql.raw(types.hash), (col) => col.notNull())
    .execute()
}

/** How many times an append that lost the race for a sequence number is tried again. */
const appendAttempts = 5

/**
 * The SQL audit sink, for `config.audit`. Create its table once with `sink.migrate()` (or `migrateAuditTable`).
 * @example
 * const audit = sqlAuditSink(db)
 * await audit.migrate()
 * export const config = { ...authConfig, audit }
 */
export function sqlAuditSink<DB>(db: Kysely<DB>, options: SqlAuditSinkOptions = {}): SqlAuditSink {
  const table = options.table ?? defaultAuditTable
  const dialect = detectDialect(db)
  let queue: Promise<unknown> = Promise.resolve()
  const append = (record: AuditRecord): Promise<void> => {
    const canonical = canonicalAuditJson(record)
    const run = queue.then(() => appendRow(db, dialect, table, record, canonical))
    // The next append waits for this one whether it worked or not; the caller sees this one's failure.
    queue = run.catch(() => undefined)
    return run
  }
  return Object.assign(append, {
    migrate: () => migrateAuditTable(db, { table }),
    flush: () => queue.then(() => undefined),
  })
}

async function appendRow<DB>(
  db: Kysely<DB>,
  dialect: SqlDialect,
  table: string,
  record: AuditRecord,
  canonical: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (dialect === 'postgres') await appendPostgres(db, table, record, canonical)
      else if (dialect === 'mysql') await appendMysql(db, table, record, canonical)
      else await appendSqlite(db, table, record, canonical)
      return
    } catch (err) {
      // A second writer that took no lock (an older sink, a hand-made insert) took the sequence number: read again.
      if (attempt < appendAttempts && classifySqlError(err) === 'duplicate') continue
      throw err
    }
  }
}

/** Reads the last row and inserts the next one, on a connection that holds the table's append lock. */
async function extendChain<DB>(db: Kysely<DB>, table: string, record: AuditRecord, canonical: string): Promise<void> {
  const last = await sql<{
    seq: unknown
    hash: string
  }>`select ${sql.ref('seq')}, ${sql.ref('hash')} from ${sql.table(table)} order by ${sql.ref('seq')} desc limit 1`.execute(
    db,
  )
  const previous = last.rows[0]
  const seq = previous ? toNumber(previous.seq) + 1 : 1
  const hash = auditRowHash(previous?.hash ?? '', canonical)
  await sql`insert into ${sql.table(table)} (${sql.ref('seq')}, ${sql.ref('time')}, ${sql.ref('type')}, ${sql.ref('userId')}, ${sql.ref('record')}, ${sql.ref('hash')}) values (${seq}, ${record.time}, ${record.type}, ${record.userId ?? null}, ${canonical}, ${hash})`.execute(
    db,
  )
}

/** PostgreSQL: an advisory lock held until the transaction ends, so every other append waits for the commit. */
async function appendPostgres<DB>(db: Kysely<DB>, table: string, record: AuditRecord, canonical: string) {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${`.${table} authchart audit`}))`.execute(trx)
    await extendChain(trx, table, record, canonical)
  })
}

/** How long an append waits for another instance's append on MySQL/MariaDB before it fails, in seconds. */
const mysqlLockWaitSeconds = 10

/**
 * MySQL/MariaDB: a named lock (GET_LOCK) on the connection, held across the read and the insert (which commits by
 * itself) and released after. A row lock cannot do it: an empty table has no row to lock, and two `select ... for
 * update` of the last row take gap locks that deadlock both inserts (InnoDB, found by audit-trail-sql.test.ts).
 */
async function appendMysql<DB>(db: Kysely<DB>, table: string, record: AuditRecord, canonical: string) {
  await db.connection().execute(async (conn) => {
    // Lock names are limited to 64 characters: the digest of the schema and table names stands for them.
    const name = sql`sha1(concat(database(), ${`.${table} authchart audit`}))`
    const got = await sql<{
      got: unknown
    }>`select get_lock(${name}, ${mysqlLockWaitSeconds}) as ${sql.ref('got')}`.execute(conn)
    if (toNumber(got.rows[0]?.got) !== 1)
      throw new Error(`audit append: another append held the lock on ${table} for ${mysqlLockWaitSeconds} s`)
    try {
      await extendChain(conn, table, record, canonical)
    } finally {
      await sql`select release_lock(${name})`.execute(conn)
    }
  })
}

/**
 * Appends to SQLite running now in this process, whatever the database file: each waits for the one before it.
 * SQLite has one writer per file anyway, and better-sqlite3 is synchronous: a second connection of this process
 * asking for the write lock while the first holds it (between two awaits) would block the whole process in its busy
 * wait, and the first could never commit.
 */
let sqliteAppends: Promise<unknown> = Promise.resolve()

/** SQLite: `begin immediate` takes the file's write lock before the read, so another process's append waits for it. */
async function appendSqlite<DB>(db: Kysely<DB>, table: string, record: AuditRecord, canonical: string) {
  const run = sqliteAppends.then(() =>
    db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn)
      try {
        await extendChain(conn, table, record, canonical)
        await sql`commit`.execute(conn)
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined)
        throw err
      }
    }),
  )
  sqliteAppends = run.catch(() => undefined)
  return run
}

/** What `verifyAuditChain` found. */
export type AuditChainReport =
  { ok: true; rows: number; head: string | null } | { ok: false; rows: number; badRow: number; reason: string }

/** Rows read per query while verifying, so a long trail is never held in memory at once. */
const verifyPage = 1000

/**
 * Walks the chain from the first row: each row's sequence number follows the previous one's, its hash is the link
 * of the previous hash and its record, and its columns say what its record says. The first row that fails is named.
 * A row deleted from the middle breaks the next row's link; an edited row breaks its own. (Rows cut from the end
 * leave a shorter chain that is still whole: keep the reported `head` elsewhere to detect that.)
 */
export async function verifyAuditChain<DB>(
  db: Kysely<DB>,
  options: SqlAuditSinkOptions = {},
): Promise<AuditChainReport> {
  const table = options.table ?? defaultAuditTable
  let previousHash = ''
  let expectedSeq = 1
  let rows = 0
  for (;;) {
    const page =
      await sql<AuditRow>`select ${sql.ref('seq')}, ${sql.ref('time')}, ${sql.ref('type')}, ${sql.ref('userId')}, ${sql.ref('record')}, ${sql.ref('hash')} from ${sql.table(table)} where ${sql.ref('seq')} >= ${expectedSeq} order by ${sql.ref('seq')} limit ${verifyPage}`.execute(
        db,
      )
    for (const row of page.rows) {
      const seq = toNumber(row.seq)
      const bad = rowFault(row, seq, expectedSeq, previousHash)
      if (bad) return { ok: false, rows, badRow: seq, reason: bad }
      previousHash = row.hash
      expectedSeq = seq + 1
      rows++
    }
    if (page.rows.length < verifyPage) return { ok: true, rows, head: rows === 0 ? null : previousHash }
  }
}

/** Why `row` breaks the chain, or undefined when it holds. */
function rowFault(row: AuditRow, seq: number, expectedSeq: number, previousHash: string): string | undefined {
  if (seq !== expectedSeq) return `row ${seq} follows row ${expectedSeq - 1}: row ${expectedSeq} is missing`
  if (auditRowHash(previousHash, String(row.record)) !== row.hash)
    return `row ${seq}: its hash does not match its record and the previous row (edited, or a row before it deleted)`
  let parsed: unknown
  try {
    parsed = JSON.parse(String(row.record))
  } catch {
    return `row ${seq}: its record is not JSON`
  }
  if (typeof parsed !== 'object' || parsed === null) return `row ${seq}: its record is not an object`
  const record = parsed
  const field = (key: string): unknown => Reflect.get(record, key) ?? null
  if (field('time') !== row.time || field('type') !== row.type || field('userId') !== (row.userId ?? null))
    return `row ${seq}: its time, type or userId column differs from its record (edited)`
  return undefined
}
