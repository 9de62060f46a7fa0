/**
 * A MariaDB/MySQL database made by an older `migrate` (TIMESTAMP(3) dates, ids without a default) is brought up to
 * today's schema by running `migrate` again: dates after 2038-01-19 fit, the values already stored are kept to the
 * millisecond, and `@auth/kysely-adapter` can write accounts and sessions without an id.
 */
import { randomUUID } from 'node:crypto'
import { KyselyAdapter as OfficialKyselyAdapter } from '@auth/kysely-adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KyselyAdapter, migrate, type MigrationReport } from '../../adapters/sql/index.js'
import { describeWithService, probeMysql } from '../support/services.js'
import { openMysql, type ScratchDatabase } from './sql-databases.js'

// The tables as `migrate` made them before DATETIME(3) and id defaults.
const olderSchema = `
create table \`User\` (\`id\` varchar(36) primary key, \`name\` text, \`email\` varchar(255) unique, \`emailVerified\` timestamp(3) null default null, \`image\` text);
create table \`Account\` (\`id\` varchar(36) primary key, \`userId\` varchar(36) not null, \`type\` varchar(255) not null,
  \`provider\` varchar(255) not null, \`providerAccountId\` varchar(255) not null, \`refresh_token\` text, \`access_token\` text,
  \`expires_at\` bigint, \`token_type\` text, \`scope\` text, \`id_token\` text, \`session_state\` text,
  constraint \`Account_provider_providerAccountId_key\` unique (\`provider\`, \`providerAccountId\`),
  constraint \`Account_userId_fkey\` foreign key (\`userId\`) references \`User\` (\`id\`) on delete cascade);
create table \`Session\` (\`id\` varchar(36) primary key, \`userId\` varchar(36) not null, \`sessionToken\` varchar(255) not null unique,
  \`expires\` timestamp(3) not null, constraint \`Session_userId_fkey\` foreign key (\`userId\`) references \`User\` (\`id\`) on delete cascade);
create table \`VerificationToken\` (\`identifier\` varchar(255) not null, \`token\` varchar(255) not null unique, \`expires\` timestamp(3) not null);
`

await describeWithService('mariadb', probeMysql, () => {
  describe('migrate on tables an older migrate made (MariaDB/MySQL)', () => {
    let scratch: ScratchDatabase
    let report: MigrationReport
    const userId = randomUUID()
    const verified = new Date('2024-02-29T12:34:56.789Z')
    const expires = new Date('2030-01-02T03:04:05.678Z')
    let refusedBefore: unknown

    beforeAll(async () => {
      scratch = await openMysql()
      await scratch.exec(olderSchema)
      await scratch.query('insert into `User` (`id`, `email`, `emailVerified`) values (?, ?, ?)', [
        userId,
        'old@example.com',
        verified,
      ])
      await scratch.query('insert into `Session` (`id`, `userId`, `sessionToken`, `expires`) values (?, ?, ?, ?)', [
        randomUUID(),
        userId,
        'old-session',
        expires,
      ])
      refusedBefore = await scratch
        .query('insert into `Session` (`id`, `userId`, `sessionToken`, `expires`) values (?, ?, ?, ?)', [
          randomUUID(),
          userId,
          'too-late',
          new Date('2040-01-01T00:00:00.000Z'),
        ])
        .then(
          () => null,
          (err: unknown) => err,
        )
      report = await migrate(scratch.db)
    })
    afterAll(async () => {
      await scratch?.close()
    })

    it('the older schema refused a session expiring in 2040 (the reason for the upgrade)', () => {
      expect(refusedBefore).toBeInstanceOf(Error)
    })

    it('reports the columns it upgraded and creates the missing tables (Authenticator, the second-factor ones)', () => {
      expect(report.created).toEqual(['Authenticator', 'Factor', 'RecoveryCode'])
      // The session record's columns, added to the Session table that had none (docs/adapters.md).
      expect(report.added).toEqual(
        ['createdAt', 'lastSeenAt', 'deviceSummary', 'clientAddress', 'method', 'amr', 'authTime'].map(
          (column) => `Session.${column}`,
        ),
      )
      expect([...report.upgraded].sort()).toEqual([
        'Account.id',
        'Session.expires',
        'Session.id',
        'User.emailVerified',
        'User.id',
        'VerificationToken.expires',
      ])
    })

    it('leaves the columns as DATETIME(3), nullability as it was, ids with a default', async () => {
      const rows =
        await scratch.query(`select table_name as t, column_name as c, column_type as type, is_nullable as n, column_default as d
        from information_schema.columns where table_schema = database() and column_name in ('emailVerified', 'expires', 'id')`)
      const byName = Object.fromEntries(rows.map((row) => [`${String(row.t)}.${String(row.c)}`, row]))
      expect(byName['User.emailVerified']).toMatchObject({ type: 'datetime(3)', n: 'YES' })
      expect(byName['Session.expires']).toMatchObject({ type: 'datetime(3)', n: 'NO' })
      expect(byName['VerificationToken.expires']).toMatchObject({ type: 'datetime(3)', n: 'NO' })
      for (const table of ['User', 'Account', 'Session']) expect(String(byName[`${table}.id`]?.d)).toMatch(/uuid\(\)/)
    })

    it('keeps the stored dates to the millisecond', async () => {
      const adapter = KyselyAdapter(scratch.db)
      expect((await adapter.getUser(userId))?.emailVerified?.getTime()).toBe(verified.getTime())
      expect((await adapter.getSessionAndUser('old-session'))?.session.expires.getTime()).toBe(expires.getTime())
    })

    it('now stores a session expiring in 2040, and the official adapter writes accounts and sessions without ids', async () => {
      const in2040 = new Date('2040-06-01T12:34:56.789Z')
      const adapter = KyselyAdapter(scratch.db)
      await adapter.createSession({ sessionToken: 'in-2040', userId, expires: in2040 })
      expect((await adapter.getSessionAndUser('in-2040'))?.session.expires.getTime()).toBe(in2040.getTime())

      const official = OfficialKyselyAdapter(scratch.db)
      const providerAccountId = randomUUID()
      await official.linkAccount?.({ userId, type: 'oidc', provider: 'example-idp', providerAccountId })
      await official.createSession?.({ sessionToken: 'official-2040', userId, expires: in2040 })
      expect(await adapter.getUserByAccount({ provider: 'example-idp', providerAccountId })).toMatchObject({
        id: userId,
      })
      expect((await adapter.getSessionAndUser('official-2040'))?.session.expires.getTime()).toBe(in2040.getTime())
    })

    it('a second migrate upgrades nothing more', async () => {
      expect(await migrate(scratch.db)).toMatchObject({ created: [], upgraded: [], added: [] })
    })
  })
})
