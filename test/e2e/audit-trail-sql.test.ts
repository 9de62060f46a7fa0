/**
 * The SQL audit sink on MariaDB and on SQLite (PostgreSQL: audit-trail-postgres.test.ts): sign-ins through the HTTP
 * handler land as hash-chained rows that `authchart audit verify` passes; an edited record, an edited column and a
 * deleted row each make it exit 1 naming the row; and appends fired at once from two sinks (two app instances, each
 * with its own connections) onto an empty table keep one whole chain, each record written once.
 */
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { Kysely, MysqlDialect, SqliteDialect, sql } from 'kysely'
import { createPool } from 'mysql2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sqlAuditSink, verifyAuditChain } from '../../adapters/sql/index.js'
import type { AuditRecord } from '../../src/audit.js'
import { verifyCommand } from '../support/audit-verify.js'
import { CookieJar, signIn, testConfig, users } from '../support/auth-harness.js'
import {
  createScratchMysqlDatabase,
  describeWithService,
  probeMysql,
  scratchName,
  type ScratchMysqlDatabase,
} from '../support/services.js'

/** A database the suite runs on: its URL for the command line, and a way to open one more app instance on it. */
interface AuditDatabase {
  url: string
  open(): Kysely<unknown>
  drop(): Promise<void>
}

const appendProcess = fileURLToPath(new URL('../support/audit-append-process.ts', import.meta.url))
const table = sql.table('AuthchartAudit')
const seqColumn = sql.ref('seq')

function auditChainSuite(setUp: () => Promise<AuditDatabase>): void {
  let database: AuditDatabase
  let db: Kysely<unknown>

  beforeAll(async () => {
    database = await setUp()
    db = database.open()
  })
  afterAll(async () => {
    await db?.destroy()
    await database?.drop()
  })

  const rows = async () =>
    (
      await sql<{
        seq: unknown
        record: string
        userId: string | null
      }>`select ${seqColumn}, ${sql.ref('record')}, ${sql.ref('userId')} from ${table} order by ${seqColumn}`.execute(
        db,
      )
    ).rows
  const setColumn = (column: 'record' | 'userId', value: string | null, seq: number) =>
    sql`update ${table} set ${sql.ref(column)} = ${value} where ${seqColumn} = ${seq}`.execute(db)

  it('sign-ins land as a chain that verify passes', async () => {
    const audit = sqlAuditSink(db)
    await audit.migrate()
    await audit.migrate()
    const config = testConfig({ audit })
    for (let i = 0; i < 3; i++) expect((await signIn(config, new CookieJar())).status).toBe(302)
    await audit.flush()
    const records = (await rows()).map((row) => JSON.parse(row.record) as AuditRecord)
    // Each sign-in is two records: the sign-in and its flow.
    expect(records.map((r) => r.type)).toEqual(['sign-in', 'flow', 'sign-in', 'flow', 'sign-in', 'flow'])
    expect(records[0]).toMatchObject({ userId: users.ada.user.id, outcome: 'success' })
    const clean = await verifyCommand(database.url)
    expect(clean).toMatchObject({ code: 0, err: '' })
    expect(clean.out).toContain('audit chain intact: 6 row(s)')
  })

  it('verify exits 1 naming an edited row, an edited column, and the row after a deleted one', async () => {
    const before = await rows()
    const third = JSON.parse(before[2].record) as AuditRecord
    await setColumn('record', JSON.stringify({ ...third, outcome: 'nothing-happened' }), 3)
    const edited = await verifyCommand(database.url)
    expect(edited.code).toBe(1)
    expect(edited.err).toContain('chain broken at row 3')
    await setColumn('record', before[2].record, 3)
    expect((await verifyCommand(database.url)).code).toBe(0)

    await setColumn('userId', 'someone-else', 2)
    const column = await verifyCommand(database.url)
    expect(column.code).toBe(1)
    expect(column.err).toContain('chain broken at row 2')
    await setColumn('userId', before[1].userId, 2)
    expect((await verifyCommand(database.url)).code).toBe(0)

    await sql`delete from ${table} where ${seqColumn} = 4`.execute(db)
    const deleted = await verifyCommand(database.url)
    expect(deleted.code).toBe(1)
    expect(deleted.err).toContain('chain broken at row 5')
    expect(deleted.err).toContain('row 4 is missing')
    await sql`delete from ${table}`.execute(db)
  })

  it('appends fired at once from two sinks onto an empty table keep one chain, each record once', async () => {
    const other = database.open()
    try {
      const sinks = [sqlAuditSink(db), sqlAuditSink(other)]
      const perSink = 25
      const sent = sinks.flatMap((sink, s) =>
        Array.from({ length: perSink }, (_, i) => {
          const record: AuditRecord = {
            type: 'flow',
            time: new Date().toISOString(),
            flowId: `sink${s}-${i}`,
            machine: 'credentials',
            outcome: 'signedIn',
          }
          return sink(record).then(() => record.flowId)
        }),
      )
      const written = await Promise.all(sent)
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 * perSink })
      const flowIds = (await rows()).map((row) => (JSON.parse(row.record) as AuditRecord).flowId)
      expect([...flowIds].sort()).toEqual([...written].sort())
      expect((await verifyCommand(database.url)).code).toBe(0)
    } finally {
      await other.destroy()
    }
  })
}

await describeWithService('mariadb', probeMysql, () => {
  let scratch: ScratchMysqlDatabase
  auditChainSuite(async () => {
    scratch = await createScratchMysqlDatabase()
    return {
      url: scratch.url,
      // Its own pool per app instance, several connections each, as an app would have.
      open: () =>
        new Kysely({ dialect: new MysqlDialect({ pool: createPool({ uri: scratch.url, connectionLimit: 4 }) }) }),
      drop: () => scratch.drop(),
    }
  })
})

describe('sqlite', () => {
  const file = join(tmpdir(), `${scratchName()}.sqlite`)
  auditChainSuite(async () => {
    return {
      url: file,
      open: () => new Kysely({ dialect: new SqliteDialect({ database: new Database(file) }) }),
      drop: async () => {
        for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true })
      },
    }
  })
})

describe('sqlite, two processes', () => {
  const file = join(tmpdir(), `${scratchName()}.sqlite`)
  afterAll(() => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  })

  it('appends from another process at the same time as this one keep one chain, each record once', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) })
    try {
      const sink = sqlAuditSink(db)
      await sink.migrate()
      const count = 40
      const child = spawn(process.execPath, ['--import', 'tsx', appendProcess, file, 'other', String(count)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let childErr = ''
      child.stderr.on('data', (chunk: Buffer) => (childErr += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
      // Appending while the other process does, 5 ms apart on both sides: each waits at `begin immediate` for the
      // other's commit.
      const mine: Promise<void>[] = []
      for (let i = 0; i < count; i++) {
        mine.push(sink({ type: 'flow', time: new Date().toISOString(), flowId: `this-${i}`, outcome: 'signedIn' }))
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      await Promise.all(mine)
      expect({ code: await exited, childErr }).toEqual({ code: 0, childErr: '' })
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 * count })
      const rows = await sql<{
        record: string
      }>`select ${sql.ref('record')} from ${table} order by ${seqColumn}`.execute(db)
      const flowIds = rows.rows.map((row) => (JSON.parse(row.record) as AuditRecord).flowId ?? '')
      expect(new Set(flowIds).size).toBe(2 * count)
      // The two processes' records interleave: the appends really ran at the same time.
      const switches = flowIds.filter((id, i) => i > 0 && id.split('-')[0] !== flowIds[i - 1].split('-')[0]).length
      expect(switches).toBeGreaterThan(1)
    } finally {
      await db.destroy()
    }
  })
})
