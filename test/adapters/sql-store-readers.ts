/**
 * Raw readers of the SQL tables for the conformance suite: plain SQL through the driver, no Kysely and no adapter
 * code, so the suite sees what is really stored.
 */
import type { StoreReaders } from './conformance.js'

/** Runs one parameterised SELECT through the driver and returns its rows. */
export type RawQuery = (text: string, values: unknown[]) => Promise<object[]>

/** Readers for the five tables. `dialect` decides quoting and placeholders. */
export function sqlStoreReaders(dialect: 'postgres' | 'mysql' | 'sqlite', query: RawQuery): StoreReaders {
  const quote = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  const placeholder = (index: number) => (dialect === 'postgres' ? `$${index + 1}` : '?')
  const selectOne = async (table: string, match: Record<string, string>) => {
    const columns = Object.keys(match)
    const where = columns.map((column, index) => `${quote(column)} = ${placeholder(index)}`).join(' and ')
    const rows = await query(`select * from ${quote(table)} where ${where}`, Object.values(match))
    return rows[0] ?? null
  }
  return {
    user: (id) => selectOne('User', { id }),
    account: (provider, providerAccountId) => selectOne('Account', { provider, providerAccountId }),
    session: (sessionToken) => selectOne('Session', { sessionToken }),
    verificationToken: (identifier, token) => selectOne('VerificationToken', { identifier, token }),
    authenticator: (credentialID) => selectOne('Authenticator', { credentialID }),
  }
}
