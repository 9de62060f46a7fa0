import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { createScratchPostgresSchema, describeWithService, probePostgres, type ScratchPostgresSchema } from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { sqlStoreReaders } from './sql-store-readers.js'

await describeWithService('postgres', probePostgres, () => {
  describe('KyselyAdapter on PostgreSQL (pg)', () => {
    let scratch: ScratchPostgresSchema
    let db: Kysely<unknown>
    let raw: pg.Pool

    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 10 }) }) })
      await migrate(db)
      await sql`alter table "User" add column "role" text`.execute(db)
      raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
    })

    afterAll(async () => {
      await raw?.end()
      await db?.destroy()
      await scratch?.drop()
    })

    adapterConformanceSuite(async () => ({
      adapter: KyselyAdapter(db),
      store: sqlStoreReaders('postgres', async (text, values) => (await raw.query(text, values)).rows),
    }))
  })
})
