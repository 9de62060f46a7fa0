import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { afterAll, beforeAll, describe } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { scratchName } from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { dialectKilledAfter } from './connection-killer.js'
import { sqlBackendSuite } from './sql-backend-suite.js'
import { sqlStoreReaders } from './sql-store-readers.js'

describe('KyselyAdapter on SQLite (better-sqlite3)', () => {
  const file = join(tmpdir(), `${scratchName()}.sqlite`)
  let db: Kysely<unknown>
  let raw: Database.Database

  beforeAll(async () => {
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(file) }) })
    await migrate(db)
    await sql`alter table "User" add column "role" text`.execute(db)
    raw = new Database(file, { readonly: true })
  })

  afterAll(async () => {
    raw?.close()
    await db?.destroy()
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  })

  const store = () => sqlStoreReaders('sqlite', async (text, values) => raw.prepare(text).all(...values) as object[])
  adapterConformanceSuite(async () => ({ adapter: KyselyAdapter(db), store: store() }))
  sqlBackendSuite({
    dialect: 'sqlite',
    db: () => db,
    store,
    openKillable: (trigger) => {
      const database = new Database(file)
      return new Kysely({ dialect: dialectKilledAfter(new SqliteDialect({ database }), trigger, async () => { database.close() }) })
    },
  })
})
