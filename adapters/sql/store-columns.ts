/**
 * Which of the five tables exist and which columns they have, read from the database itself. `migrate` uses it to
 * create only what is missing; the adapter uses it to keep a model's extra fields that have a column of their own
 * (and drop those that have none) and to learn which id columns are PostgreSQL `uuid`s.
 */
import { sql, type Kysely } from 'kysely'
import type { SqlDialect } from './dialect.js'
import { tableNames, type TableName } from './schema.js'

/** A column as the store declares it. */
export interface StoreColumn {
  name: string
  /** PostgreSQL `uuid`: comparing it with text that is not a UUID is an error, not a miss. */
  isUuid: boolean
}

/** The columns of each of the five tables that exist, by name. */
export type StoreColumns = Map<TableName, Map<string, StoreColumn>>

interface ColumnRow { t: string; c: string; d: string }

/**
 * Reads the columns of the tables among the five that exist. PostgreSQL looks in `current_schema()` (the first
 * schema of the `search_path`, where unqualified names resolve and new tables go), MySQL in the connection's
 * database, SQLite in the main database.
 */
export async function readStoreColumns<DB>(db: Kysely<DB>, dialect: SqlDialect): Promise<StoreColumns> {
  const names = sql.join([...tableNames])
  const query = {
    postgres: sql<ColumnRow>`select table_name as t, column_name as c, data_type as d from information_schema.columns
      where table_schema = current_schema() and table_name in (${names}) order by ordinal_position`,
    mysql: sql<ColumnRow>`select table_name as t, column_name as c, data_type as d from information_schema.columns
      where table_schema = database() and table_name in (${names}) order by ordinal_position`,
    sqlite: sql<ColumnRow>`select m.name as t, p.name as c, p.type as d from sqlite_master as m
      join pragma_table_info(m.name) as p where m.type = 'table' and m.name in (${names}) order by p.cid`,
  }[dialect]
  const { rows } = await query.execute(db)
  const columns: StoreColumns = new Map()
  for (const { t, c, d } of rows) {
    const table = tableNames.find((name) => name === t)
    if (!table) continue
    const byName = columns.get(table) ?? new Map<string, StoreColumn>()
    byName.set(c, { name: c, isUuid: dialect === 'postgres' && d === 'uuid' })
    columns.set(table, byName)
  }
  return columns
}

/**
 * `readStoreColumns`, read on first use and kept. `refresh` reads again: the adapter calls it when a table a call
 * needs is missing from what it kept, so tables created after start-up (a late `migrate`) are found without a
 * restart. Columns added to existing tables while the app runs are seen after a restart.
 */
export function cachedStoreColumns<DB>(db: Kysely<DB>, dialect: SqlDialect) {
  let pending: Promise<StoreColumns> | undefined
  const refresh = () => {
    const read = readStoreColumns(db, dialect)
    // A failed read (the database was down) is not kept: the next call tries again.
    read.catch(() => { if (pending === read) pending = undefined })
    pending = read
    return read
  }
  return {
    get: () => pending ?? refresh(),
    refresh,
  }
}
