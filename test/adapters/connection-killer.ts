/**
 * A database that goes away in the middle of a request, for real: a Kysely dialect that passes everything to the
 * real driver, and after the first query matching `trigger` has run, kills the real connection it ran on
 * (PostgreSQL `pg_terminate_backend`, MariaDB `KILL`, SQLite `close()`) before returning. The adapter's next
 * statement then meets a dead connection, exactly as when a server restarts or a network drops mid-transaction.
 */
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult } from 'kysely'

/** Kills the connection a query has just run on; `connection` is the real driver's. */
export type KillConnection = (connection: DatabaseConnection) => Promise<void>

/** Runs one query on the real connection; may kill the connection before or after running it. */
type Intercept = <R>(
  connection: DatabaseConnection,
  query: CompiledQuery,
  run: () => Promise<QueryResult<R>>,
) => Promise<QueryResult<R>>

/** `inner`, with every query passed through `intercept` on the real connection it runs on. */
function interceptingDialect(inner: Dialect, intercept: Intercept): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => interceptingDriver(inner.createDriver(), intercept),
  }
}

function interceptingDriver(driver: Driver, intercept: Intercept): Driver {
  // Kysely hands our wrapper back to the driver; the real driver needs its own connection object.
  const real = new WeakMap<DatabaseConnection, DatabaseConnection>()
  const unwrap = (connection: DatabaseConnection) => real.get(connection) ?? connection
  return {
    init: () => driver.init(),
    async acquireConnection() {
      const connection = await driver.acquireConnection()
      const wrapper: DatabaseConnection = {
        executeQuery: (query) => intercept(connection, query, () => connection.executeQuery(query)),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      }
      real.set(wrapper, connection)
      return wrapper
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(unwrap(connection), settings),
    commitTransaction: (connection) => driver.commitTransaction(unwrap(connection)),
    rollbackTransaction: (connection) => driver.rollbackTransaction(unwrap(connection)),
    releaseConnection: (connection) => driver.releaseConnection(unwrap(connection)),
    destroy: () => driver.destroy(),
  }
}

/** `inner`, with the connection killed once, right after the first query whose SQL matches `trigger`. */
export function dialectKilledAfter(inner: Dialect, trigger: RegExp, kill: KillConnection): Dialect {
  let killed = false
  return interceptingDialect(inner, async (connection, query, run) => {
    const result = await run()
    if (!killed && trigger.test(query.sql)) {
      killed = true
      await kill(connection)
    }
    return result
  })
}

/**
 * `inner`, whose connection is killed right before the armed statement runs on it, so that statement meets a dead
 * connection. Unlike `dialectKilledAfter`, this also fails a single-statement call outside a transaction, which the
 * pool would otherwise just retry on a fresh connection.
 */
export function dialectDyingBefore(
  inner: Dialect,
  kill: KillConnection,
): { dialect: Dialect; arm(trigger: RegExp): void } {
  let armed: RegExp | undefined
  const dialect = interceptingDialect(inner, async (connection, query, run) => {
    if (armed?.test(query.sql)) {
      armed = undefined
      await kill(connection)
    }
    return run()
  })
  return {
    dialect,
    arm: (trigger) => {
      armed = trigger
    },
  }
}

/** Terminates a PostgreSQL backend from another session, and waits until it is gone. */
export function killPostgresConnection(admin: {
  query(text: string, values: unknown[]): Promise<{ rows: object[] }>
}): KillConnection {
  return async (connection) => {
    const { rows } = await connection.executeQuery<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'))
    const pid = rows[0]?.pid
    await admin.query('select pg_terminate_backend($1)', [pid])
    for (let waited = 0; waited < 5000; waited += 20) {
      const { rows: alive } = await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])
      if (alive.length === 0) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`backend ${pid} survived pg_terminate_backend`)
  }
}

/** Kills a MariaDB/MySQL connection from another session. */
export function killMysqlConnection(admin: { query(text: string): Promise<unknown> }): KillConnection {
  return async (connection) => {
    const { rows } = await connection.executeQuery<{ id: number }>(CompiledQuery.raw('select connection_id() as id'))
    const id = Number(rows[0]?.id)
    if (!Number.isInteger(id)) throw new Error('no connection id to kill')
    await admin.query(`kill connection ${id}`)
  }
}
