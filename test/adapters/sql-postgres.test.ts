import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { dialectKilledAfter, killPostgresConnection } from './connection-killer.js'
import { sqlBackendSuite } from './sql-backend-suite.js'
import { sqlFactorStoreReaders, sqlStoreReaders } from './sql-store-readers.js'

await describeWithService('postgres', probePostgres, () => {
  describe('KyselyAdapter on PostgreSQL (pg)', () => {
    let scratch: ScratchPostgresSchema
    let db: Kysely<unknown>
    let raw: pg.Pool

    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      db = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 10 }) }),
      })
      await migrate(db)
      await sql`alter table "User" add column "role" text`.execute(db)
      raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
    })

    afterAll(async () => {
      await raw?.end()
      await db?.destroy()
      await scratch?.drop()
    })

    const store = () => sqlStoreReaders('postgres', async (text, values) => (await raw.query(text, values)).rows)
    adapterConformanceSuite(async () => ({
      adapter: KyselyAdapter(db),
      store: store(),
      factorStore: sqlFactorStoreReaders('postgres', async (text, values) => (await raw.query(text, values)).rows),
    }))
    sqlBackendSuite({
      dialect: 'postgres',
      db: () => db,
      store,
      openKillable: (trigger) => {
        const pool = new pg.Pool({ connectionString: scratch.url, max: 1 })
        // pg reports a connection lost while checked out as an 'error' event on the client, which crashes the
        // process when nobody listens; the adapter learns of it from the next query anyway.
        pool.on('connect', (client) => client.on('error', () => {}))
        return new Kysely({
          dialect: dialectKilledAfter(new PostgresDialect({ pool }), trigger, killPostgresConnection(raw)),
        })
      },
    })
  })
})
