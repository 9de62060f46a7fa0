/**
 * A scratch database on each engine, with a Kysely instance for the adapters and a raw driver handle for setting up
 * tables and reading what was really stored.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely'
import { createPool } from 'mysql2'
import { createPool as createPromisePool, type Pool as MysqlPromisePool } from 'mysql2/promise'
import pg from 'pg'
import { createScratchMysqlDatabase, createScratchPostgresSchema, scratchName } from '../support/services.js'
import type { Dialect } from './authjs-ddl.js'

/** One scratch database. */
export interface ScratchDatabase {
  dialect: Dialect
  db: Kysely<unknown>
  /** The raw driver handle, for the official adapters that take one: a pg pool, a mysql2 pool or a SQLite database. */
  pgPool?: pg.Pool
  mysqlPool?: MysqlPromisePool
  sqlite?: Database.Database
  /** Runs several statements separated by `;`. */
  exec(ddl: string): Promise<void>
  /** One parameterised statement (`$1` on PostgreSQL, `?` elsewhere), its rows. */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

/** A scratch PostgreSQL schema (the `search_path` of its connections). */
export async function openPostgres(): Promise<ScratchDatabase> {
  const scratch = await createScratchPostgresSchema()
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 })
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 4 }) }),
  })
  return {
    dialect: 'postgres',
    db,
    pgPool: pool,
    exec: async (ddl) => {
      await pool.query(ddl)
    },
    query: async (text, values = []) => (await pool.query(text, values)).rows as Record<string, unknown>[],
    close: async () => {
      await db.destroy()
      await pool.end()
      await scratch.drop()
    },
  }
}

/** A scratch MariaDB/MySQL database; both connections read and write dates as UTC. */
export async function openMysql(): Promise<ScratchDatabase> {
  const scratch = await createScratchMysqlDatabase()
  const raw = createPromisePool({ uri: scratch.url, timezone: 'Z', connectionLimit: 2, multipleStatements: true })
  const db = new Kysely<unknown>({
    dialect: new MysqlDialect({ pool: createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 4 }) }),
  })
  return {
    dialect: 'mysql',
    db,
    mysqlPool: raw,
    exec: async (ddl) => {
      await raw.query(ddl)
    },
    query: async (text, values = []) => {
      const [rows] = await raw.query(text, values)
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []
    },
    close: async () => {
      await db.destroy()
      await raw.end()
      await scratch.drop()
    },
  }
}

/** A scratch SQLite file. */
export function openSqlite(): ScratchDatabase {
  const file = join(tmpdir(), `${scratchName()}.sqlite`)
  const raw = new Database(file)
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) })
  return {
    dialect: 'sqlite',
    db,
    sqlite: raw,
    exec: async (ddl) => {
      raw.exec(ddl)
    },
    query: async (text, values = []) => {
      const statement = raw.prepare(text)
      return statement.reader ? (statement.all(...values) as Record<string, unknown>[]) : (statement.run(...values), [])
    },
    close: async () => {
      raw.close()
      await db.destroy()
      for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true })
    },
  }
}
