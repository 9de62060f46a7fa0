/**
 * The SQL schema: the tables and column names Auth.js documents for its SQL adapters (`User`, `Account`, `Session`,
 * `VerificationToken`, `Authenticator`), so a database made for `@auth/kysely-adapter` works unchanged.
 * Column types follow the documented ones per engine: `uuid`/`timestamptz` on PostgreSQL, `varchar(36)`/
 * `datetime(3)` on MySQL, text and integers on SQLite.
 */
import { Kysely } from 'kysely'
import type { SqlDialect } from './dialect.js'

/**
 * The table names, users first (the others refer to it): Auth.js's five, then Authchart's two for second factors
 * (docs/adapters.md, "Second factors (storage)").
 */
export const tableNames = [
  'User',
  'Account',
  'Session',
  'VerificationToken',
  'Authenticator',
  'Factor',
  'RecoveryCode',
] as const
export type TableName = (typeof tableNames)[number]

/** The kinds of column the schema uses; `columnType` maps each to an engine's type. */
type ColumnKind = 'id' | 'key' | 'text' | 'timestamp' | 'bigint' | 'integer' | 'boolean'

/** One column of the documented schema. */
export interface ColumnSpec {
  name: string
  kind: ColumnKind
  notNull?: boolean
  primaryKey?: boolean
  unique?: boolean
  /**
   * A nullable column that came after the first schema: `migrate` adds it to a table that exists without it, and the
   * adapter works without it (docs/adapters.md, "Session record columns").
   */
  added?: boolean
}

/** One table of the documented schema. */
export interface TableSpec {
  name: TableName
  columns: ColumnSpec[]
  /** `userId` refers to `User.id`, and rows go with their user (ON DELETE CASCADE). */
  ownedByUser: boolean
  uniqueTogether?: { name: string; columns: string[] }
  /** Indexes on `userId`, for the cascades and per-user lookups. */
  indexes: { name: string; columns: string[] }[]
}

const userId: ColumnSpec = { name: 'userId', kind: 'id', notNull: true }

export const tableSpecs: readonly TableSpec[] = [
  {
    name: 'User',
    ownedByUser: false,
    columns: [
      { name: 'id', kind: 'id', primaryKey: true },
      { name: 'name', kind: 'text' },
      { name: 'email', kind: 'key', unique: true },
      { name: 'emailVerified', kind: 'timestamp' },
      { name: 'image', kind: 'text' },
    ],
    indexes: [],
  },
  {
    name: 'Account',
    ownedByUser: true,
    columns: [
      { name: 'id', kind: 'id', primaryKey: true },
      userId,
      { name: 'type', kind: 'key', notNull: true },
      { name: 'provider', kind: 'key', notNull: true },
      { name: 'providerAccountId', kind: 'key', notNull: true },
      { name: 'refresh_token', kind: 'text' },
      { name: 'access_token', kind: 'text' },
      { name: 'expires_at', kind: 'bigint' },
      { name: 'token_type', kind: 'text' },
      { name: 'scope', kind: 'text' },
      { name: 'id_token', kind: 'text' },
      { name: 'session_state', kind: 'text' },
    ],
    uniqueTogether: { name: 'Account_provider_providerAccountId_key', columns: ['provider', 'providerAccountId'] },
    indexes: [{ name: 'Account_userId_index', columns: ['userId'] }],
  },
  {
    name: 'Session',
    ownedByUser: true,
    columns: [
      { name: 'id', kind: 'id', primaryKey: true },
      userId,
      { name: 'sessionToken', kind: 'key', notNull: true, unique: true },
      { name: 'expires', kind: 'timestamp', notNull: true },
      // The session record (docs/sessions.md): what the user sees in the device list, and when they signed in.
      { name: 'createdAt', kind: 'timestamp', added: true },
      { name: 'lastSeenAt', kind: 'timestamp', added: true },
      { name: 'deviceSummary', kind: 'text', added: true },
      { name: 'clientAddress', kind: 'text', added: true },
      { name: 'method', kind: 'text', added: true },
      { name: 'amr', kind: 'text', added: true },
      { name: 'authTime', kind: 'timestamp', added: true },
    ],
    indexes: [{ name: 'Session_userId_index', columns: ['userId'] }],
  },
  {
    name: 'VerificationToken',
    ownedByUser: false,
    columns: [
      { name: 'identifier', kind: 'key', notNull: true },
      { name: 'token', kind: 'key', notNull: true, unique: true },
      { name: 'expires', kind: 'timestamp', notNull: true },
    ],
    indexes: [],
  },
  {
    name: 'Authenticator',
    ownedByUser: true,
    columns: [
      { name: 'credentialID', kind: 'key', primaryKey: true },
      userId,
      { name: 'providerAccountId', kind: 'key', notNull: true },
      { name: 'credentialPublicKey', kind: 'text', notNull: true },
      { name: 'counter', kind: 'integer', notNull: true },
      { name: 'credentialDeviceType', kind: 'key', notNull: true },
      { name: 'credentialBackedUp', kind: 'boolean', notNull: true },
      { name: 'transports', kind: 'text' },
    ],
    indexes: [{ name: 'Authenticator_userId_index', columns: ['userId'] }],
  },
  {
    // A second factor: a TOTP (its secret sealed with the app's secret) or a set of recovery codes.
    name: 'Factor',
    ownedByUser: true,
    columns: [
      { name: 'id', kind: 'id', primaryKey: true },
      userId,
      { name: 'type', kind: 'key', notNull: true },
      { name: 'secret', kind: 'text' },
      { name: 'lastUsedStep', kind: 'bigint' },
      { name: 'label', kind: 'text' },
      { name: 'createdAt', kind: 'timestamp', notNull: true },
    ],
    indexes: [{ name: 'Factor_userId_index', columns: ['userId'] }],
  },
  {
    // One unused recovery code, by its hash: spending it deletes the row, which only one caller can do.
    name: 'RecoveryCode',
    ownedByUser: true,
    columns: [
      { name: 'codeHash', kind: 'key', primaryKey: true },
      userId,
      { name: 'factorId', kind: 'id', notNull: true },
    ],
    indexes: [
      { name: 'RecoveryCode_userId_index', columns: ['userId'] },
      { name: 'RecoveryCode_factorId_index', columns: ['factorId'] },
    ],
  },
]

// MySQL cannot index or make unique a `text` column without a prefix length, so keys are varchar(255).
// `datetime(3)` keeps milliseconds, as a JavaScript Date does; `timestamp` would refuse every date after 2038-01-19,
// which a long-lived session or token reaches.
const columnTypes: Record<SqlDialect, Record<ColumnKind, string>> = {
  postgres: {
    id: 'uuid',
    key: 'text',
    text: 'text',
    timestamp: 'timestamptz',
    bigint: 'bigint',
    integer: 'integer',
    boolean: 'boolean',
  },
  mysql: {
    id: 'varchar(36)',
    key: 'varchar(255)',
    text: 'text',
    timestamp: 'datetime(3)',
    bigint: 'bigint',
    integer: 'integer',
    boolean: 'boolean',
  },
  sqlite: {
    id: 'text',
    key: 'text',
    text: 'text',
    timestamp: 'text',
    bigint: 'integer',
    integer: 'integer',
    boolean: 'integer',
  },
}

/**
 * A default for the `id` primary key of `User`, `Account` and `Session`, so that rows written by code that gives
 * no id (`@auth/kysely-adapter`'s `linkAccount` and `createSession`) still get a unique one. SQLite builds a
 * version-4 UUID from random bytes, as it has no UUID function.
 */
const idDefaults: Record<SqlDialect, string> = {
  postgres: 'gen_random_uuid()',
  mysql: '(uuid())',
  sqlite: `(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2)
    || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))`,
}

/** The SQL default of an id primary key on `dialect`. */
export function idDefault(dialect: SqlDialect): string {
  return idDefaults[dialect]
}

/** The engine's type for a column kind. */
export function columnType(dialect: SqlDialect, kind: ColumnKind): string {
  return columnTypes[dialect][kind]
}

/** The documented tables with their column types, for apps that type their Kysely instance. */
export interface AuthchartDatabase {
  User: {
    id: string
    name: string | null
    email: string | null
    emailVerified: Date | string | null
    image: string | null
  }
  Account: {
    id: string
    userId: string
    type: string
    provider: string
    providerAccountId: string
    refresh_token: string | null
    access_token: string | null
    expires_at: number | string | null
    token_type: string | null
    scope: string | null
    id_token: string | null
    session_state: string | null
  }
  Session: {
    id: string
    userId: string
    sessionToken: string
    expires: Date | string
    createdAt: Date | string | null
    lastSeenAt: Date | string | null
    deviceSummary: string | null
    clientAddress: string | null
    method: string | null
    /** JSON text: `["pwd","otp"]`. */
    amr: string | null
    authTime: Date | string | null
  }
  VerificationToken: {
    identifier: string
    token: string
    expires: Date | string
  }
  Authenticator: {
    credentialID: string
    userId: string
    providerAccountId: string
    credentialPublicKey: string
    counter: number
    credentialDeviceType: string
    credentialBackedUp: boolean | number
    transports: string | null
  }
  Factor: {
    id: string
    userId: string
    type: string
    secret: string | null
    lastUsedStep: number | string | null
    label: string | null
    createdAt: Date | string
  }
  RecoveryCode: {
    codeHash: string
    userId: string
    factorId: string
  }
}

/** The name `@auth/kysely-adapter` gives the same interface. */
export type Database = AuthchartDatabase

/**
 * A `Kysely` whose database interface must contain the tables above; the same as `Kysely<DB>` at run time.
 * Kept for apps moving from `@auth/kysely-adapter`, which exports a class of this name.
 */
export class KyselyAuth<DB extends T, T = AuthchartDatabase> extends Kysely<DB> {}
