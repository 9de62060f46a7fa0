/**
 * MySQL before 8.0.2 and MariaDB before 10.10 default to `explicit_defaults_for_timestamp = OFF`, under which a bare
 * TIMESTAMP column becomes NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP. The local MariaDB has the
 * modern default, so the old behaviour is switched on per connection to show that `migrate` still makes
 * `User.emailVerified` nullable: otherwise every new user would look e-mail-verified.
 */
import { Kysely, MysqlDialect, sql } from 'kysely'
import { createPool } from 'mysql2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import {
  createScratchMysqlDatabase,
  describeWithService,
  probeMysql,
  type ScratchMysqlDatabase,
} from '../support/services.js'

await describeWithService('mariadb', probeMysql, () => {
  describe('migrate on a server with explicit_defaults_for_timestamp off', () => {
    let scratch: ScratchMysqlDatabase
    let db: Kysely<unknown>

    beforeAll(async () => {
      scratch = await createScratchMysqlDatabase()
      const pool = createPool({ uri: scratch.url, timezone: 'Z', connectionLimit: 2 })
      pool.on('connection', (connection) => {
        connection.query('set session explicit_defaults_for_timestamp = OFF')
      })
      db = new Kysely({ dialect: new MysqlDialect({ pool }) })
      await migrate(db)
    })

    afterAll(async () => {
      await db?.destroy()
      await scratch?.drop()
    })

    it('creates User.emailVerified as NULL DEFAULT NULL', async () => {
      const { rows } = await sql<{ 'Create Table': string }>`show create table \`User\``.execute(db)
      expect(rows[0]?.['Create Table']).toMatch(/`emailVerified` datetime\(3\) (NULL )?DEFAULT NULL/)
    })

    it('keeps a new user unverified', async () => {
      const adapter = KyselyAdapter(db)
      const user = await adapter.createUser({
        id: '00000000-0000-4000-8000-000000000001',
        email: 'new@example.test',
        emailVerified: null,
      })
      expect(user.emailVerified).toBeNull()
      expect((await adapter.getUser(user.id))?.emailVerified).toBeNull()
    })
  })
})
