/**
 * Brings tables an older `migrate` made on MySQL/MariaDB up to today's column types: TIMESTAMP date columns, which
 * refuse any date after 2038-01-19, become DATETIME(3), and `id` keys without a default get `uuid()`.
 */
import { sql } from 'kysely'
import type { Store } from './row-statements.js'
import { columnType, idDefault, tableSpecs, type TableName } from './schema.js'

interface ColumnState {
  t: string
  c: string
  d: string
  n: string
  x: string | null
}

/**
 * Upgrades the columns of `tables` that need it and names them (`Table.column`). The session's time zone is UTC
 * while it runs: MySQL converts TIMESTAMP values to DATETIME in the session's zone, and Authchart (with mysql2's
 * `timezone: 'Z'`) reads DATETIME as UTC.
 */
export async function upgradeMysqlTables(db: Store, tables: TableName[]): Promise<string[]> {
  if (tables.length === 0) return []
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<ColumnState>`select table_name as t, column_name as c, data_type as d, is_nullable as n,
      column_default as x from information_schema.columns
      where table_schema = database() and table_name in (${sql.join(tables)})`.execute(connection)
    const changes: { table: string; column: string; definition: string }[] = []
    for (const spec of tableSpecs) {
      if (!tables.includes(spec.name)) continue
      for (const column of spec.columns) {
        const state = rows.find((row) => row.t === spec.name && row.c === column.name)
        if (!state) continue
        const nullable = state.n === 'YES' ? 'null' : 'not null'
        if (column.kind === 'timestamp' && state.d.toLowerCase() === 'timestamp') {
          changes.push({
            table: spec.name,
            column: column.name,
            definition: `${columnType('mysql', 'timestamp')} ${nullable}${state.n === 'YES' ? ' default null' : ''}`,
          })
        } else if (column.kind === 'id' && column.primaryKey && state.x === null) {
          changes.push({
            table: spec.name,
            column: column.name,
            definition: `${columnType('mysql', 'id')} not null default ${idDefault('mysql')}`,
          })
        }
      }
    }
    if (changes.length === 0) return []
    const [zone] = (await sql<{ zone: string }>`select @@session.time_zone as zone`.execute(connection)).rows
    await sql`set time_zone = '+00:00'`.execute(connection)
    try {
      for (const { table, column, definition } of changes) {
        await sql`alter table ${sql.table(table)} modify ${sql.ref(column)} ${sql.raw(definition)}`.execute(connection)
      }
    } finally {
      await sql`set time_zone = ${zone?.zone ?? 'SYSTEM'}`.execute(connection)
    }
    return changes.map(({ table, column }) => `${table}.${column}`)
  })
}
