import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { AdapterError } from '../../src/errors.js'
import { scratchName } from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { newAuthenticator, newUser } from './conformance-fixtures.js'
import { dialectKilledAfter } from './connection-killer.js'
import { sqlBackendSuite } from './sql-backend-suite.js'
import { sqlFactorStoreReaders, sqlStoreReaders } from './sql-store-readers.js'

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
  adapterConformanceSuite(async () => ({
    adapter: KyselyAdapter(db),
    store: store(),
    factorStore: sqlFactorStoreReaders('sqlite', async (text, values) => raw.prepare(text).all(...values) as object[]),
  }))
  sqlBackendSuite({
    dialect: 'sqlite',
    db: () => db,
    store,
    openKillable: (trigger) => {
      const database = new Database(file)
      return new Kysely({
        dialect: dialectKilledAfter(new SqliteDialect({ database }), trigger, async () => {
          database.close()
        }),
      })
    },
  })
})

describe('KyselyAdapter on SQLite: how values are stored', () => {
  it('writes dates as ISO-8601 text and booleans as 0/1, and reads them back as Date and boolean', async () => {
    const database = new Database(':memory:')
    const memoryDb = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
    try {
      await migrate(memoryDb)
      const adapter = KyselyAdapter(memoryDb)
      const verified = new Date('2024-02-29T12:34:56.789Z')
      const user = await adapter.createUser(newUser({ emailVerified: verified }))
      await adapter.createAuthenticator(newAuthenticator(user.id, { credentialID: 'cred-1', credentialBackedUp: true }))

      expect(database.prepare('select "emailVerified" from "User" where id = ?').get(user.id)).toEqual({
        emailVerified: '2024-02-29T12:34:56.789Z',
      })
      expect(
        database.prepare('select "credentialBackedUp" from "Authenticator" where "credentialID" = ?').get('cred-1'),
      ).toEqual({ credentialBackedUp: 1 })
      expect((await adapter.getUser(user.id))?.emailVerified).toEqual(verified)
      expect((await adapter.getAuthenticator('cred-1'))?.credentialBackedUp).toBe(true)
    } finally {
      await memoryDb.destroy()
    }
  })

  it('on a database without the schema, names the missing table, and finds the tables once migrate made them', async () => {
    const empty = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
    try {
      const adapter = KyselyAdapter(empty)
      const failure = await Promise.resolve(adapter.getUserByEmail('ada@example.com')).catch((err: unknown) => err)
      expect(failure).toBeInstanceOf(AdapterError)
      expect((failure as AdapterError).message).toBe(
        'getUserByEmail: table "User" does not exist; create the schema with migrate(db) or `authchart migrate`',
      )

      await migrate(empty)
      expect(await adapter.getUserByEmail('ada@example.com')).toBeNull()
    } finally {
      await empty.destroy()
    }
  })
})

describe('migrate on SQLite: the session record columns on a Session table made without them', () => {
  it('adds the seven nullable columns, keeps the rows, and the adapter then keeps the record', async () => {
    const database = new Database(':memory:')
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
    try {
      // The Session table as Auth.js's Kysely schema (and an earlier migrate) made it.
      database.exec(`create table "User" ("id" text primary key, "name" text, "email" text unique,
          "emailVerified" text, "image" text);
        create table "Session" ("id" text primary key, "userId" text not null references "User"("id") on delete cascade,
          "sessionToken" text not null unique, "expires" text not null);
        insert into "User" ("id", "email") values ('u1', 'old@example.com');
        insert into "Session" ("id", "userId", "sessionToken", "expires")
          values ('s1', 'u1', 'old-token', '2099-01-01T00:00:00.000Z');`)
      const report = await migrate(old)
      expect(report.added).toEqual(
        ['createdAt', 'lastSeenAt', 'deviceSummary', 'clientAddress', 'method', 'amr', 'authTime'].map(
          (column) => `Session.${column}`,
        ),
      )
      const adapter = KyselyAdapter(old)
      const kept = (await adapter.getSessionAndUser('old-token'))?.session
      expect(kept).toMatchObject({ sessionToken: 'old-token', userId: 'u1', lastSeenAt: null, method: null })
      const at = new Date('2026-03-04T05:06:07.089Z')
      await adapter.createSession({
        sessionToken: 'new-token',
        userId: 'u1',
        expires: new Date('2099-01-01T00:00:00.000Z'),
        createdAt: at,
        lastSeenAt: at,
        method: 'github',
        amr: '["fed"]',
        authTime: at,
      })
      expect(
        database.prepare('select "lastSeenAt", "amr" from "Session" where "sessionToken" = ?').get('new-token'),
      ).toEqual({ lastSeenAt: '2026-03-04T05:06:07.089Z', amr: '["fed"]' })
      const listed = await adapter.listSessionsByUser('u1')
      expect(listed.find((session) => session.sessionToken === 'new-token')?.lastSeenAt).toEqual(at)
      expect(listed).toHaveLength(2)
      expect((await migrate(old)).added).toEqual([])
    } finally {
      await old.destroy()
    }
  })
})
