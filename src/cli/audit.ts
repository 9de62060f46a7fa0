/**
 * `authchart audit verify`: walks the hash chain of the SQL audit trail (`sqlAuditSink`, docs/observability.md) and
 * names the first row that was deleted or edited.
 *
 * ```
 * authchart audit verify [--dialect postgres|mysql|sqlite] [--url <connection string or SQLite file>]
 * ```
 * The database is given as for `authchart migrate` (default `DATABASE_URL`). Exit codes: 0 the chain is whole, 1 it is
 * broken (the first bad row is printed), 2 a usage error, 3 the database could not be read.
 * @module cli/audit
 */
import type { Kysely } from 'kysely'
import { drivers, missingPackage, openDialect, parseArgs, type MigrateCommandOptions } from './migrate.js'

const usage = `usage: authchart audit verify [--dialect postgres|mysql|sqlite] [--url <connection string or sqlite file>]
  checks the hash chain of the audit table (AuthchartAudit) and names the first deleted or edited row
  --dialect  the database engine (MariaDB is mysql); inferred from the URL's scheme when left out
  --url      connection string, or the path of the SQLite file; default: $DATABASE_URL
exit codes: 0 chain intact, 1 chain broken, 2 usage error, 3 database unreadable`

/**
 * Runs `authchart audit` with `argv` (the arguments after `audit`).
 * @returns The exit code (see the module's description).
 */
export async function runAuditCommand(argv: string[], options: MigrateCommandOptions = {}): Promise<number> {
  const stdout = options.stdout ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const stderr = options.stderr ?? ((line: string) => void process.stderr.write(`${line}\n`))
  const args = argv[0] === 'audit' ? argv.slice(1) : argv
  const [sub, ...rest] = args
  if (sub === '--help' || sub === '-h') {
    stdout(usage)
    return 0
  }
  if (sub !== 'verify') {
    stderr(`authchart audit: ${sub === undefined ? 'no subcommand given' : `unknown subcommand: ${sub}`}\n${usage}`)
    return 2
  }
  const target = parseArgs(rest, options.env ?? process.env)
  if (typeof target === 'string') {
    if (target === '') {
      stdout(usage)
      return 0
    }
    stderr(`authchart audit verify: ${target}\n${usage}`)
    return 2
  }

  let db: Kysely<unknown> | undefined
  try {
    const { Kysely } = await import('kysely')
    const { verifyAuditChain } = await import('../../adapters/sql/index.js')
    db = new Kysely({ dialect: await openDialect(target) })
    const report = await verifyAuditChain(db)
    if (!report.ok) {
      stderr(`authchart audit verify: chain broken at row ${report.badRow} (${report.rows} row(s) before it intact)`)
      stderr(report.reason)
      return 1
    }
    stdout(`audit chain intact: ${report.rows} row(s), head ${report.head ?? '(empty)'}`)
    return 0
  } catch (err) {
    const missing = missingPackage(err)
    if (missing) {
      stderr(
        `authchart audit verify: ${missing} is not installed; ${target.dialect} needs kysely and ${drivers[target.dialect]}`,
      )
      return 3
    }
    // The message only: a driver error can quote the connection string, password included, in other fields.
    stderr(`authchart audit verify: ${target.dialect}: ${err instanceof Error ? err.message || err.name : String(err)}`)
    return 3
  } finally {
    await db?.destroy().catch(() => {
      /* the connection may never have opened */
    })
  }
}
