/**
 * Raw readers of the SQL tables for the conformance suite: plain SQL through the driver, no Kysely and no adapter
 * code, so the suite sees what is really stored.
 */
import { schemas, type SchemaMapping } from '../../adapters/sql/index.js'
import type { FactorStoreReaders, StoreReaders } from './conformance.js'

/** Runs one parameterised SELECT through the driver and returns its rows. */
export type RawQuery = (text: string, values: unknown[]) => Promise<object[]>

/**
 * Readers for the five tables, under the names `schema` gives them. `dialect` decides quoting and placeholders.
 * With integer user ids, an id that is no number matches nothing (PostgreSQL would refuse the comparison).
 */
export function sqlStoreReaders(
  dialect: 'postgres' | 'mysql' | 'sqlite',
  query: RawQuery,
  schema: SchemaMapping = schemas.kysely,
  integerUserIds = false,
): StoreReaders {
  const { tables } = schema
  const quote = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  const placeholder = (index: number) => (dialect === 'postgres' ? `$${index + 1}` : '?')
  const selectOne = async (table: string, match: Record<string, string>) => {
    const columns = Object.keys(match)
    const where = columns.map((column, index) => `${quote(column)} = ${placeholder(index)}`).join(' and ')
    const rows = await query(`select * from ${quote(table)} where ${where}`, Object.values(match))
    const row = rows[0]
    if (!row || !integerUserIds) return row ?? null
    // The models carry ids as strings; integer id columns are compared as the adapter hands them out.
    const ids = Object.entries(row).filter(([column]) => column === 'id' || column === 'userId')
    return { ...row, ...Object.fromEntries(ids.map(([column, value]) => [column, String(value)])) }
  }
  return {
    user: async (id) => (integerUserIds && !/^\d+$/.test(id) ? null : selectOne(tables.User, { id })),
    account: (provider, providerAccountId) => selectOne(tables.Account, { provider, providerAccountId }),
    session: (sessionToken) => selectOne(tables.Session, { sessionToken }),
    verificationToken: (identifier, token) => selectOne(tables.VerificationToken, { identifier, token }),
    authenticator: (credentialID) => selectOne(tables.Authenticator, { credentialID }),
  }
}

/** Readers for the two second-factor tables of the schema `migrate` makes. */
export function sqlFactorStoreReaders(dialect: 'postgres' | 'mysql' | 'sqlite', query: RawQuery): FactorStoreReaders {
  const quote = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  const placeholder = (index: number) => (dialect === 'postgres' ? `$${index + 1}` : '?')
  // A PostgreSQL uuid column refuses text that is no UUID: such an id matches nothing.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  return {
    factor: async (userId, factorId) => {
      if (dialect === 'postgres' && !(uuid.test(userId) && uuid.test(factorId))) return null
      const rows = await query(
        `select * from ${quote('Factor')} where ${quote('id')} = ${placeholder(0)} and ${quote('userId')} = ${placeholder(1)}`,
        [factorId, userId],
      )
      return rows[0] ?? null
    },
    recoveryCodeHashes: async (userId) => {
      if (dialect === 'postgres' && !uuid.test(userId)) return []
      const rows = await query(
        `select ${quote('codeHash')} as h from ${quote('RecoveryCode')} where ${quote('userId')} = ${placeholder(0)}`,
        [userId],
      )
      return rows.map((row) => ('h' in row ? String(row.h) : ''))
    },
  }
}
