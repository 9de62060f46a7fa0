/**
 * Tables made by `migrate()` serve `@auth/kysely-adapter` (the official package, run as it is) and Authchart's
 * adapter side by side, on all three engines: what one writes the other reads. The official adapter writes accounts
 * and sessions without an id, so this holds only because `migrate` gives `id` a database default everywhere.
 * Sessions expire in 2040, past the end of MySQL's TIMESTAMP range.
 */
import { randomUUID } from 'node:crypto'
import { KyselyAdapter as OfficialKyselyAdapter } from '@auth/kysely-adapter'
import type { Adapter as AuthJsAdapter } from '@auth/core/adapters'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { describeWithService, probeMysql, probePostgres, type ServiceProbe } from '../support/services.js'
import type { Dialect } from './authjs-ddl.js'
import { openMysql, openPostgres, openSqlite, type ScratchDatabase } from './sql-databases.js'

// MariaDB's uuid() is version 1, PostgreSQL's and the SQLite default's version 4.
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const officialMethods = [
  'createUser',
  'linkAccount',
  'createSession',
  'createVerificationToken',
  'getUserByAccount',
  'getSessionAndUser',
  'updateSession',
  'useVerificationToken',
] as const
type OfficialAdapter = Required<Pick<AuthJsAdapter, (typeof officialMethods)[number]>>

/** `@auth/kysely-adapter` on `db`, checked to have the methods these tests call. */
function officialAdapter(db: Kysely<unknown>): OfficialAdapter {
  const adapter = OfficialKyselyAdapter(db)
  const missing = officialMethods.filter((name) => typeof adapter[name] !== 'function')
  if (missing.length > 0) throw new Error(`@auth/kysely-adapter lacks ${missing.join(', ')}`)
  return adapter as OfficialAdapter
}
const in2040 = new Date('2040-06-01T12:34:56.789Z')
const in2041 = new Date('2041-01-02T03:04:05.678Z')

const engines: { dialect: Dialect; service: string; probe: ServiceProbe; open: () => Promise<ScratchDatabase> }[] = [
  { dialect: 'postgres', service: 'postgres', probe: probePostgres, open: openPostgres },
  { dialect: 'mysql', service: 'mariadb', probe: probeMysql, open: openMysql },
  { dialect: 'sqlite', service: 'sqlite', probe: async () => {}, open: async () => openSqlite() },
]

const quote = (dialect: Dialect, name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
const param = (dialect: Dialect) => (dialect === 'postgres' ? '$1' : '?')

for (const engine of engines) {
  await describeWithService(engine.service, engine.probe, () => {
    describe(`migrate() tables shared with @auth/kysely-adapter (${engine.dialect})`, () => {
      let scratch: ScratchDatabase
      beforeAll(async () => {
        scratch = await engine.open()
        await migrate(scratch.db)
      })
      afterAll(async () => {
        await scratch?.close()
      })

      const official = () => officialAdapter(scratch.db)
      const idOf = async (table: string, column: string, value: string) => {
        const rows = await scratch.query(
          `select ${quote(engine.dialect, 'id')} as id from ${quote(engine.dialect, table)} where ${quote(engine.dialect, column)} = ${param(engine.dialect)}`,
          [value],
        )
        return rows[0]?.id
      }

      it('the official adapter links an account and opens a 2040 session; the rows get ids; Authchart reads them', async () => {
        const them = official()
        const user = await them.createUser({
          id: '',
          email: `${randomUUID()}@example.com`,
          emailVerified: null,
          name: 'Ada',
          image: null,
        })
        const providerAccountId = randomUUID()
        await them.linkAccount({
          userId: user.id,
          type: 'oidc',
          provider: 'example-idp',
          providerAccountId,
          access_token: 'at',
          expires_at: 2_000_000_000,
        })
        const sessionToken = randomUUID()
        await them.createSession({ sessionToken, userId: user.id, expires: in2040 })
        const token = { identifier: user.email, token: randomUUID(), expires: in2041 }
        await them.createVerificationToken(token)

        expect(String(await idOf('Account', 'providerAccountId', providerAccountId))).toMatch(uuid)
        expect(String(await idOf('Session', 'sessionToken', sessionToken))).toMatch(uuid)
        const otherSession = randomUUID()
        await them.createSession({ sessionToken: otherSession, userId: user.id, expires: in2040 })
        expect(await idOf('Session', 'sessionToken', otherSession)).not.toBe(
          await idOf('Session', 'sessionToken', sessionToken),
        )

        const ours = KyselyAdapter(scratch.db)
        expect(await ours.getUserByAccount({ provider: 'example-idp', providerAccountId })).toMatchObject({
          id: user.id,
          email: user.email,
        })
        expect(await ours.getAccount(providerAccountId, 'example-idp')).toMatchObject({
          userId: user.id,
          access_token: 'at',
          expires_at: 2_000_000_000,
        })
        const found = await ours.getSessionAndUser(sessionToken)
        expect(found?.user.id).toBe(user.id)
        expect(found?.session.expires.getTime()).toBe(in2040.getTime())
        expect((await ours.useVerificationToken(token))?.expires.getTime()).toBe(in2041.getTime())
      })

      it('Authchart writes a user, account, 2040 session and token; the official adapter reads and updates them', async () => {
        const ours = KyselyAdapter(scratch.db)
        const them = official()
        const user = await ours.createUser({
          id: randomUUID(),
          email: `${randomUUID()}@example.com`,
          emailVerified: new Date('2024-02-29T12:34:56.789Z'),
          name: 'Grace',
          image: null,
        })
        const providerAccountId = randomUUID()
        await ours.linkAccount({
          userId: user.id,
          type: 'oauth',
          provider: 'github',
          providerAccountId,
          access_token: 'gho',
        })
        const sessionToken = randomUUID()
        await ours.createSession({ sessionToken, userId: user.id, expires: in2040 })
        const token = { identifier: user.email, token: randomUUID(), expires: in2041 }
        await ours.createVerificationToken(token)

        const byAccount = await them.getUserByAccount({ provider: 'github', providerAccountId })
        expect(byAccount).toMatchObject({ id: user.id, email: user.email })
        expect(byAccount?.emailVerified?.getTime()).toBe(user.emailVerified?.getTime())
        const found = await them.getSessionAndUser(sessionToken)
        expect(found?.user.id).toBe(user.id)
        expect(new Date(found?.session.expires ?? 0).getTime()).toBe(in2040.getTime())
        await them.updateSession({ sessionToken, expires: in2041 })
        expect((await ours.getSessionAndUser(sessionToken))?.session.expires.getTime()).toBe(in2041.getTime())
        expect((await them.useVerificationToken(token))?.identifier).toBe(user.email)
        expect(await ours.useVerificationToken(token)).toBeNull()
      })
    })
  })
}
