/**
 * Which of the tables exist and which columns they have, read from the database itself. `migrate` uses it to
 * create only what is missing; the adapter uses it to keep a model's extra fields that have a column of their own
 * (and drop those that have none), and to learn how the schema stores ids and dates: the schemas of Auth.js's SQL
 * adapters differ there, and the database says which one it holds.
 */
import { sql, type Kysely } from 'kysely'
import type { SqlDialect } from './dialect.js'
import { defaultSchema, type SchemaMapping } from './schema-mappings.js'
import { tableNames, type TableName } from './schema.js'

/**
 * How a date column keeps its value. `native`: the driver binds and returns `Date`s (PostgreSQL `timestamptz`,
 * MySQL). `utc-wall-clock`: PostgreSQL `timestamp` without time zone, holding UTC as Prisma and Drizzle write it.
 * `iso-text`: SQLite text, as `migrate` and `@auth/kysely-adapter` write it. `epoch-ms`: SQLite integer
 * milliseconds, as Drizzle (`timestamp_ms`) and Prisma (`DATETIME`) write it.
 */
export type DateStorage = 'native' | 'utc-wall-clock' | 'iso-text' | 'epoch-ms'

/** A column as the store declares it. */
export interface StoreColumn {
  name: string
  /** PostgreSQL `uuid`: comparing it with text that is not a UUID is an error, not a miss. */
  isUuid: boolean
  /** An integer column (`@auth/pg-adapter`'s SERIAL ids): the database assigns ids, and text is no match. */
  isInteger: boolean
  /** How a `Date` written to this column must be stored. */
  dateStorage: DateStorage
}

/** The columns of each of the tables that exist, by name. */
export type StoreColumns = Map<TableName, Map<string, StoreColumn>>

interface ColumnRow {
  t: string
  c: string
  d: string
}

/** How `dialect` stores a `Date` in a column of declared type `declared`. */
function dateStorageOf(dialect: SqlDialect, declared: string): DateStorage {
  const type = declared.toLowerCase()
  if (dialect === 'postgres') return type === 'timestamp without time zone' ? 'utc-wall-clock' : 'native'
  if (dialect === 'sqlite') return /int|date|time/.test(type) ? 'epoch-ms' : 'iso-text'
  return 'native'
}

/**
 * Reads the columns of the tables (`tableNames`) that exist, under the names `schema` gives them. PostgreSQL looks
 * in `current_schema()` (the first schema of the `search_path`, where unqualified names resolve and new tables go),
 * MySQL in the connection's database, SQLite in the main database.
 */
export async function readStoreColumns<DB>(
  db: Kysely<DB>,
  dialect: SqlDialect,
  schema: SchemaMapping = defaultSchema,
): Promise<StoreColumns> {
  const names = sql.join(tableNames.map((table) => schema.tables[table]))
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
    // MySQL compares table names case-insensitively on some systems; match the mapping's spelling exactly.
    const table = tableNames.find((name) => schema.tables[name] === t)
    if (!table) continue
    const byName = columns.get(table) ?? new Map<string, StoreColumn>()
    byName.set(c, {
      name: c,
      isUuid: dialect === 'postgres' && d === 'uuid',
      isInteger: /int|serial/i.test(d),
      dateStorage: dateStorageOf(dialect, d),
    })
    columns.set(table, byName)
  }
  return columns
}

/**
 * `readStoreColumns`, read on first use and kept. `refresh` reads again: the adapter calls it when a table a call
 * needs is missing from what it kept, so tables created after start-up (a late `migrate`) are found without a
 * restart. Columns added to existing tables while the app runs are seen after a restart.
 */
export function cachedStoreColumns<DB>(db: Kysely<DB>, dialect: SqlDialect, schema: SchemaMapping = defaultSchema) {
  let pending: Promise<StoreColumns> | undefined
  const refresh = () => {
    const read = readStoreColumns(db, dialect, schema)
    // A failed read (the database was down) is not kept: the next call tries again.
    read.catch(() => {
      if (pending === read) pending = undefined
    })
    pending = read
    return read
  }
  return {
    get: () => pending ?? refresh(),
    refresh,
  }
}
