/**
 * Factor enrolment and management (docs/second-factors.md, "Enrolment") on the memory adapter and on the SQL adapter
 * over PostgreSQL; the scenarios are test/core/factor-enrolment-suite.ts.
 */
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { Auth } from '../../src/index.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { origin, testConfig } from '../support/auth-harness.js'
import { factorEnrolmentSuite, withUsers } from './factor-enrolment-suite.js'

describe('factor enrolment on the memory adapter', () => {
  factorEnrolmentSuite(() => withUsers(MemoryAdapter()))

  it('is an unknown action without an adapter that stores factors', async () => {
    const { createFactor: _c, listFactorsByUserId: _l, deleteFactor: _d, ...withoutFactors } = MemoryAdapter()
    const config = testConfig({ adapter: withoutFactors })
    const answer = await Auth(new Request(`${origin}/auth/factors`), config)
    // The error page of Auth.js's UnknownAction, as for any action this config does not serve.
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toContain('/auth/error?error=')
    expect(config.recorded.errors.map((e) => e.name)).toContain('UnknownAction')
  })
})

await describeWithService('postgres', probePostgres, () => {
  describe('factor enrolment on PostgreSQL (KyselyAdapter)', () => {
    let scratch: ScratchPostgresSchema
    let db: Kysely<unknown>

    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      db = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 4 }) }),
      })
      await migrate(db)
    })
    afterAll(async () => {
      await db?.destroy()
      await scratch?.drop()
    })

    factorEnrolmentSuite(async () => {
      await sql`delete from "User"`.execute(db)
      return withUsers(KyselyAdapter(db))
    })
  })
})
