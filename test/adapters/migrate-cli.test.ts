import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tableNames } from '../../adapters/sql/index.js'
import { runMigrateCommand } from '../../src/cli/migrate.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  scratchName,
  type ScratchPostgresSchema,
} from '../support/services.js'

/** Runs the command and keeps what it printed. */
async function migrateCommand(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await runMigrateCommand(argv, {
    env,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('authchart migrate on SQLite', () => {
  const files: string[] = []
  const newFile = () => {
    const file = join(tmpdir(), `${scratchName()}.sqlite`)
    files.push(file)
    return file
  }
  afterAll(() => {
    for (const file of files) for (const suffix of ['', '-journal']) rmSync(file + suffix, { force: true })
  })

  it('creates the tables in a new file, then keeps them on a second run', async () => {
    const file = newFile()
    const first = await migrateCommand(['--dialect', 'sqlite', '--url', file])
    expect(first).toMatchObject({ code: 0, err: '' })
    for (const table of tableNames) expect(first.out).toContain(`created table "${table}"`)
    expect(first.out).toContain(`sqlite: schema ready, ${tableNames.length} table(s) created, 0 kept`)

    const second = await migrateCommand(['--dialect', 'sqlite', '--url', file])
    expect(second.code).toBe(0)
    expect(second.out).not.toContain('created table')
    expect(second.out).toContain(`sqlite: schema ready, 0 table(s) created, ${tableNames.length} kept`)

    const raw = new Database(file, { readonly: true })
    const names = raw.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
      name: string
    }[]
    raw.close()
    expect(names.map((row) => row.name)).toEqual([...tableNames].sort())
  })

  it('adds the session record columns to a Session table made without them, and says so', async () => {
    const file = newFile()
    const raw = new Database(file)
    raw.exec(`create table "User" ("id" text primary key, "email" text unique);
      create table "Session" ("id" text primary key, "userId" text not null, "sessionToken" text not null unique,
        "expires" text not null)`)
    raw.close()
    const result = await migrateCommand(['--dialect', 'sqlite', '--url', file])
    expect(result).toMatchObject({ code: 0, err: '' })
    for (const column of ['createdAt', 'lastSeenAt', 'deviceSummary', 'clientAddress', 'method', 'amr', 'authTime'])
      expect(result.out).toContain(`added column "Session.${column}"`)
    expect((await migrateCommand(['--dialect', 'sqlite', '--url', file])).out).not.toContain('added column')
  })

  it('takes the database from DATABASE_URL and infers SQLite from a file path, accepting a leading "migrate"', async () => {
    const file = newFile()
    const result = await migrateCommand(['migrate'], { DATABASE_URL: file })
    expect(result.code).toBe(0)
    expect(result.out).toContain(`${tableNames.length} table(s) created`)
  })

  it('rejects an unknown dialect with exit code 2 and the usage', async () => {
    const result = await migrateCommand(['--dialect', 'oracle', '--url', 'x'])
    expect(result.code).toBe(2)
    expect(result.err).toContain('unknown dialect: oracle')
    expect(result.err).toContain('usage: authchart migrate')
  })

  it('exits with 2 when neither --url nor DATABASE_URL names a database', async () => {
    const result = await migrateCommand(['--dialect', 'sqlite'])
    expect(result.code).toBe(2)
    expect(result.err).toContain('no database given')
  })

  it('prints the usage for --help and exits with 0', async () => {
    const result = await migrateCommand(['--help'])
    expect(result).toMatchObject({ code: 0, err: '' })
    expect(result.out).toContain('--dialect')
  })
})

await describeWithService('postgres', probePostgres, () => {
  describe('authchart migrate on PostgreSQL', () => {
    let scratch: ScratchPostgresSchema
    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
    })
    afterAll(async () => {
      await scratch?.drop()
    })

    it('creates the tables in the schema the URL selects, inferring the dialect from the scheme', async () => {
      const result = await migrateCommand(['--url', scratch.url])
      expect(result).toMatchObject({ code: 0, err: '' })
      expect(result.out).toContain(`postgres: schema ready, ${tableNames.length} table(s) created, 0 kept`)

      const client = new pg.Client({ connectionString: scratch.url })
      await client.connect()
      const { rows } = await client.query<{ table_name: string }>(
        'select table_name from information_schema.tables where table_schema = $1 order by table_name',
        [scratch.schema],
      )
      await client.end()
      expect(rows.map((row) => row.table_name)).toEqual([...tableNames].sort())

      const again = await migrateCommand(['--dialect', 'postgres', '--url', scratch.url])
      expect(again.out).toContain(`0 table(s) created, ${tableNames.length} kept`)
    })

    it('exits with 1 and a message without the password when the server cannot be reached', async () => {
      const result = await migrateCommand(['--url', 'postgres://app:secret-password@127.0.0.1:1/test'])
      expect(result.code).toBe(1)
      expect(result.err).toMatch(/^authchart migrate: postgres: .*ECONNREFUSED/)
      expect(result.err).not.toContain('secret-password')
    })
  })
})
