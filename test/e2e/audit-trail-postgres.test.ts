/**
 * The audit trail on a real PostgreSQL: sign-ins, a refusal, a session check and a sign-out through the HTTP handler
 * land as hash-chained rows of the SQL sink; `authchart audit verify` passes a clean chain and names the row where one
 * was deleted or edited; parallel sign-ins through two sinks (two app instances) keep the chain whole; a failing sink
 * never fails a sign-in and is logged once; and no record carries a secret or the client's address.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sqlAuditSink, verifyAuditChain } from '../../adapters/sql/index.js'
import { jsonLinesAuditSink, type AuditRecord } from '../../src/audit.js'
import { verifyCommand } from '../support/audit-verify.js'
import { CookieJar, csrfToken, secret, send, session, signIn, testConfig, users } from '../support/auth-harness.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'

/** The sign-ins' client address, as a host passes it: it must never show up in a record. */
const peerAddress = '203.0.113.77'

/** No secret, password, cookie or address in any record, and every value is an id, a name, a digest or a time. */
function expectNoSecret(records: AuditRecord[], secrets: string[]): void {
  const texts = records.flatMap((r) => Object.entries(r).flatMap(([k, v]) => [k, String(v)]))
  expect(texts.length).toBeGreaterThan(0)
  for (const value of [...secrets, peerAddress].filter((s) => s.length >= 6))
    for (const text of texts) expect(text, `an audit record carries ${value}`).not.toContain(value)
  for (const text of texts) expect(text).toMatch(/^[\w .:-]*$/)
}

/** A credentials sign-in, a session check, a refused sign-in and a sign-out, from one client address. */
async function signInAndOut(config: ReturnType<typeof testConfig>): Promise<CookieJar> {
  const jar = new CookieJar()
  const credentials = async (into: CookieJar, password: string) =>
    send(config, '/auth/callback/credentials', {
      jar: into,
      peer: peerAddress,
      form: { username: 'ada', password, csrfToken: await csrfToken(config, into) },
    })
  expect((await credentials(jar, users.ada.password)).status).toBe(302)
  expect(await session(config, jar)).toMatchObject({ user: { email: users.ada.user.email } })
  await credentials(new CookieJar(), 'not-the-password')
  await send(config, '/auth/signout', { jar, peer: peerAddress, form: { csrfToken: await csrfToken(config, jar) } })
  return jar
}

await describeWithService('postgres', probePostgres, () => {
  let scratch: ScratchPostgresSchema
  let db: Kysely<unknown>
  let raw: pg.Pool

  beforeAll(async () => {
    scratch = await createScratchPostgresSchema()
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url }) }) })
    raw = new pg.Pool({ connectionString: scratch.url, max: 2 })
  })
  afterAll(async () => {
    await db?.destroy()
    await raw?.end()
    await scratch?.drop()
  })

  const rows = async () =>
    (await raw.query<{ seq: string; record: string }>('select seq, record from "AuthchartAudit" order by seq')).rows

  describe('the SQL audit sink', () => {
    it('records each flow and each sign-in, refusal and sign-out, hash-chained; verify passes the chain', async () => {
      const audit = sqlAuditSink(db)
      await audit.migrate()
      await audit.migrate()
      const config = testConfig({ audit })
      await signInAndOut(config)
      await audit.flush()

      const records = (await rows()).map((row) => JSON.parse(row.record) as AuditRecord)
      const signInRecord = records.find((r) => r.type === 'sign-in')
      expect(signInRecord).toMatchObject({
        userId: users.ada.user.id,
        provider: 'credentials',
        method: 'credentials',
        outcome: 'success',
      })
      expect(signInRecord?.clientKeyDigest).toMatch(/^[0-9a-f]{32}$/)
      // The flow that signed in carries the user's id and the client's digest.
      expect(records).toContainEqual(
        expect.objectContaining({
          type: 'flow',
          machine: 'credentials',
          outcome: 'signedIn',
          userId: users.ada.user.id,
          clientKeyDigest: signInRecord?.clientKeyDigest,
          flowId: expect.any(String),
        }),
      )
      expect(records).toContainEqual(
        expect.objectContaining({ type: 'flow', machine: 'credentials', outcome: 'failed' }),
      )
      expect(records).toContainEqual(expect.objectContaining({ type: 'flow', machine: 'session', outcome: 'active' }))
      // The wrong password is a refused sign-in: its flow's record and a refusal record, neither with a user id.
      expect(records).toContainEqual(
        expect.objectContaining({ type: 'refusal', machine: 'credentials', outcome: 'refused' }),
      )
      expect(records).toContainEqual(
        expect.objectContaining({ type: 'sign-out', userId: users.ada.user.id, outcome: 'success' }),
      )
      for (const record of records) expect(Date.parse(record.time)).toBeGreaterThan(Date.now() - 60_000)
      expectNoSecret(records, [users.ada.password, 'not-the-password', secret])

      const clean = await verifyCommand(scratch.url)
      expect(clean).toMatchObject({ code: 0, err: '' })
      expect(clean.out).toContain(`audit chain intact: ${records.length} row(s)`)
    })

    it('verify names the row after a deleted one, and an edited row, and exits non-zero', async () => {
      const before = await rows()
      expect(before.length).toBeGreaterThanOrEqual(5)
      const record = JSON.parse(before[2].record) as AuditRecord
      await raw.query('update "AuthchartAudit" set record = $1 where seq = 3', [
        JSON.stringify({ ...record, outcome: 'nothing-happened' }),
      ])
      const edited = await verifyCommand(scratch.url)
      expect(edited.code).toBe(1)
      expect(edited.err).toContain('chain broken at row 3')
      // Put back as it was: the chain is whole again.
      await raw.query('update "AuthchartAudit" set record = $1 where seq = 3', [before[2].record])
      expect((await verifyCommand(scratch.url)).code).toBe(0)

      // The user id column changed alone (the record left as it was) is an edit too.
      await raw.query(`update "AuthchartAudit" set "userId" = 'someone-else' where seq = 2`)
      const column = await verifyCommand(scratch.url)
      expect(column.code).toBe(1)
      expect(column.err).toContain('chain broken at row 2')
      await raw.query(`update "AuthchartAudit" set "userId" = $1 where seq = 2`, [
        (JSON.parse(before[1].record) as AuditRecord).userId ?? null,
      ])

      await raw.query('delete from "AuthchartAudit" where seq = 4')
      const deleted = await verifyCommand(scratch.url)
      expect(deleted.code).toBe(1)
      expect(deleted.err).toContain('chain broken at row 5')
      expect(deleted.err).toContain('row 4 is missing')
      await raw.query('truncate "AuthchartAudit"')
    })

    it('parallel sign-ins through two sinks (two app instances) keep the chain whole', async () => {
      const other = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url }) }),
      })
      try {
        const sinks = [sqlAuditSink(db), sqlAuditSink(other)]
        const configs = sinks.map((audit) => testConfig({ audit }))
        const signIns = Array.from({ length: 16 }, (_, i) => signIn(configs[i % 2], new CookieJar()))
        for (const response of await Promise.all(signIns)) expect(response.status).toBe(302)
        await Promise.all(sinks.map((sink) => sink.flush()))
        const report = await verifyAuditChain(db)
        // Each sign-in is two records: the sign-in and its flow.
        expect(report).toMatchObject({ ok: true, rows: 32 })
        expect((await verifyCommand(scratch.url)).code).toBe(0)
      } finally {
        await other.destroy()
      }
    })
  })
})

describe('audit sinks that fail, and the JSON-lines sink', () => {
  it('a sink that throws or rejects never fails a sign-in, and is logged once under audit-sink-failed', async () => {
    let calls = 0
    const config = testConfig({
      audit: () => {
        calls++
        if (calls % 2 === 0) throw new Error(`disk full ${users.ada.password}`)
        return Promise.reject(new Error('database gone'))
      },
    })
    for (let i = 0; i < 3; i++) expect((await signIn(config, new CookieJar())).status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(calls).toBeGreaterThanOrEqual(6)
    const failures = config.recorded.warnings.filter((code) => code === 'audit-sink-failed')
    expect(failures).toHaveLength(1)
    expect(JSON.stringify(failures)).not.toContain(users.ada.password)
  })

  it('the JSON-lines sink appends one record per line to a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'authchart-audit-'))
    try {
      const file = join(dir, 'audit.jsonl')
      const audit = jsonLinesAuditSink(file)
      const config = testConfig({ audit })
      await signInAndOut(config)
      await audit.close()
      const records = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditRecord)
      expect(records.map((r) => r.type)).toEqual(expect.arrayContaining(['sign-in', 'flow', 'refusal', 'sign-out']))
      expectNoSecret(records, [users.ada.password, 'not-the-password', secret])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
