/**
 * Creates the schema where it is missing. Idempotent, and it never changes a table that exists: an app moving
 * from `@auth/kysely-adapter` keeps its database exactly as it is.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'
import { detectDialect, type SqlDialect } from './dialect.js'
import type { Store } from './row-statements.js'
import { columnType, tableSpecs, type TableName, type TableSpec } from './schema.js'
import { readStoreColumns } from './store-columns.js'

/** What `migrate` did. */
export interface MigrationReport {
  dialect: SqlDialect
  /** Tables this run created, with their indexes. */
  created: TableName[]
  /** Tables that were there already and were left as they are. */
  existing: TableName[]
}

/**
 * Creates whichever of `User`, `Account`, `Session`, `VerificationToken` and `Authenticator` do not exist, with
 * their keys, foreign keys (ON DELETE CASCADE) and `userId` indexes. Tables that exist are not touched, not even
 * to add an index. On PostgreSQL and SQLite all of it runs in one transaction; MySQL commits each DDL statement
 * by itself, so there an interrupted run is completed by running it again.
 * @param db A Kysely instance on PostgreSQL (tables go into `current_schema()`), MySQL/MariaDB or SQLite.
 * @returns Which tables were created and which were already there.
 * @throws {AdapterError} when the dialect is none of the three.
 */
export async function migrate<DB>(db: Kysely<DB>): Promise<MigrationReport> {
  const store = db as unknown as Store
  const dialect = detectDialect(store)
  const createMissing = async (executor: Store): Promise<MigrationReport> => {
    const columns = await readStoreColumns(executor, dialect)
    const report: MigrationReport = { dialect, created: [], existing: [] }
    for (const spec of tableSpecs) {
      if (columns.has(spec.name)) {
        report.existing.push(spec.name)
        continue
      }
      await createTable(executor, dialect, spec)
      report.created.push(spec.name)
    }
    return report
  }
  return dialect === 'mysql' ? createMissing(store) : store.transaction().execute(createMissing)
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
      // The documented PostgreSQL schema generates ids itself too; the adapter always supplies one.
      if (column.primaryKey && column.kind === 'id' && dialect === 'postgres') defined = defined.defaultTo(sql`gen_random_uuid()`)
      return defined
    })
  }
  if (spec.uniqueTogether) table = table.addUniqueConstraint(spec.uniqueTogether.name, spec.uniqueTogether.columns)
  if (spec.ownedByUser) {
    // A table-level constraint: MySQL parses a column-level REFERENCES and silently ignores it.
    table = table.addForeignKeyConstraint(`${spec.name}_userId_fkey`, ['userId'], 'User', ['id'], (fk) => fk.onDelete('cascade'))
  }
  await table.execute()
  // InnoDB already indexes every foreign-key column, and MySQL has no CREATE INDEX IF NOT EXISTS.
  if (dialect === 'mysql') return
  for (const index of spec.indexes) {
    await db.schema.createIndex(index.name).ifNotExists().on(spec.name).columns(index.columns).execute()
  }
}
