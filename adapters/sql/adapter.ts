/**
 * The SQL adapter, on a Kysely instance with the PostgreSQL (pg), MySQL/MariaDB (mysql2) or SQLite
 * (better-sqlite3) dialect, over the schema Auth.js documents (see schema.ts; create it with `migrate(db)`).
 */
import type { Kysely } from 'kysely'
import type { Adapter } from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import { runStoreCall, storeFailure } from '../store-failure.js'
import { classifySqlError, detectDialect, type SqlDialect } from './dialect.js'
import { deleteReturning, insertReturning, updateReturning, type Store } from './row-statements.js'
import {
  accountFromRow, authenticatorFromRow, rowForWrite, sessionFromRow, userFromRow, verificationTokenFromRow,
  type StoreRow,
} from './rows.js'
import type { TableName } from './schema.js'
import { cachedStoreColumns, type StoreColumn, type StoreColumns } from './store-columns.js'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

// Session columns travel beside the user's in one joined row; this prefix keeps the two sets apart.
const sessionColumnPrefix = '__session__'

/**
 * An adapter that stores users, accounts, sessions, verification tokens and authenticators in SQL through Kysely.
 * Every failure is thrown as an `AdapterError` naming the method (a taken e-mail address, a lost connection).
 * Writes that belong together (deleting a user with its sessions, accounts and authenticators) run in one
 * transaction, so a failure leaves nothing half-done.
 *
 * With pg, give the pool's clients an error listener (`pool.on('connect', (c) => c.on('error', log))`): pg reports a
 * connection lost while a client is checked out (say, between two statements of a transaction) as an `'error'`
 * event, and an unheard one ends the process. The adapter still fails the call with an `AdapterError`.
 * With mysql2, set `timezone: 'Z'` so that dates are written and read as UTC.
 * @param db A Kysely instance on PostgreSQL, MySQL/MariaDB or SQLite whose database has the schema.
 * @returns An adapter with all 19 methods.
 * @throws {AdapterError} at once when the dialect is none of the three.
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from 'kysely'
 * import { Pool } from 'pg'
 * import { KyselyAdapter, migrate } from 'authchart/adapters/sql'
 * const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool({ connectionString }) }) })
 * await migrate(db)
 * Auth(request, { adapter: KyselyAdapter(db), providers: [...] })
 * ```
 */
export function KyselyAdapter<DB>(db: Kysely<DB>): Required<Adapter> {
  // The app's DB type describes its own tables; ours are checked at run time against the database itself.
  const store = db as unknown as Store
  const dialect = detectDialect(store)
  const storeColumns = cachedStoreColumns(store, dialect)

  /**
   * Runs one method with the tables' columns at hand. A table it `uses` that does not exist fails with a message
   * saying how to create it; driver errors leave as classified `AdapterError`s.
   */
  const call = <T>(method: string, uses: TableName[], run: (tables: TableAccess) => Promise<T>) =>
    runStoreCall(method, classifySqlError, async () => {
      let columns = await storeColumns.get()
      if (uses.some((table) => !columns.has(table))) columns = await storeColumns.refresh()
      const tables = tableAccess(columns, method, dialect)
      for (const table of uses) tables.columns(table)
      return run(tables)
    })

  return {
    createUser: (user) => call('createUser', ['User'], async (tables) => {
      const row = tables.write('User', { ...user, id: user.id || crypto.randomUUID() })
      return userFromRow(await insertReturning(store, dialect, 'User', row, ['id']))
    }),
    getUser: (id) => call('getUser', ['User'], async (tables) => {
      if (!tables.canMatch('User', 'id', id)) return null
      const row = await store.selectFrom('User').selectAll().where('id', '=', id).executeTakeFirst()
      return row ? userFromRow(row) : null
    }),
    getUserByEmail: (email) => call('getUserByEmail', ['User'], async () => {
      const row = await store.selectFrom('User').selectAll().where('email', '=', email).executeTakeFirst()
      return row ? userFromRow(row) : null
    }),
    getUserByAccount: ({ provider, providerAccountId }) => call('getUserByAccount', ['Account', 'User'], async () => {
      const row = await store.selectFrom('Account').innerJoin('User', 'User.id', 'Account.userId').selectAll('User')
        .where('Account.provider', '=', provider).where('Account.providerAccountId', '=', providerAccountId)
        .executeTakeFirst()
      return row ? userFromRow(row) : null
    }),
    updateUser: ({ id, ...fields }) => call('updateUser', ['User'], async (tables) => {
      const row = tables.canMatch('User', 'id', id)
        ? await updateReturning(store, dialect, 'User', tables.write('User', fields), { id })
        : undefined
      if (!row) throw storeFailure('updateUser', 'not-found', 'a user with this id')
      return userFromRow(row)
    }),
    deleteUser: (userId) => call('deleteUser', ['User'], async (tables) => {
      if (!tables.canMatch('User', 'id', userId)) return null
      // Explicit deletes rather than relying on ON DELETE CASCADE: SQLite enforces foreign keys only when the
      // connection enabled them. One transaction, so a failure half-way leaves the user whole.
      return store.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('User').selectAll().where('id', '=', userId).executeTakeFirst()
        if (!user) return null
        for (const owned of ['Session', 'Account', 'Authenticator'] as const) {
          // A database from before WebAuthn support may have no Authenticator table: nothing to delete there.
          if (tables.has(owned)) await trx.deleteFrom(owned).where('userId', '=', userId).execute()
        }
        await trx.deleteFrom('User').where('id', '=', userId).execute()
        return userFromRow(user)
      })
    }),
    linkAccount: (account) => call('linkAccount', ['Account'], async (tables) => {
      const id = typeof account.id === 'string' ? account.id : crypto.randomUUID()
      const row = tables.write('Account', { ...account, id })
      return accountFromRow(await insertReturning(store, dialect, 'Account', row, ['provider', 'providerAccountId']))
    }),
    unlinkAccount: ({ provider, providerAccountId }) => call('unlinkAccount', ['Account'], async () => {
      const row = await deleteReturning(store, dialect, 'Account', { provider, providerAccountId })
      return row ? accountFromRow(row) : undefined
    }),
    getAccount: (providerAccountId, provider) => call('getAccount', ['Account'], async () => {
      const row = await store.selectFrom('Account').selectAll()
        .where('provider', '=', provider).where('providerAccountId', '=', providerAccountId).executeTakeFirst()
      return row ? accountFromRow(row) : null
    }),
    createSession: (session) => call('createSession', ['Session'], async (tables) => {
      const row = tables.write('Session', { ...session, id: crypto.randomUUID() })
      return sessionFromRow(await insertReturning(store, dialect, 'Session', row, ['sessionToken']))
    }),
    getSessionAndUser: (sessionToken) => call('getSessionAndUser', ['Session', 'User'], async (tables) => {
      // The session check of every page view: one joined query, not two round trips.
      const sessionColumns = [...tables.columns('Session').keys()]
      const row = await store.selectFrom('Session').innerJoin('User', 'User.id', 'Session.userId').selectAll('User')
        .select((eb) => sessionColumns.map((column) => eb.ref(`Session.${column}`).as(sessionColumnPrefix + column)))
        .where('Session.sessionToken', '=', sessionToken).executeTakeFirst()
      if (!row) return null
      const session: StoreRow = {}
      const user: StoreRow = {}
      for (const [key, value] of Object.entries(row)) {
        if (key.startsWith(sessionColumnPrefix)) session[key.slice(sessionColumnPrefix.length)] = value
        else user[key] = value
      }
      return { session: sessionFromRow(session), user: userFromRow(user) }
    }),
    updateSession: ({ sessionToken, ...fields }) => call('updateSession', ['Session'], async (tables) => {
      const row = await updateReturning(store, dialect, 'Session', tables.write('Session', fields), { sessionToken })
      return row ? sessionFromRow(row) : null
    }),
    deleteSession: (sessionToken) => call('deleteSession', ['Session'], async () => {
      const row = await deleteReturning(store, dialect, 'Session', { sessionToken })
      return row ? sessionFromRow(row) : null
    }),
    createVerificationToken: (verificationToken) => call('createVerificationToken', ['VerificationToken'], async (tables) => {
      const row = tables.write('VerificationToken', verificationToken)
      return verificationTokenFromRow(await insertReturning(store, dialect, 'VerificationToken', row, ['token']))
    }),
    useVerificationToken: ({ identifier, token }) => call('useVerificationToken', ['VerificationToken'], async () => {
      // Matching on both columns: a wrong identifier deletes nothing, so the token stays usable by its owner.
      const row = await deleteReturning(store, dialect, 'VerificationToken', { identifier, token })
      return row ? verificationTokenFromRow(row) : null
    }),
    createAuthenticator: (authenticator) => call('createAuthenticator', ['Authenticator'], async (tables) => {
      const row = tables.write('Authenticator', authenticator)
      return authenticatorFromRow(await insertReturning(store, dialect, 'Authenticator', row, ['credentialID']))
    }),
    getAuthenticator: (credentialID) => call('getAuthenticator', ['Authenticator'], async () => {
      const row = await store.selectFrom('Authenticator').selectAll().where('credentialID', '=', credentialID).executeTakeFirst()
      return row ? authenticatorFromRow(row) : null
    }),
    listAuthenticatorsByUserId: (userId) => call('listAuthenticatorsByUserId', ['Authenticator'], async (tables) => {
      if (!tables.canMatch('Authenticator', 'userId', userId)) return []
      const rows = await store.selectFrom('Authenticator').selectAll().where('userId', '=', userId).execute()
      return rows.map(authenticatorFromRow)
    }),
    updateAuthenticatorCounter: (credentialID, newCounter) => call('updateAuthenticatorCounter', ['Authenticator'], async (tables) => {
      const set = tables.write('Authenticator', { counter: newCounter })
      const row = await updateReturning(store, dialect, 'Authenticator', set, { credentialID })
      if (!row) throw storeFailure('updateAuthenticatorCounter', 'not-found', 'an authenticator with this credential id')
      return authenticatorFromRow(row)
    }),
  }
}

/** The tables' columns as one adapter call uses them. */
interface TableAccess {
  /** The columns of `table`; throws when the table does not exist. */
  columns(table: TableName): Map<string, StoreColumn>
  /** Whether `table` exists. */
  has(table: TableName): boolean
  /** The fields of `record` that `table` has columns for, ready for the driver. */
  write(table: TableName, record: object): StoreRow
  /**
   * False when `value` can match no row: a PostgreSQL `uuid` column compared with text that is not a UUID is an
   * error, not a miss, and "not found" must stay `null` / `[]`.
   */
  canMatch(table: TableName, column: string, value: string): boolean
}

function tableAccess(columns: StoreColumns, method: string, dialect: SqlDialect): TableAccess {
  const columnsOf = (table: TableName) => {
    const found = columns.get(table)
    if (!found) {
      throw new AdapterError(`${method}: table "${table}" does not exist; create the schema with migrate(db) or \`authchart migrate\``, { method, table })
    }
    return found
  }
  return {
    columns: columnsOf,
    has: (table) => columns.has(table),
    write: (table, record) => rowForWrite(record, columnsOf(table), dialect),
    canMatch: (table, column, value) => !columnsOf(table).get(column)?.isUuid || uuidPattern.test(value),
  }
}
