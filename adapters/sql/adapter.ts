/**
 * The SQL adapter, on a Kysely instance with the PostgreSQL (pg), MySQL/MariaDB (mysql2) or SQLite
 * (better-sqlite3) dialect, over the schema Auth.js documents (see schema.ts; create it with `migrate(db)`).
 */
import type { Kysely } from 'kysely'
import type { Adapter } from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import { factorRecord } from '../factor-record.js'
import { runStoreCall, storeFailure } from '../store-failure.js'
import { classifySqlError, detectDialect, type SqlDialect } from './dialect.js'
import { deleteReturning, insertReturning, updateReturning, type Store } from './row-statements.js'
import {
  accountFromRow,
  authenticatorFromRow,
  factorFromRow,
  rowForWrite,
  rowFromStore,
  sessionFromRow,
  userFromRow,
  verificationTokenFromRow,
  type StoreRow,
} from './rows.js'
import { defaultSchema, type SchemaMapping } from './schema-mappings.js'
import type { TableName } from './schema.js'
import { cachedStoreColumns, type StoreColumn, type StoreColumns } from './store-columns.js'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const integerPattern = /^-?\d{1,18}$/

/** Options of `KyselyAdapter`. */
export interface KyselyAdapterOptions {
  /**
   * The table names of the schema the database holds: one of `schemas` (`kysely`, the default; `prisma`;
   * `drizzle`; `pgAdapter`) or your own. Column names are always the Auth.js model's field names.
   */
  schema?: SchemaMapping
}

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
 *
 * A database made by another Auth.js SQL adapter is used as it stands by naming its schema:
 * `KyselyAdapter(db, { schema: schemas.drizzle })`. Ids are then whatever that schema keeps (integer ids that the
 * database assigns for `@auth/pg-adapter`'s, returned as strings), and dates are stored the way its columns expect.
 * @param db A Kysely instance on PostgreSQL, MySQL/MariaDB or SQLite whose database has the schema.
 * @param options `schema`: the table names, when the database is not the one `migrate` makes.
 * @returns An adapter with all 19 methods, and Authchart's two account-token, five second-factor and one
 *   session-record (`listSessionsByUser`) methods.
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
export function KyselyAdapter<DB>(db: Kysely<DB>, options: KyselyAdapterOptions = {}): Required<Adapter> {
  // The app's DB type describes its own tables; ours are checked at run time against the database itself.
  const store = db as unknown as Store
  const dialect = detectDialect(store)
  const schema = options.schema ?? defaultSchema
  const { User, Account, Session, VerificationToken, Authenticator, Factor, RecoveryCode } = schema.tables
  const storeColumns = cachedStoreColumns(store, dialect, schema)

  /**
   * Runs one method with the tables' columns at hand. A table it `uses` that does not exist fails with a message
   * saying how to create it; driver errors leave as classified `AdapterError`s.
   */
  const call = <T>(method: string, uses: TableName[], run: (tables: TableAccess) => Promise<T>) =>
    runStoreCall(method, classifySqlError, async () => {
      let columns = await storeColumns.get()
      if (uses.some((table) => !columns.has(table))) columns = await storeColumns.refresh()
      const tables = tableAccess(columns, method, dialect, schema)
      for (const table of uses) tables.columns(table)
      return run(tables)
    })

  return {
    createUser: (user) =>
      call('createUser', ['User'], async (tables) => {
        // A schema whose ids the database assigns (integer SERIAL ids) gets none from us.
        const { id, ...fields } = user
        const record = tables.assignsIds('User') ? fields : { ...fields, id: id || crypto.randomUUID() }
        const row = tables.write('User', record, 'insert')
        return userFromRow(tables.read('User', await insertReturning(store, dialect, User, row, ['id'])))
      }),
    getUser: (id) =>
      call('getUser', ['User'], async (tables) => {
        if (!tables.canMatch('User', 'id', id)) return null
        const row = await store.selectFrom(User).selectAll().where('id', '=', id).executeTakeFirst()
        return row ? userFromRow(tables.read('User', row)) : null
      }),
    getUserByEmail: (email) =>
      call('getUserByEmail', ['User'], async (tables) => {
        const row = await store.selectFrom(User).selectAll().where('email', '=', email).executeTakeFirst()
        return row ? userFromRow(tables.read('User', row)) : null
      }),
    getUserByAccount: ({ provider, providerAccountId }) =>
      call('getUserByAccount', ['Account', 'User'], async (tables) => {
        const row = await store
          .selectFrom(Account)
          .innerJoin(User, `${User}.id`, `${Account}.userId`)
          .selectAll(User)
          .where(`${Account}.provider`, '=', provider)
          .where(`${Account}.providerAccountId`, '=', providerAccountId)
          .executeTakeFirst()
        return row ? userFromRow(tables.read('User', row)) : null
      }),
    updateUser: ({ id, ...fields }) =>
      call('updateUser', ['User'], async (tables) => {
        const row = tables.canMatch('User', 'id', id)
          ? await updateReturning(store, dialect, User, tables.write('User', fields, 'update'), { id })
          : undefined
        if (!row) throw storeFailure('updateUser', 'not-found', 'a user with this id')
        return userFromRow(tables.read('User', row))
      }),
    deleteUser: (userId) =>
      call('deleteUser', ['User'], async (tables) => {
        if (!tables.canMatch('User', 'id', userId)) return null
        // Explicit deletes rather than relying on ON DELETE CASCADE: SQLite enforces foreign keys only when the
        // connection enabled them, and some schemas (@auth/pg-adapter's) have no foreign keys. One transaction, so a
        // failure half-way leaves the user whole.
        return store.transaction().execute(async (trx) => {
          const user = await trx.selectFrom(User).selectAll().where('id', '=', userId).executeTakeFirst()
          if (!user) return null
          for (const owned of ['Session', 'Account', 'Authenticator', 'RecoveryCode', 'Factor'] as const) {
            // A database from before WebAuthn or second-factor support may lack those tables: nothing to delete there.
            if (tables.has(owned)) await trx.deleteFrom(schema.tables[owned]).where('userId', '=', userId).execute()
          }
          await trx.deleteFrom(User).where('id', '=', userId).execute()
          return userFromRow(tables.read('User', user))
        })
      }),
    linkAccount: (account) =>
      call('linkAccount', ['Account'], async (tables) => {
        const { id, ...fields } = account
        const record = tables.assignsIds('Account')
          ? fields
          : { ...fields, id: typeof id === 'string' ? id : crypto.randomUUID() }
        const row = tables.write('Account', record, 'insert')
        return accountFromRow(
          tables.read(
            'Account',
            await insertReturning(store, dialect, Account, row, ['provider', 'providerAccountId']),
          ),
        )
      }),
    unlinkAccount: ({ provider, providerAccountId }) =>
      call('unlinkAccount', ['Account'], async (tables) => {
        const row = await deleteReturning(store, dialect, Account, { provider, providerAccountId })
        return row ? accountFromRow(tables.read('Account', row)) : undefined
      }),
    getAccount: (providerAccountId, provider) =>
      call('getAccount', ['Account'], async (tables) => {
        const row = await store
          .selectFrom(Account)
          .selectAll()
          .where('provider', '=', provider)
          .where('providerAccountId', '=', providerAccountId)
          .executeTakeFirst()
        return row ? accountFromRow(tables.read('Account', row)) : null
      }),
    listAccountsByUserId: (userId) =>
      call('listAccountsByUserId', ['Account'], async (tables) => {
        if (!tables.canMatch('Account', 'userId', userId)) return []
        const rows = await store.selectFrom(Account).selectAll().where('userId', '=', userId).execute()
        return rows.map((row) => accountFromRow(tables.read('Account', row)))
      }),
    updateAccount: ({ provider, providerAccountId, ...fields }) =>
      call('updateAccount', ['Account'], async (tables) => {
        // `undefined` leaves a column as it is; `null` writes NULL, which reads back as an absent field.
        const set = tables.write('Account', fields, 'update')
        const row = await updateReturning(store, dialect, Account, set, { provider, providerAccountId })
        return row ? accountFromRow(tables.read('Account', row)) : null
      }),
    createSession: (session) =>
      call('createSession', ['Session'], async (tables) => {
        const record = tables.assignsIds('Session') ? session : { ...session, id: crypto.randomUUID() }
        const row = tables.write('Session', record, 'insert')
        return sessionFromRow(
          tables.read('Session', await insertReturning(store, dialect, Session, row, ['sessionToken'])),
        )
      }),
    getSessionAndUser: (sessionToken) =>
      call('getSessionAndUser', ['Session', 'User'], async (tables) => {
        // The session check of every page view: one joined query, not two round trips.
        const sessionColumns = [...tables.columns('Session').keys()]
        const row = await store
          .selectFrom(Session)
          .innerJoin(User, `${User}.id`, `${Session}.userId`)
          .selectAll(User)
          .select((eb) =>
            sessionColumns.map((column) => eb.ref(`${Session}.${column}`).as(sessionColumnPrefix + column)),
          )
          .where(`${Session}.sessionToken`, '=', sessionToken)
          .executeTakeFirst()
        if (!row) return null
        const session: StoreRow = {}
        const user: StoreRow = {}
        for (const [key, value] of Object.entries(row)) {
          if (key.startsWith(sessionColumnPrefix)) session[key.slice(sessionColumnPrefix.length)] = value
          else user[key] = value
        }
        return {
          session: sessionFromRow(tables.read('Session', session)),
          user: userFromRow(tables.read('User', user)),
        }
      }),
    updateSession: ({ sessionToken, ...fields }) =>
      call('updateSession', ['Session'], async (tables) => {
        const row = await updateReturning(store, dialect, Session, tables.write('Session', fields, 'update'), {
          sessionToken,
        })
        return row ? sessionFromRow(tables.read('Session', row)) : null
      }),
    deleteSession: (sessionToken) =>
      call('deleteSession', ['Session'], async (tables) => {
        const row = await deleteReturning(store, dialect, Session, { sessionToken })
        return row ? sessionFromRow(tables.read('Session', row)) : null
      }),
    listSessionsByUser: (userId) =>
      call('listSessionsByUser', ['Session'], async (tables) => {
        if (!tables.canMatch('Session', 'userId', userId)) return []
        // Expired rows stay until they are met (as in Auth.js): only the live ones are the user's sessions. Compared
        // in JavaScript, as the engines store dates differently (text on SQLite).
        const rows = await store.selectFrom(Session).selectAll().where('userId', '=', userId).execute()
        const now = Date.now()
        return rows
          .map((row) => sessionFromRow(tables.read('Session', row)))
          .filter((session) => session.expires.getTime() > now)
      }),
    createVerificationToken: (verificationToken) =>
      call('createVerificationToken', ['VerificationToken'], async (tables) => {
        const row = tables.write('VerificationToken', verificationToken, 'insert')
        const stored = await insertReturning(store, dialect, VerificationToken, row, ['identifier', 'token'])
        return verificationTokenFromRow(tables.read('VerificationToken', stored))
      }),
    useVerificationToken: ({ identifier, token }) =>
      call('useVerificationToken', ['VerificationToken'], async (tables) => {
        // Matching on both columns: a wrong identifier deletes nothing, so the token stays usable by its owner.
        const row = await deleteReturning(store, dialect, VerificationToken, { identifier, token })
        return row ? verificationTokenFromRow(tables.read('VerificationToken', row)) : null
      }),
    createAuthenticator: (authenticator) =>
      call('createAuthenticator', ['Authenticator'], async (tables) => {
        const row = tables.write('Authenticator', authenticator, 'insert')
        return authenticatorFromRow(
          tables.read('Authenticator', await insertReturning(store, dialect, Authenticator, row, ['credentialID'])),
        )
      }),
    getAuthenticator: (credentialID) =>
      call('getAuthenticator', ['Authenticator'], async (tables) => {
        const row = await store
          .selectFrom(Authenticator)
          .selectAll()
          .where('credentialID', '=', credentialID)
          .executeTakeFirst()
        return row ? authenticatorFromRow(tables.read('Authenticator', row)) : null
      }),
    listAuthenticatorsByUserId: (userId) =>
      call('listAuthenticatorsByUserId', ['Authenticator'], async (tables) => {
        if (!tables.canMatch('Authenticator', 'userId', userId)) return []
        const rows = await store.selectFrom(Authenticator).selectAll().where('userId', '=', userId).execute()
        return rows.map((row) => authenticatorFromRow(tables.read('Authenticator', row)))
      }),
    updateAuthenticatorCounter: (credentialID, newCounter) =>
      call('updateAuthenticatorCounter', ['Authenticator'], async (tables) => {
        const set = tables.write('Authenticator', { counter: newCounter }, 'update')
        const row = await updateReturning(store, dialect, Authenticator, set, { credentialID })
        if (!row)
          throw storeFailure('updateAuthenticatorCounter', 'not-found', 'an authenticator with this credential id')
        return authenticatorFromRow(tables.read('Authenticator', row))
      }),
    createFactor: (factor) =>
      call('createFactor', ['Factor', 'RecoveryCode'], async (tables) => {
        const record = factorRecord(factor)
        const codes = (factor.recoveryCodeHashes ?? []).map((codeHash) =>
          tables.write('RecoveryCode', { codeHash, userId: record.userId, factorId: record.id }, 'insert'),
        )
        // The factor and its codes in one transaction: a taken code hash leaves no factor without its codes.
        const row = await store.transaction().execute(async (trx) => {
          await trx
            .insertInto(Factor)
            .values(tables.write('Factor', record, 'insert'))
            .execute()
          if (codes.length > 0) await trx.insertInto(RecoveryCode).values(codes).execute()
          return trx.selectFrom(Factor).selectAll().where('id', '=', record.id).executeTakeFirstOrThrow()
        })
        return factorFromRow(tables.read('Factor', row))
      }),
    listFactorsByUserId: (userId) =>
      call('listFactorsByUserId', ['Factor'], async (tables) => {
        if (!tables.canMatch('Factor', 'userId', userId)) return []
        const rows = await store
          .selectFrom(Factor)
          .selectAll()
          .where('userId', '=', userId)
          .orderBy('createdAt')
          .orderBy('id')
          .execute()
        return rows.map((row) => factorFromRow(tables.read('Factor', row)))
      }),
    useTotpStep: ({ userId, factorId, step }) =>
      call('useTotpStep', ['Factor'], async (tables) => {
        if (!Number.isSafeInteger(step)) return false
        if (!tables.canMatch('Factor', 'id', factorId) || !tables.canMatch('Factor', 'userId', userId)) return false
        // One conditional UPDATE: the row lock makes a concurrent twin re-read the new step and match nothing.
        const result = await store
          .updateTable(Factor)
          .set({ lastUsedStep: step })
          .where('id', '=', factorId)
          .where('userId', '=', userId)
          .where('type', '=', 'totp')
          .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
          .executeTakeFirst()
        return result.numUpdatedRows === 1n
      }),
    useRecoveryCode: ({ userId, codeHash }) =>
      call('useRecoveryCode', ['RecoveryCode'], async (tables) => {
        if (!tables.canMatch('RecoveryCode', 'userId', userId)) return false
        // Matching on the user too: another user's code deletes nothing and stays usable by its owner.
        return (await deleteReturning(store, dialect, RecoveryCode, { userId, codeHash })) !== undefined
      }),
    deleteFactor: ({ userId, factorId }) =>
      call('deleteFactor', ['Factor', 'RecoveryCode'], async (tables) => {
        if (!tables.canMatch('Factor', 'id', factorId) || !tables.canMatch('Factor', 'userId', userId)) return null
        return store.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom(Factor)
            .selectAll()
            .where('id', '=', factorId)
            .where('userId', '=', userId)
            .executeTakeFirst()
          if (!row) return null
          await trx.deleteFrom(RecoveryCode).where('factorId', '=', factorId).execute()
          await trx.deleteFrom(Factor).where('id', '=', factorId).execute()
          return factorFromRow(tables.read('Factor', row))
        })
      }),
  }
}

/** The tables' columns as one adapter call uses them. */
interface TableAccess {
  /** The columns of `table`; throws when the table does not exist. */
  columns(table: TableName): Map<string, StoreColumn>
  /** Whether `table` exists. */
  has(table: TableName): boolean
  /**
   * The fields of `record` that `table` has columns for, ready for the driver. An `updatedAt` column (Prisma's
   * schema, where it has no database default) is set to now on every write, as Prisma's client does.
   */
  write(table: TableName, record: object, purpose: 'insert' | 'update'): StoreRow
  /** A row as read, dates of wall-clock columns as UTC. */
  read(table: TableName, row: StoreRow): StoreRow
  /** Whether the database assigns `table`'s ids (an integer `id` column). */
  assignsIds(table: TableName): boolean
  /**
   * False when `value` can match no row: a PostgreSQL `uuid` or integer column compared with text that is not a
   * UUID or a number is an error, not a miss, and "not found" must stay `null` / `[]`.
   */
  canMatch(table: TableName, column: string, value: string): boolean
}

function tableAccess(columns: StoreColumns, method: string, dialect: SqlDialect, schema: SchemaMapping): TableAccess {
  const columnsOf = (table: TableName) => {
    const found = columns.get(table)
    if (!found) {
      const name = schema.tables[table]
      const message =
        schema === defaultSchema
          ? `${method}: table "${name}" does not exist; create the schema with migrate(db) or \`authchart migrate\``
          : `${method}: table "${name}" (${table} in the "${schema.name}" schema) does not exist; create it with the tool that made the others`
      throw new AdapterError(message, { method, table: name })
    }
    return found
  }
  return {
    columns: columnsOf,
    has: (table) => columns.has(table),
    write: (table, record, purpose) => {
      const tableColumns = columnsOf(table)
      const touched = tableColumns.has('updatedAt') && !('updatedAt' in record) ? { updatedAt: new Date() } : {}
      return rowForWrite(
        purpose === 'insert' || Object.keys(record).length > 0 ? { ...record, ...touched } : record,
        tableColumns,
        dialect,
      )
    },
    read: (table, row) => rowFromStore(row, columnsOf(table)),
    assignsIds: (table) => columnsOf(table).get('id')?.isInteger === true,
    canMatch: (table, column, value) => {
      const found = columnsOf(table).get(column)
      if (found?.isUuid) return uuidPattern.test(value)
      if (found?.isInteger && dialect === 'postgres') return integerPattern.test(value)
      return true
    },
  }
}
