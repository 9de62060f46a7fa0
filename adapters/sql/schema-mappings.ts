/**
 * Table-name mappings for the schemas of Auth.js's other SQL adapters, so that `KyselyAdapter(db, { schema })` reads
 * and writes a database another Auth.js adapter made, as it stands. Column names are the same in all of them (the
 * Auth.js model's field names); what differs is the table names, which id columns exist, and how ids and dates are
 * stored. The adapter learns the last three from the database itself (see store-columns.ts), so a mapping only
 * names the tables.
 */
import type { TableName } from './schema.js'

/**
 * Which table holds each model. None of Auth.js's schemas has the two second-factor tables: the names given here are
 * the ones Authchart uses when an app adds them (`Factor`, `RecoveryCode` spelled in the schema's own style).
 */
export interface SchemaMapping {
  /** What the mapping is for, shown in error messages. */
  name: string
  tables: Readonly<Record<TableName, string>>
}

/** The ready-made mappings. */
export const schemas = {
  /** What `migrate()` creates, and `@auth/kysely-adapter`'s documented schema: the default. */
  kysely: {
    name: 'kysely',
    tables: {
      User: 'User',
      Account: 'Account',
      Session: 'Session',
      VerificationToken: 'VerificationToken',
      Authenticator: 'Authenticator',
      Factor: 'Factor',
      RecoveryCode: 'RecoveryCode',
    },
  },
  /**
   * `@auth/prisma-adapter`'s documented `schema.prisma` as `prisma migrate` creates it: the model names as table
   * names, no `id` on accounts and sessions, `createdAt`/`updatedAt` columns (`updatedAt` has no database default,
   * so the adapter fills it, as Prisma's client does).
   */
  prisma: {
    name: 'prisma',
    tables: {
      User: 'User',
      Account: 'Account',
      Session: 'Session',
      VerificationToken: 'VerificationToken',
      Authenticator: 'Authenticator',
      Factor: 'Factor',
      RecoveryCode: 'RecoveryCode',
    },
  },
  /** `@auth/drizzle-adapter`'s default tables: lower-case singular names, no `id` on accounts and sessions. */
  drizzle: {
    name: 'drizzle',
    tables: {
      User: 'user',
      Account: 'account',
      Session: 'session',
      VerificationToken: 'verificationToken',
      Authenticator: 'authenticator',
      Factor: 'factor',
      RecoveryCode: 'recoveryCode',
    },
  },
  /**
   * `@auth/pg-adapter`'s documented schema: plural names, `verification_token`, SERIAL integer ids that the
   * database assigns. It has no passkey table; `authenticators` is the name Authchart uses when an app adds one.
   */
  pgAdapter: {
    name: 'pgAdapter',
    tables: {
      User: 'users',
      Account: 'accounts',
      Session: 'sessions',
      VerificationToken: 'verification_token',
      Authenticator: 'authenticators',
      Factor: 'factors',
      RecoveryCode: 'recovery_codes',
    },
  },
} as const satisfies Record<string, SchemaMapping>

/** The mapping used when none is given. */
export const defaultSchema: SchemaMapping = schemas.kysely
