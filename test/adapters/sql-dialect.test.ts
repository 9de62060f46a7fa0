import {
  DummyDriver,
  Kysely,
  MssqlAdapter,
  MssqlQueryCompiler,
  MysqlAdapter,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteQueryCompiler,
  type DialectAdapter,
  type QueryCompiler,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { detectDialect } from '../../adapters/sql/dialect.js'
import { KyselyAdapter } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'

/** A Kysely that compiles like the given engine and never connects (Kysely's own DummyDriver). */
function offlineKysely(adapter: DialectAdapter, compiler: QueryCompiler): Kysely<unknown> {
  return new Kysely({
    dialect: {
      createAdapter: () => adapter,
      createDriver: () => new DummyDriver(),
      createQueryCompiler: () => compiler,
      createIntrospector: () => {
        throw new Error('not used')
      },
    },
  })
}

describe('detectDialect', () => {
  it('recognises PostgreSQL, MySQL and SQLite from the SQL their compilers produce', () => {
    expect(detectDialect(offlineKysely(new PostgresAdapter(), new PostgresQueryCompiler()))).toBe('postgres')
    expect(detectDialect(offlineKysely(new MysqlAdapter(), new MysqlQueryCompiler()))).toBe('mysql')
    expect(detectDialect(offlineKysely(new SqliteAdapter(), new SqliteQueryCompiler()))).toBe('sqlite')
  })

  it('makes KyselyAdapter refuse any other engine at once, with an AdapterError saying which are supported', () => {
    const mssql = offlineKysely(new MssqlAdapter(), new MssqlQueryCompiler())
    expect(() => KyselyAdapter(mssql)).toThrow(AdapterError)
    expect(() => KyselyAdapter(mssql)).toThrow(
      'the Kysely adapter supports the PostgreSQL, MySQL/MariaDB and SQLite dialects only',
    )
  })
})
