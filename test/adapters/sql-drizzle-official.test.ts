/**
 * `@auth/drizzle-adapter` itself (with drizzle-orm, which needs no code generator) on the tables drizzle-kit makes
 * for its default schema, beside `KyselyAdapter(db, { schema: schemas.drizzle })` on the same database: what one
 * writes the other reads, on PostgreSQL, MariaDB and SQLite.
 */
import { randomUUID } from 'node:crypto'
import type { Adapter as AuthJsAdapter } from '@auth/core/adapters'
import { DrizzleAdapter } from '@auth/drizzle-adapter'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, schemas } from '../../adapters/sql/index.js'
import { describeWithService, probeMysql, probePostgres, type ServiceProbe } from '../support/services.js'
import { foreignSchemaDdl, type Dialect } from './authjs-ddl.js'
import { openMysql, openPostgres, openSqlite, type ScratchDatabase } from './sql-databases.js'

const usedMethods = [
  'createUser',
  'linkAccount',
  'createSession',
  'createVerificationToken',
  'createAuthenticator',
  'getUserByAccount',
  'getSessionAndUser',
  'useVerificationToken',
  'getAuthenticator',
  'getUser',
] as const
type DrizzleMethods = Required<Pick<AuthJsAdapter, (typeof usedMethods)[number]>>

/** The official Drizzle adapter on the scratch database's own driver handle. */
function officialDrizzle(db: ScratchDatabase): DrizzleMethods {
  const adapter = db.pgPool
    ? DrizzleAdapter(drizzlePostgres(db.pgPool))
    : db.mysqlPool
      ? DrizzleAdapter(drizzleMysql(db.mysqlPool))
      : db.sqlite
        ? DrizzleAdapter(drizzleSqlite(db.sqlite))
        : undefined
  if (!adapter) throw new Error('no driver handle for the Drizzle adapter')
  const missing = usedMethods.filter((name) => typeof adapter[name] !== 'function')
  if (missing.length > 0) throw new Error(`@auth/drizzle-adapter lacks ${missing.join(', ')}`)
  return adapter as DrizzleMethods
}

const engines: { dialect: Dialect; service: string; probe: ServiceProbe; open: () => Promise<ScratchDatabase> }[] = [
  { dialect: 'postgres', service: 'postgres', probe: probePostgres, open: openPostgres },
  { dialect: 'mysql', service: 'mariadb', probe: probeMysql, open: openMysql },
  { dialect: 'sqlite', service: 'sqlite', probe: async () => {}, open: async () => openSqlite() },
]

for (const engine of engines) {
  await describeWithService(engine.service, engine.probe, () => {
    describe(`@auth/drizzle-adapter and schemas.drizzle on one database (${engine.dialect})`, () => {
      let db: ScratchDatabase
      beforeAll(async () => {
        db = await engine.open()
        await db.exec(foreignSchemaDdl('drizzle', engine.dialect) ?? '')
      })
      afterAll(async () => {
        await db?.close()
      })

      // Whole seconds: Drizzle's MySQL tables keep session and token expiry without fractions.
      const expires = new Date('2036-06-01T12:34:56.000Z')
      const verified = new Date('2024-02-29T12:34:56.789Z')

      it('what the Drizzle adapter writes, Authchart reads', async () => {
        const them = officialDrizzle(db)
        const user = await them.createUser({
          id: randomUUID(),
          email: `${randomUUID()}@example.com`,
          emailVerified: verified,
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
        await them.createSession({ sessionToken: 'drizzle-written', userId: user.id, expires })
        const token = { identifier: user.email, token: randomUUID(), expires }
        await them.createVerificationToken(token)
        await them.createAuthenticator({
          credentialID: 'drizzle-cred',
          userId: user.id,
          providerAccountId: 'pa',
          credentialPublicKey: 'pk',
          counter: 5,
          credentialDeviceType: 'multiDevice',
          credentialBackedUp: true,
          transports: 'internal',
        })

        const ours = KyselyAdapter(db.db, { schema: schemas.drizzle })
        const read = await ours.getUser(user.id)
        expect(read).toMatchObject({ id: user.id, email: user.email, name: 'Ada' })
        expect(read?.emailVerified?.getTime()).toBe(verified.getTime())
        expect(await ours.getAccount(providerAccountId, 'example-idp')).toMatchObject({
          userId: user.id,
          access_token: 'at',
          expires_at: 2_000_000_000,
        })
        const found = await ours.getSessionAndUser('drizzle-written')
        expect(found?.user.id).toBe(user.id)
        expect(found?.session.expires.getTime()).toBe(expires.getTime())
        expect(await ours.getAuthenticator('drizzle-cred')).toMatchObject({
          userId: user.id,
          counter: 5,
          credentialBackedUp: true,
        })
        expect((await ours.useVerificationToken(token))?.expires.getTime()).toBe(expires.getTime())
      })

      it('what Authchart writes, the Drizzle adapter reads', async () => {
        const ours = KyselyAdapter(db.db, { schema: schemas.drizzle })
        const user = await ours.createUser({
          id: randomUUID(),
          email: `${randomUUID()}@example.com`,
          emailVerified: verified,
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
        await ours.createSession({ sessionToken: 'ours-written', userId: user.id, expires })
        const token = { identifier: user.email, token: randomUUID(), expires }
        await ours.createVerificationToken(token)
        await ours.createAuthenticator({
          credentialID: 'ours-cred',
          userId: user.id,
          providerAccountId: 'pa',
          credentialPublicKey: 'pk',
          counter: 0,
          credentialDeviceType: 'singleDevice',
          credentialBackedUp: false,
          transports: null,
        })

        const them = officialDrizzle(db)
        const byAccount = await them.getUserByAccount({ provider: 'github', providerAccountId })
        expect(byAccount).toMatchObject({ id: user.id, email: user.email })
        expect(byAccount?.emailVerified?.getTime()).toBe(verified.getTime())
        const found = await them.getSessionAndUser('ours-written')
        expect(found?.user.id).toBe(user.id)
        expect(found?.session.expires.getTime()).toBe(expires.getTime())
        expect(await them.getAuthenticator('ours-cred')).toMatchObject({
          userId: user.id,
          counter: 0,
          credentialBackedUp: false,
        })
        expect((await them.useVerificationToken(token))?.expires.getTime()).toBe(expires.getTime())
      })
    })
  })
}
