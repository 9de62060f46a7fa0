/**
 * A second app instance's SQL audit sink, in a process of its own: `node --import tsx audit-append-process.ts <sqlite
 * file> <prefix> <count>` prints `ready` once its database is open, then hands `count` flow records (flow ids
 * `<prefix>-<i>`) to the sink 5 ms apart, as requests would, and exits 0 when every one is written to the SQLite file's
 * audit table. Used by test/e2e/audit-trail-sql.test.ts.
 */
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { sqlAuditSink } from '../../adapters/sql/index.js'

const [file, prefix, count] = process.argv.slice(2)
const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) })
const sink = sqlAuditSink(db)
try {
  process.stdout.write('ready\n')
  const appends: Promise<void>[] = []
  for (let i = 0; i < Number(count); i++) {
    appends.push(sink({ type: 'flow', time: new Date().toISOString(), flowId: `${prefix}-${i}`, outcome: 'signedIn' }))
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await Promise.all(appends)
} finally {
  await db.destroy()
}
