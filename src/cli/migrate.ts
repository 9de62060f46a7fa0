/**
 * `authchart migrate`: creates the SQL schema of the Kysely adapter where it is missing, and says what it did.
 * Tables that exist are never changed, so it is safe on a database made for `@auth/kysely-adapter`.
 *
 * ```
 * authchart migrate [--dialect postgres|mysql|sqlite] [--url <connection string or SQLite file>]
 * ```
 * Both default from `DATABASE_URL`; the dialect is inferred from the URL's scheme when not given
 * (`postgres://`, `postgresql://`, `mysql://`, `mariadb://`; anything else is a SQLite file path).
 * Kysely and the driver (pg, mysql2 or better-sqlite3) must be installed. They are optional dependencies of the
 * package, so they are imported only when the command runs: `--help` and argument errors work without them.
 * @module cli/migrate
 */
import { fileURLToPath } from 'node:url'
import type { Dialect, Kysely } from 'kysely'
import type { SqlDialect } from '../../adapters/sql/index.js'

const dialects = ['postgres', 'mysql', 'sqlite'] as const

const usage = `usage: authchart migrate [--dialect postgres|mysql|sqlite] [--url <connection string or sqlite file>]
  --dialect  the database engine (MariaDB is mysql); inferred from the URL's scheme when left out
  --url      connection string, or the path of the SQLite file (created when missing); default: $DATABASE_URL
needs kysely and the database's driver installed: pg, mysql2 or better-sqlite3`

/** Where the command reads its defaults and writes its output; replaceable in tests. */
export interface MigrateCommandOptions {
  env?: Record<string, string | undefined>
  stdout?: (line: string) => void
  stderr?: (line: string) => void
}

export interface MigrateTarget {
  dialect: SqlDialect
  url: string
}

export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>): MigrateTarget | string {
  let dialect: SqlDialect | undefined
  let url = env.DATABASE_URL
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined]
    if (flag === '--help' || flag === '-h') return ''
    if (flag !== '--dialect' && flag !== '--url') return `unknown argument: ${arg}`
    const value = inline ?? argv[++i]
    if (value === undefined || value === '') return `${flag} needs a value`
    if (flag === '--url') {
      url = value
    } else {
      const known = dialects.find((name) => name === value)
      if (!known) return `unknown dialect: ${value} (expected ${dialects.join(', ')})`
      dialect = known
    }
  }
  if (!url) return 'no database given: pass --url or set DATABASE_URL'
  return { dialect: dialect ?? dialectOfUrl(url), url }
}

function dialectOfUrl(url: string): SqlDialect {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres'
  if (/^(mysql|mariadb):\/\//i.test(url)) return 'mysql'
  return 'sqlite'
}

/** A SQLite location as better-sqlite3 wants it: a plain path (`sqlite:` and `file:` prefixes removed). */
function sqlitePath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url)
  return url.replace(/^sqlite:(\/\/)?/i, '')
}

/** The package an optional dependency comes from, when `err` says it is not installed. */
export function missingPackage(err: unknown): string | null {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return null
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(err.message)?.[1]
  return name && !name.startsWith('.') && !name.startsWith('/') ? name : null
}

export const drivers: Record<SqlDialect, string> = { postgres: 'pg', mysql: 'mysql2', sqlite: 'better-sqlite3' }

/** The Kysely dialect for the target; drivers are imported only when their engine is asked for. */
export async function openDialect({ dialect, url }: MigrateTarget): Promise<Dialect> {
  const { MysqlDialect, PostgresDialect, SqliteDialect } = await import('kysely')
  if (dialect === 'postgres') {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: url, max: 1 })
    // A connection lost mid-migration must fail the command, not crash it with an unheard 'error' event.
    pool.on('connect', (client) => client.on('error', () => {}))
    return new PostgresDialect({ pool })
  }
  if (dialect === 'mysql') {
    const { createPool } = await import('mysql2')
    // mysql2 knows only the mysql:// scheme; MariaDB speaks the same protocol.
    return new MysqlDialect({
      pool: createPool({ uri: url.replace(/^mariadb:/i, 'mysql:'), connectionLimit: 1, timezone: 'Z' }),
    })
  }
  const { default: Database } = await import('better-sqlite3')
  return new SqliteDialect({ database: new Database(sqlitePath(url)) })
}

/**
 * Runs `authchart migrate` with `argv` (the arguments after `migrate`).
 * @returns The exit code: 0 when the schema is in place, 1 when the database failed, 2 for a usage error.
 */
export async function runMigrateCommand(argv: string[], options: MigrateCommandOptions = {}): Promise<number> {
  const stdout =
    options.stdout ??
    ((line: string) => {
      process.stdout.write(`${line}\n`)
    })
  const stderr =
    options.stderr ??
    ((line: string) => {
      process.stderr.write(`${line}\n`)
    })
  const target = parseArgs(argv[0] === 'migrate' ? argv.slice(1) : argv, options.env ?? process.env)
  if (typeof target === 'string') {
    if (target === '') {
      stdout(usage)
      return 0
    }
    stderr(`authchart migrate: ${target}\n${usage}`)
    return 2
  }

  let db: Kysely<unknown> | undefined
  try {
    const { Kysely } = await import('kysely')
    const { migrate } = await import('../../adapters/sql/index.js')
    db = new Kysely({ dialect: await openDialect(target) })
    const report = await migrate(db)
    for (const table of report.created) stdout(`created table "${table}"`)
    for (const table of report.existing) stdout(`kept table "${table}" (it exists)`)
    for (const column of report.upgraded) stdout(`upgraded column "${column}" to today's type and default`)
    for (const column of report.added) stdout(`added column "${column}"`)
    stdout(`${report.dialect}: schema ready, ${report.created.length} table(s) created, ${report.existing.length} kept`)
    return 0
  } catch (err) {
    const missing = missingPackage(err)
    if (missing) {
      stderr(
        `authchart migrate: ${missing} is not installed; ${target.dialect} needs kysely and ${drivers[target.dialect]}: npm install kysely ${drivers[target.dialect]}`,
      )
      return 1
    }
    // The message only: a driver error can quote the connection string, password included, in other fields.
    stderr(`authchart migrate: ${target.dialect}: ${err instanceof Error ? err.message || err.name : String(err)}`)
    return 1
  } finally {
    await db?.destroy().catch(() => {
      /* the connection may never have opened */
    })
  }
}
