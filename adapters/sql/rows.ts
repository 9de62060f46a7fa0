/**
 * Rows to models and models to rows. Reading undoes each engine's storage quirks (dates as text, booleans as 0/1,
 * `bigint` as strings); writing keeps only fields that have a column, so provider-specific token fields
 * (`expires_in`, `not-before-policy`, ...) never break an insert, while extra columns an app added are kept.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from '../../src/types/adapters.js'
import { AdapterError } from '../../src/errors.js'
import { toBoolean, toDate, toNumber, toStoreValue, type SqlDialect } from './dialect.js'
import type { StoreColumn } from './store-columns.js'

/** A date as the column stores it (see `DateStorage`); any other value as the driver must receive it. */
function storeValue(value: unknown, column: StoreColumn, dialect: SqlDialect): unknown {
  if (value instanceof Date) {
    if (column.dateStorage === 'epoch-ms') return value.getTime()
    if (column.dateStorage === 'iso-text') return value.toISOString()
    // PostgreSQL ignores a zone in a literal for `timestamp without time zone`; the UTC wall clock is what is kept.
    if (column.dateStorage === 'utc-wall-clock') return value.toISOString().replace('T', ' ').replace('Z', '')
  }
  return toStoreValue(value, dialect)
}

/**
 * A row as the store gave it, with dates of `timestamp without time zone` columns read as UTC: pg reads such a
 * value as the process's local time, while Prisma and Drizzle write UTC there.
 */
export function rowFromStore(row: StoreRow, columns: Map<string, StoreColumn>): StoreRow {
  const read: StoreRow = { ...row }
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof Date && columns.get(name)?.dateStorage === 'utc-wall-clock') {
      read[name] = new Date(value.getTime() - value.getTimezoneOffset() * 60_000)
    }
  }
  return read
}

/** A row as Kysely returns it when the table's columns are not known statically. */
export type StoreRow = Record<string, unknown>

/** The fields of `record` that have a column, converted for the driver; `undefined` means "not given". */
export function rowForWrite(record: object, columns: Map<string, StoreColumn>, dialect: SqlDialect): StoreRow {
  const row: StoreRow = {}
  for (const [field, value] of Object.entries(record)) {
    const column = columns.get(field)
    if (value !== undefined && column) row[field] = storeValue(value, column, dialect)
  }
  return row
}

/** A `User` row as an `AdapterUser`; extra columns are kept as they come. */
export function userFromRow(row: StoreRow): AdapterUser {
  return {
    ...row,
    id: String(row.id),
    name: optionalString(row.name),
    // NULL for a user created without an address (some OAuth providers share none). The model says `string`;
    // turning NULL into '' would let a later `updateUser` write '' and collide on the unique index.
    email: row.email as string,
    image: optionalString(row.image),
    emailVerified: toDate(row.emailVerified),
  }
}

/**
 * An `Account` row as an `AdapterAccount`. Token fields are optional strings in the model, so a NULL column
 * becomes an absent field rather than a `null` the types do not allow.
 */
export function accountFromRow(row: StoreRow): AdapterAccount {
  const present = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null))
  const account: AdapterAccount = {
    ...present,
    userId: String(row.userId),
    type: String(row.type) as AdapterAccount['type'],
    provider: String(row.provider),
    providerAccountId: String(row.providerAccountId),
  }
  if (present.expires_at !== undefined) account.expires_at = toNumber(present.expires_at)
  return account
}

/** The session record's date columns (`migrate` adds them; SQLite keeps them as text). */
const sessionRecordDates = ['createdAt', 'lastSeenAt', 'authTime'] as const

/** A `Session` row as an `AdapterSession`; the record's dates as `Date`s, a NULL one as `null`. */
export function sessionFromRow(row: StoreRow): AdapterSession {
  const session: AdapterSession = {
    ...row,
    sessionToken: String(row.sessionToken),
    userId: String(row.userId),
    expires: requiredDate(row.expires),
  }
  for (const field of sessionRecordDates) if (field in row) session[field] = toDate(row[field])
  return session
}

/** A `VerificationToken` row as a `VerificationToken`. */
export function verificationTokenFromRow(row: StoreRow): VerificationToken {
  return { ...row, identifier: String(row.identifier), token: String(row.token), expires: requiredDate(row.expires) }
}

/** An `Authenticator` row as an `AdapterAuthenticator`. */
export function authenticatorFromRow(row: StoreRow): AdapterAuthenticator {
  return {
    ...row,
    credentialID: String(row.credentialID),
    userId: String(row.userId),
    providerAccountId: String(row.providerAccountId),
    credentialPublicKey: String(row.credentialPublicKey),
    counter: toNumber(row.counter),
    credentialDeviceType: String(row.credentialDeviceType),
    credentialBackedUp: toBoolean(row.credentialBackedUp),
    transports: optionalString(row.transports),
  }
}

/** A `Factor` row as an `AdapterFactor`. */
export function factorFromRow(row: StoreRow): AdapterFactor {
  const type = String(row.type)
  if (type !== 'totp' && type !== 'recovery-codes') {
    throw new AdapterError('a Factor row has a type this version does not know', { type })
  }
  return {
    id: String(row.id),
    userId: String(row.userId),
    type,
    secret: optionalString(row.secret),
    lastUsedStep: row.lastUsedStep === null || row.lastUsedStep === undefined ? null : toNumber(row.lastUsedStep),
    label: optionalString(row.label),
    createdAt: requiredDate(row.createdAt),
  }
}

function optionalString(value: unknown): string | null {
  return value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value)
}

function requiredDate(value: unknown): Date {
  const date = toDate(value)
  if (!date) throw new AdapterError('a NOT NULL date column came back empty')
  return date
}
