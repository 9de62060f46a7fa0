/**
 * Creates the schema where it is missing. Idempotent. It changes a table that exists in two cases only: a nullable
 * column that came after the first schema (the session record's, on `Session`) is added where it is missing; and on
 * MySQL/MariaDB, a date column of type TIMESTAMP (which refuses dates after 2038-01-19) becomes DATETIME(3), and an
 * `id` key without a default gets `uuid()`, as `migrate` makes them today. Anything else is left exactly as it is.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'
import { detectDialect, type SqlDialect } from './dialect.js'
import type { Store } from './row-statements.js'
import { columnType, idDefault, tableSpecs, type TableName, type TableSpec } from './schema.js'
import { readStoreColumns } from './store-columns.js'
import { upgradeMysqlTables } from './upgrade-mysql.js'

/** What `migrate` did. */
export interface MigrationReport {
  dialect: SqlDialect
  /** Tables this run created, with their indexes. */
  created: TableName[]
  /** Tables that were there already. */
  existing: TableName[]
  /** Columns of existing tables changed to today's types and defaults (MySQL/MariaDB only), as `Table.column`. */
  upgraded: string[]
  /** Nullable columns added to existing tables (the session record's), as `Table.column`. */
  added: string[]
}

/**
 * Creates whichever of `User`, `Account`, `Session`, `VerificationToken`, `Authenticator`, `Factor` and `RecoveryCode` do not exist, with
 * their keys, foreign keys (ON DELETE CASCADE) and `userId` indexes, and `id` defaults on `User`, `Account` and
 * `Session` (so that `@auth/kysely-adapter`, which writes accounts and sessions without an id, works on them too).
 * Tables that exist are not touched, not even to add an index, except the MySQL upgrade described above. On
 * PostgreSQL and SQLite all of it runs in one transaction; MySQL commits each DDL statement by itself, so there an
 * interrupted run is completed by running it again.
 * @param db A Kysely instance on PostgreSQL (tables go into `current_schema()`), MySQL/MariaDB or SQLite.
 * @returns Which tables were created and which were already there.
 * @throws {AdapterError} when the dialect is none of the three.
 */
export async function migrate<DB>(db: Kysely<DB>): Promise<MigrationReport> {
  const store = db as unknown as Store
  const dialect = detectDialect(store)
  const createMissing = async (executor: Store): Promise<MigrationReport> => {
    const columns = await readStoreColumns(executor, dialect)
    const report: MigrationReport = { dialect, created: [], existing: [], upgraded: [], added: [] }
    for (const spec of tableSpecs) {
      const existing = columns.get(spec.name)
      if (existing) {
        report.existing.push(spec.name)
        report.added.push(...(await addMissingColumns(executor, dialect, spec, existing)))
        continue
      }
      await createTable(executor, dialect, spec)
      report.created.push(spec.name)
    }
    if (dialect === 'mysql') report.upgraded = await upgradeMysqlTables(executor, report.existing)
    return report
  }
  return dialect === 'mysql' ? createMissing(store) : store.transaction().execute(createMissing)
}

/**
 * Adds the `added` columns of `spec` that the table lacks, all nullable and without a default: rows already there read
 * as "no record", and code that never writes them (an Auth.js adapter) goes on working.
 */
async function addMissingColumns(
  db: Store,
  dialect: SqlDialect,
  spec: TableSpec,
  existing: ReadonlyMap<string, unknown>,
): Promise<string[]> {
  const added: string[] = []
  for (const column of spec.columns) {
    if (!column.added || existing.has(column.name)) continue
    await db.schema
      .alterTable(spec.name)
      .addColumn(column.name, sql.raw(columnType(dialect, column.kind)), (col) =>
        // As in createTable: an old MySQL would make a bare TIMESTAMP NOT NULL with a default; DATETIME is not, but
        // say NULL outright all the same.
        dialect === 'mysql' && column.kind === 'timestamp' ? col.modifyEnd(sql`null default null`) : col,
      )
      .execute()
    added.push(`${spec.name}.${column.name}`)
  }
  return added
}

async function createTable(db: Store, dialect: SqlDialect, spec: TableSpec): Promise<void> {
  let table: CreateTableBuilder<string, string> = db.schema.createTable(spec.name).ifNotExists()
  for (const column of spec.columns) {
    table = table.addColumn(column.name, sql.raw(columnType(dialect, column.kind)), (col) => {
      let defined = col
      if (column.primaryKey) defined = defined.primaryKey()
      if (column.notNull) defined = defined.notNull()
      // MySQL before 8.0.2 and MariaDB before 10.10 (explicit_defaults_for_timestamp off) make a bare TIMESTAMP column
      // NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE ...: every new user would look e-mail-verified. Say NULL outright.
      else if (dialect === 'mysql' && column.kind === 'timestamp') defined = defined.modifyEnd(sql`null default null`)
      if (column.unique) defined = defined.unique()
      // Authchart's adapter always supplies an id; @auth/kysely-adapter gives none for accounts and sessions, and
      // SQLite would otherwise store NULL in a non-integer primary key.
      if (column.primaryKey && column.kind === 'id') {
        defined = defined.defaultTo(sql.raw(idDefault(dialect)))
        if (dialect === 'sqlite') defined = defined.notNull()
      }
      return defined
    })
  }
  if (spec.uniqueTogether) table = table.addUniqueConstraint(spec.uniqueTogether.name, spec.uniqueTogether.columns)
  if (spec.ownedByUser) {
    // A table-level constraint: MySQL parses a column-level REFERENCES and silently ignores it.
    table = table.addForeignKeyConstraint(`${spec.name}_userId_fkey`, ['userId'], 'User', ['id'], (fk) =>
      fk.onDelete('cascade'),
    )
  }
  await table.execute()
  // InnoDB already indexes every foreign-key column, and MySQL has no CREATE INDEX IF NOT EXISTS.
  if (dialect === 'mysql') return
  for (const index of spec.indexes) {
    await db.schema.createIndex(index.name).ifNotExists().on(spec.name).columns(index.columns).execute()
  }
}
