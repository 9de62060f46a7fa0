import { Kysely, MysqlDialect, sql } from 'kysely'
import { createPool } from 'mysql2'
import { createPool as createPromisePool, type Pool } from 'mysql2/promise'
import { afterAll, beforeAll, describe } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import {
  createScratchMysqlDatabase,
  describeWithService,
  probeMysql,
  type ScratchMysqlDatabase,
} from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { dialectKilledAfter, killMysqlConnection } from './connection-killer.js'
import { sqlBackendSuite } from './sql-backend-suite.js'
import { sqlFactorStoreReaders, sqlStoreReaders } from './sql-store-readers.js'

await describeWithService('mariadb', probeMysql, () => {
  describe('KyselyAdapter on MariaDB/MySQL (mysql2)', () => {
    let scratch: ScratchMysqlDatabase
    let db: Kysely<unknown>
    let raw: Pool

    beforeAll(async () => {
      scratch = await createScratchMysqlDatabase()
      // timezone 'Z': mysql2 writes and reads DATETIME/TIMESTAMP values as UTC, so Dates round-trip exactly.
      db = new Kysely({
        dialect: new MysqlDialect({ pool: createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 10 }) }),
      })
      await migrate(db)
      await sql`alter table \`User\` add column \`role\` text`.execute(db)
      raw = createPromisePool({ uri: scratch.url, timezone: 'Z', connectionLimit: 2 })
    })

    afterAll(async () => {
      await raw?.end()
      await db?.destroy()
      await scratch?.drop()
    })

    const rawQuery = async (text: string, values: unknown[]) => {
      const [rows] = await raw.query(text, values)
      return Array.isArray(rows) ? rows : []
    }
    const store = () => sqlStoreReaders('mysql', rawQuery)
    adapterConformanceSuite(async () => ({
      adapter: KyselyAdapter(db),
      store: store(),
      factorStore: sqlFactorStoreReaders('mysql', rawQuery),
    }))
    sqlBackendSuite({
      dialect: 'mysql',
      db: () => db,
      store,
      openKillable: (trigger) =>
        new Kysely({
          dialect: dialectKilledAfter(
            new MysqlDialect({ pool: createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 1 }) }),
            trigger,
            killMysqlConnection(raw),
          ),
        }),
    })
  })
})
