/**
 * `KyselyAdapter(db, { schema })` on the databases Auth.js's other SQL adapters made, as they stand:
 * - `@auth/pg-adapter`: its official package runs here (it needs only pg), so rows go both ways through it;
 * - Prisma and Drizzle: the tables are created with the DDL their tools produce (authjs-ddl.ts), rows are written
 *   the way those adapters write them (ids made by the client, Prisma's `updatedAt`, dates as each column type
 *   stores them), and what Authchart writes is checked to be stored the way those ORMs read it back. Prisma itself
 *   does not run here: its adapter needs a client made by `prisma generate`, which these tests do not run. The
 *   Drizzle adapter needs no generator and runs as the official package in sql-drizzle-official.test.ts.
 * The conformance suite runs on every mapping too, on a copy of the schema with the `role` column it needs (and,
 * for pg-adapter's schema, the unique indexes and passkey table the docs advise adding).
 */
import { randomUUID } from 'node:crypto'
import PostgresAdapter from '@auth/pg-adapter'
import type { Adapter as AuthJsAdapter } from '@auth/core/adapters'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, schemas, type SchemaMapping } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'
import { describeWithService, probeMysql, probePostgres, type ServiceProbe } from '../support/services.js'
import { foreignSchemaDdl, pgAdapterAdditions, type Dialect, type ForeignSchema } from './authjs-ddl.js'
import { adapterConformanceSuite } from './conformance.js'
import { openMysql, openPostgres, openSqlite, type ScratchDatabase } from './sql-databases.js'
import { sqlStoreReaders } from './sql-store-readers.js'

const engines: Record<Dialect, { service: string; probe: ServiceProbe; open: () => Promise<ScratchDatabase> }> = {
  postgres: { service: 'postgres', probe: probePostgres, open: openPostgres },
  mysql: { service: 'mariadb', probe: probeMysql, open: openMysql },
  sqlite: { service: 'sqlite', probe: async () => {}, open: async () => openSqlite() },
}

const combinations: { schema: ForeignSchema; dialect: Dialect }[] = [
  { schema: 'prisma', dialect: 'postgres' },
  { schema: 'prisma', dialect: 'mysql' },
  { schema: 'prisma', dialect: 'sqlite' },
  { schema: 'drizzle', dialect: 'postgres' },
  { schema: 'drizzle', dialect: 'mysql' },
  { schema: 'drizzle', dialect: 'sqlite' },
  { schema: 'pgAdapter', dialect: 'postgres' },
]

const quote = (dialect: Dialect, name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)

/** Inserts one row with plain SQL, as an ORM's generated statement would. */
async function insertRow(db: ScratchDatabase, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row)
  const placeholders = columns.map((_, index) => (db.dialect === 'postgres' ? `$${index + 1}` : '?'))
  await db.query(
    `insert into ${quote(db.dialect, table)} (${columns.map((c) => quote(db.dialect, c)).join(', ')}) values (${placeholders.join(', ')})`,
    Object.values(row),
  )
}

/** Reads one row with plain SQL. */
async function selectRow(
  db: ScratchDatabase,
  table: string,
  column: string,
  value: unknown,
): Promise<Record<string, unknown> | undefined> {
  const placeholder = db.dialect === 'postgres' ? '$1' : '?'
  const rows = await db.query(
    `select * from ${quote(db.dialect, table)} where ${quote(db.dialect, column)} = ${placeholder}`,
    [value],
  )
  return rows[0]
}

/**
 * A date as Prisma and Drizzle send it: UTC wall-clock text to PostgreSQL `timestamp` (the zone is dropped), a Date
 * to mysql2 (UTC with `timezone: 'Z'`), integer milliseconds to SQLite.
 */
function ormDate(dialect: Dialect, date: Date): unknown {
  if (dialect === 'sqlite') return date.getTime()
  if (dialect === 'postgres') return date.toISOString()
  return date
}

/** A date column's raw value as the ORM reads it back. */
function ormReadsDate(dialect: Dialect, value: unknown): number {
  if (dialect === 'sqlite') return typeof value === 'number' ? value : Number.NaN
  // pg hands `timestamp` without zone back as local time; the process runs in UTC in CI, and both ORMs read UTC.
  if (value instanceof Date)
    return dialect === 'postgres' ? value.getTime() - value.getTimezoneOffset() * 60_000 : value.getTime()
  return Number.NaN
}

for (const { schema: schemaName, dialect } of combinations) {
  const engine = engines[dialect]
  const schema: SchemaMapping = schemas[schemaName]
  const ddl = foreignSchemaDdl(schemaName, dialect) ?? ''
  const t = schema.tables
  const ownsIds = schemaName === 'pgAdapter'

  await describeWithService(engine.service, engine.probe, () => {
    describe(`the ${schemaName} schema on ${dialect}: rows go both ways`, () => {
      let db: ScratchDatabase
      beforeAll(async () => {
        db = await engine.open()
        await db.exec(ddl)
      })
      afterAll(async () => {
        await db?.close()
      })

      if (schemaName === 'pgAdapter') {
        const official = () =>
          PostgresAdapter(db.pgPool as NonNullable<ScratchDatabase['pgPool']>) as Required<
            Pick<
              AuthJsAdapter,
              | 'createUser'
              | 'linkAccount'
              | 'createSession'
              | 'createVerificationToken'
              | 'getUserByAccount'
              | 'getSessionAndUser'
              | 'useVerificationToken'
              | 'getUser'
            >
          >

        it('@auth/pg-adapter writes a user, account, session and token; Authchart reads them, integer ids as strings', async () => {
          const them = official()
          const user = await them.createUser({
            id: randomUUID(),
            email: `${randomUUID()}@example.com`,
            emailVerified: new Date('2024-02-29T12:34:56.789Z'),
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
          const expires = new Date('2040-06-01T12:34:56.789Z')
          await them.createSession({ sessionToken: 'pg-written', userId: user.id, expires })
          const token = { identifier: user.email, token: randomUUID(), expires }
          await them.createVerificationToken(token)

          const ours = KyselyAdapter(db.db, { schema })
          const read = await ours.getUser(String(user.id))
          expect(read).toMatchObject({ id: String(user.id), email: user.email, name: 'Ada' })
          expect(read?.emailVerified?.getTime()).toBe(user.emailVerified?.getTime())
          expect(await ours.getUserByAccount({ provider: 'example-idp', providerAccountId })).toMatchObject({
            id: String(user.id),
          })
          expect(await ours.getAccount(providerAccountId, 'example-idp')).toMatchObject({
            userId: String(user.id),
            expires_at: 2_000_000_000,
          })
          const found = await ours.getSessionAndUser('pg-written')
          expect(found?.session.expires.getTime()).toBe(expires.getTime())
          expect(found?.user.id).toBe(String(user.id))
          expect((await ours.useVerificationToken(token))?.expires.getTime()).toBe(expires.getTime())
          expect(await ours.getUser('not-a-number')).toBeNull()
        })

        it('Authchart writes a user (the database numbers it), account, session and token; @auth/pg-adapter reads them', async () => {
          const ours = KyselyAdapter(db.db, { schema })
          const user = await ours.createUser({
            id: randomUUID(),
            email: `${randomUUID()}@example.com`,
            emailVerified: null,
            name: 'Grace',
            image: null,
          })
          expect(user.id).toMatch(/^\d+$/)
          const providerAccountId = randomUUID()
          await ours.linkAccount({
            userId: user.id,
            type: 'oauth',
            provider: 'github',
            providerAccountId,
            access_token: 'gho',
          })
          const expires = new Date('2040-06-01T12:34:56.789Z')
          await ours.createSession({ sessionToken: 'ours-written', userId: user.id, expires })
          const token = { identifier: user.email, token: randomUUID(), expires }
          await ours.createVerificationToken(token)

          const them = official()
          expect(await them.getUserByAccount({ provider: 'github', providerAccountId })).toMatchObject({
            id: Number(user.id),
            email: user.email,
          })
          const found = await them.getSessionAndUser('ours-written')
          expect(found?.user).toMatchObject({ id: Number(user.id) })
          expect(found?.session.expires.getTime()).toBe(expires.getTime())
          expect(await them.useVerificationToken(token)).toMatchObject({ identifier: user.email })
          expect(await ours.deleteUser(user.id)).toMatchObject({ id: user.id })
          expect(await them.getUser(user.id)).toBeNull()
          expect(await them.getSessionAndUser('ours-written')).toBeNull()
        })

        it('a passkey call on the schema as documented (no authenticators table) names the missing table', async () => {
          const failure = await Promise.resolve(KyselyAdapter(db.db, { schema }).listAuthenticatorsByUserId('1')).catch(
            (err: unknown) => err,
          )
          expect(failure).toBeInstanceOf(AdapterError)
          expect((failure as AdapterError).message).toBe(
            'listAuthenticatorsByUserId: table "authenticators" (Authenticator in the "pgAdapter" schema) does not exist; create it with the tool that made the others',
          )
        })
        return
      }

      const prisma = schemaName === 'prisma'
      const date = (value: Date) => ormDate(dialect, value)
      const bool = (value: boolean) => (dialect === 'postgres' ? value : value ? 1 : 0)
      const touched = (fields: Record<string, unknown>) =>
        prisma ? { ...fields, updatedAt: date(new Date()) } : fields

      it(`rows written as the ${schemaName} adapter writes them are read by Authchart`, async () => {
        const userId = prisma ? `c${randomUUID().replaceAll('-', '').slice(0, 24)}` : randomUUID()
        const email = `${randomUUID()}@example.com`
        const verified = new Date('2024-02-29T12:34:56.789Z')
        const expires = new Date('2036-06-01T12:34:56.000Z')
        await insertRow(
          db,
          t.User,
          touched({ id: userId, name: 'Ada', email, emailVerified: date(verified), image: null }),
        )
        const providerAccountId = randomUUID()
        await insertRow(
          db,
          t.Account,
          touched({
            userId,
            type: 'oidc',
            provider: 'example-idp',
            providerAccountId,
            access_token: 'at',
            expires_at: 2_000_000_000,
          }),
        )
        await insertRow(
          db,
          t.Session,
          touched({ sessionToken: `${schemaName}-written`, userId, expires: date(expires) }),
        )
        await insertRow(db, t.VerificationToken, {
          identifier: email,
          token: `${schemaName}-token`,
          expires: date(expires),
        })
        await insertRow(db, t.Authenticator, {
          credentialID: `${schemaName}-cred`,
          userId,
          providerAccountId: 'pa',
          credentialPublicKey: 'pk',
          counter: 3,
          credentialDeviceType: 'multiDevice',
          credentialBackedUp: bool(true),
          transports: 'internal',
        })

        const ours = KyselyAdapter(db.db, { schema })
        const user = await ours.getUserByEmail(email)
        expect(user).toMatchObject({ id: userId, name: 'Ada' })
        expect(user?.emailVerified?.getTime()).toBe(verified.getTime())
        expect(await ours.getUserByAccount({ provider: 'example-idp', providerAccountId })).toMatchObject({
          id: userId,
        })
        const found = await ours.getSessionAndUser(`${schemaName}-written`)
        expect(found?.session.expires.getTime()).toBe(expires.getTime())
        expect(found?.user.id).toBe(userId)
        expect(await ours.getAuthenticator(`${schemaName}-cred`)).toMatchObject({
          userId,
          counter: 3,
          credentialBackedUp: true,
        })
        expect(
          (await ours.useVerificationToken({ identifier: email, token: `${schemaName}-token` }))?.expires.getTime(),
        ).toBe(expires.getTime())
      })

      it(`rows Authchart writes are stored as the ${schemaName} adapter reads them`, async () => {
        const ours = KyselyAdapter(db.db, { schema })
        const verified = new Date('2025-01-02T03:04:05.678Z')
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
        const expires = new Date('2036-06-01T12:34:56.000Z')
        await ours.createSession({ sessionToken: `${schemaName}-ours`, userId: user.id, expires })
        await ours.createAuthenticator({
          credentialID: `${schemaName}-ours-cred`,
          userId: user.id,
          providerAccountId: 'pa',
          credentialPublicKey: 'pk',
          counter: 0,
          credentialDeviceType: 'singleDevice',
          credentialBackedUp: false,
          transports: null,
        })

        const userRow = await selectRow(db, t.User, 'id', user.id)
        expect(ormReadsDate(dialect, userRow?.emailVerified)).toBe(verified.getTime())
        if (prisma) expect(ormReadsDate(dialect, userRow?.updatedAt)).toBeGreaterThan(Date.now() - 60_000)
        const sessionRow = await selectRow(db, t.Session, 'sessionToken', `${schemaName}-ours`)
        expect(sessionRow).toMatchObject({ userId: user.id })
        expect(ormReadsDate(dialect, sessionRow?.expires)).toBe(expires.getTime())
        expect(await selectRow(db, t.Account, 'providerAccountId', providerAccountId)).toMatchObject({
          userId: user.id,
          provider: 'github',
        })
        expect(await selectRow(db, t.Authenticator, 'credentialID', `${schemaName}-ours-cred`)).toMatchObject({
          counter: 0,
          credentialBackedUp: bool(false),
        })

        // updateUser keeps Prisma's updatedAt current, as Prisma's client does.
        await ours.updateUser({ id: user.id, name: 'Grace H.' })
        expect(await selectRow(db, t.User, 'id', user.id)).toMatchObject({ name: 'Grace H.' })
      })
    })

    describe(`the ${schemaName} schema on ${dialect}: adapter conformance`, () => {
      let db: ScratchDatabase
      beforeAll(async () => {
        db = await engine.open()
        await db.exec(ddl)
        await db.exec(`alter table ${quote(dialect, t.User)} add column ${quote(dialect, 'role')} text`)
        if (ownsIds) await db.exec(pgAdapterAdditions)
      })
      afterAll(async () => {
        await db?.close()
      })

      adapterConformanceSuite(
        async () => ({
          adapter: KyselyAdapter(db.db, { schema }),
          store: sqlStoreReaders(dialect, (text, values) => db.query(text, values), schema, ownsIds),
          // Drizzle's MySQL tables keep session and token expiry in TIMESTAMP without fractions.
          traits: {
            assignsUserIds: ownsIds,
            expiryPrecisionMs: schemaName === 'drizzle' && dialect === 'mysql' ? 1000 : 1,
          },
          // Auth.js's schemas have no second-factor tables, nor the session record's columns.
        }),
        { factors: false, sessionRecordColumns: false },
      )
    })
  })
}
