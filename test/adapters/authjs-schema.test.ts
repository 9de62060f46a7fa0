/**
 * An app moving from `@auth/kysely-adapter` keeps its database as it is. The database here is made with the
 * schema Auth.js documents for that adapter on PostgreSQL (written out by hand from its column list: uuid ids
 * with gen_random_uuid(), a nullable unique email, the OAuth 1 token columns, two userId indexes, and no
 * Authenticator table, which apps made before WebAuthn support do not have).
 */
import { randomUUID } from 'node:crypto'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate, type MigrationReport } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { inDays, newAccount, newAuthenticator, newUser } from './conformance-fixtures.js'
import { sqlStoreReaders } from './sql-store-readers.js'

const authJsSchema = `
create table "User" (
  "id" uuid primary key default gen_random_uuid(),
  "name" text,
  "email" text unique,
  "emailVerified" timestamptz,
  "image" text
);
create table "Account" (
  "id" uuid primary key default gen_random_uuid(),
  "userId" uuid not null references "User" ("id") on delete cascade,
  "type" text not null,
  "provider" text not null,
  "providerAccountId" text not null,
  "refresh_token" text,
  "access_token" text,
  "expires_at" bigint,
  "token_type" text,
  "scope" text,
  "id_token" text,
  "session_state" text,
  "oauth_token_secret" text,
  "oauth_token" text
);
create table "Session" (
  "id" uuid primary key default gen_random_uuid(),
  "userId" uuid not null references "User" ("id") on delete cascade,
  "sessionToken" text not null unique,
  "expires" timestamptz not null
);
create table "VerificationToken" (
  "identifier" text not null,
  "token" text not null unique,
  "expires" timestamptz not null
);
create index "Account_userId_index" on "Account" ("userId");
create index "Session_userId_index" on "Session" ("userId");
`

/** Everything PostgreSQL knows about the tables of one schema: columns, constraints and indexes, as text. */
/** The session record's columns, as `migrate()` adds them to an existing Session table (docs/adapters.md). */
const recordColumns = ['createdAt', 'lastSeenAt', 'deviceSummary', 'clientAddress', 'method', 'amr', 'authTime']

async function describeSchema(client: pg.Pool, schema: string): Promise<string[]> {
  const { rows: columns } = await client.query<{ line: string }>(
    `
    select concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default) as line
    from information_schema.columns where table_schema = $1 order by table_name, ordinal_position`,
    [schema],
  )
  const { rows: constraints } = await client.query<{ line: string }>(
    `
    select concat_ws(' ', rel.relname, con.conname, pg_get_constraintdef(con.oid)) as line
    from pg_constraint con join pg_class rel on rel.oid = con.conrelid join pg_namespace ns on ns.oid = rel.relnamespace
    where ns.nspname = $1 order by rel.relname, con.conname`,
    [schema],
  )
  const { rows: indexes } = await client.query<{ line: string }>(
    'select indexdef as line from pg_indexes where schemaname = $1 order by indexname',
    [schema],
  )
  return [...columns, ...constraints, ...indexes].map((row) => row.line)
}

await describeWithService('postgres', probePostgres, () => {
  describe('a database made with the Auth.js Kysely schema (PostgreSQL)', () => {
    let scratch: ScratchPostgresSchema
    let raw: pg.Pool
    let db: Kysely<unknown>
    let before: string[]
    let report: MigrationReport

    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
      await raw.query(authJsSchema)
      before = await describeSchema(raw, scratch.schema)
      db = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 5 }) }),
      })
      report = await migrate(db)
    })

    afterAll(async () => {
      await db?.destroy()
      await raw?.end()
      await scratch?.drop()
    })

    it('migrate creates only the missing tables, and adds the session record columns to Session', () => {
      expect(report).toEqual({
        dialect: 'postgres',
        created: ['Authenticator', 'Factor', 'RecoveryCode'],
        existing: ['User', 'Account', 'Session', 'VerificationToken'],
        upgraded: [],
        added: recordColumns.map((column) => `Session.${column}`),
      })
    })

    it('migrate leaves every existing column, constraint and index exactly as it was', async () => {
      const after = await describeSchema(raw, scratch.schema)
      const authenticatorLines = after.filter((line) => line.includes('Authenticator'))
      // The tables migrate added (Authenticator, Factor, RecoveryCode) and the Session record columns are new lines,
      // the latter nullable without a default; every old line is unchanged.
      const recordLines = after.filter((line) => recordColumns.some((column) => line.startsWith(`Session ${column} `)))
      expect(recordLines).toEqual([
        'Session createdAt timestamp with time zone YES',
        'Session lastSeenAt timestamp with time zone YES',
        'Session deviceSummary text YES',
        'Session clientAddress text YES',
        'Session method text YES',
        'Session amr text YES',
        'Session authTime timestamp with time zone YES',
      ])
      const added = [...recordLines, ...after.filter((line) => /Authenticator|Factor|RecoveryCode/.test(line))]
      expect(after.filter((line) => !added.includes(line))).toEqual(before)
      expect(authenticatorLines.some((line) => line.includes('ON DELETE CASCADE'))).toBe(true)
    })

    it('a second migrate changes nothing at all', async () => {
      const snapshot = await describeSchema(raw, scratch.schema)
      expect((await migrate(db)).created).toEqual([])
      expect(await describeSchema(raw, scratch.schema)).toEqual(snapshot)
    })

    it('KyselyAdapter runs a whole user life on it: sign-up, account, session, e-mail token, passkey, deletion', async () => {
      const adapter = KyselyAdapter(db)
      const store = sqlStoreReaders('postgres', async (text, values) => (await raw.query(text, values)).rows)

      const user = await adapter.createUser(newUser())
      // The OAuth 1 columns of the old schema are the app's extra fields: kept, because they have columns.
      const account = newAccount(user.id, { oauth_token: 'oauth1-token', oauth_token_secret: 'oauth1-secret' })
      await adapter.linkAccount(account)
      expect(await adapter.getAccount(account.providerAccountId, account.provider)).toMatchObject({
        oauth_token: 'oauth1-token',
        oauth_token_secret: 'oauth1-secret',
        expires_at: account.expires_at,
      })
      expect(await adapter.getUserByAccount(account)).toMatchObject({ id: user.id })

      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(30) })
      expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id)

      const token = { identifier: user.email, token: randomUUID(), expires: inDays(1) }
      await adapter.createVerificationToken(token)
      expect(await adapter.useVerificationToken(token)).toMatchObject({ identifier: user.email })
      expect(await adapter.useVerificationToken(token)).toBeNull()

      const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id))
      expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([
        expect.objectContaining({ credentialID: authenticator.credentialID }),
      ])

      await adapter.deleteUser(user.id)
      expect(await store.user(user.id)).toBeNull()
      expect(await store.session(session.sessionToken)).toBeNull()
      expect(await store.account(account.provider, account.providerAccountId)).toBeNull()
      expect(await store.authenticator(authenticator.credentialID)).toBeNull()
    })

    it('a user without an email address (allowed by that schema) is stored and read back', async () => {
      const adapter = KyselyAdapter(db)
      const id = randomUUID()
      await raw.query('insert into "User" ("id", "name") values ($1, $2)', [id, 'No Mail'])
      expect(await adapter.getUser(id)).toMatchObject({ id, name: 'No Mail', email: null, emailVerified: null })
    })
  })
})

await describeWithService('postgres', probePostgres, () => {
  describe('the same database before migrate (no Authenticator table yet)', () => {
    let scratch: ScratchPostgresSchema
    let db: Kysely<unknown>

    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      db = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 2 }) }),
      })
      const raw = new pg.Client({ connectionString: scratch.url })
      await raw.connect()
      await raw.query(authJsSchema)
      await raw.end()
    })

    afterAll(async () => {
      await db?.destroy()
      await scratch?.drop()
    })

    it('serves users and sessions, and deleteUser works without the table', async () => {
      const adapter = KyselyAdapter(db)
      const user = await adapter.createUser(newUser())
      const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: inDays(30) })
      expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id)
      expect(await adapter.deleteUser(user.id)).toMatchObject({ id: user.id })
      expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
    })

    it('a passkey call says the Authenticator table is missing and how to create it', async () => {
      const failure = await Promise.resolve(KyselyAdapter(db).listAuthenticatorsByUserId(randomUUID())).catch(
        (err: unknown) => err,
      )
      expect(failure).toBeInstanceOf(AdapterError)
      expect((failure as AdapterError).message).toContain(
        'table "Authenticator" does not exist; create the schema with migrate(db)',
      )
    })
  })
})
