/** The records and types the conformance suite's tests share. */
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from '../../src/types/adapters.js'

/** Reads records straight from the store, bypassing the adapter; `null` when absent. */
export interface StoreReaders {
  user(id: string): Promise<object | null>
  account(provider: string, providerAccountId: string): Promise<object | null>
  session(sessionToken: string): Promise<object | null>
  verificationToken(identifier: string, token: string): Promise<object | null>
  authenticator(credentialID: string): Promise<object | null>
}

/** Reads second-factor records straight from the store, bypassing the adapter. */
export interface FactorStoreReaders {
  /** The factor as stored, `null` when absent. */
  factor(userId: string, factorId: string): Promise<object | null>
  /** The hashes of the user's unused recovery codes, as stored. */
  recoveryCodeHashes(userId: string): Promise<string[]>
}

/** What a store's schema decides, where Auth.js's schemas differ. */
export interface StoreTraits {
  /** The database assigns user ids (integer SERIAL ids); the id given to `createUser` is not kept. */
  assignsUserIds?: boolean
  /** Session and token expiry dates are kept to this many milliseconds (1000 for a column without fractions). */
  expiryPrecisionMs?: number
}

/** What a backend hands the suite. */
export interface ConformanceTarget {
  adapter: Adapter
  store: StoreReaders
  /** Needed unless the suite runs with `{ factors: false }`. */
  factorStore?: FactorStoreReaders
  traits?: StoreTraits
}

/** The adapter with every method present, and the store readers, once the suite has connected. */
export interface ConformanceContext {
  adapter: Required<Adapter>
  store: StoreReaders
  factorStore: FactorStoreReaders | undefined
  traits: StoreTraits
}

/** Expects an expiry read back to be the one written, to the precision the store keeps. */
export function expectExpiry(context: ConformanceContext, read: Date | undefined, written: Date): void {
  const precision = context.traits.expiryPrecisionMs ?? 1
  if (precision === 1) expect(read?.getTime()).toBe(written.getTime())
  else expect(Math.abs((read?.getTime() ?? Number.NaN) - written.getTime())).toBeLessThan(precision)
}

const day = 24 * 60 * 60 * 1000

/** A date `days` from now, with milliseconds (every store must keep them). */
export function inDays(days: number): Date {
  return new Date(Date.now() + days * day)
}

/** A user no other test uses. */
export function newUser(fields: Partial<AdapterUser> = {}): AdapterUser {
  return {
    id: randomUUID(),
    email: `${randomUUID()}@example.com`,
    emailVerified: null,
    name: 'Ada Lovelace',
    image: 'https://example.com/ada.png',
    ...fields,
  }
}

/** An OIDC account of `userId` with every token field the schema has. */
export function newAccount(userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: 'oidc',
    provider: 'example-idp',
    providerAccountId: randomUUID(),
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    id_token: 'id-token',
    token_type: 'bearer',
    scope: 'openid email',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    session_state: 'session-state',
    ...fields,
  }
}

/** A WebAuthn credential of `userId`. */
export function newAuthenticator(userId: string, fields: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  return {
    credentialID: randomUUID(),
    userId,
    providerAccountId: randomUUID(),
    counter: 0,
    credentialBackedUp: true,
    credentialPublicKey: 'pQECAyYgASFYIA==',
    credentialDeviceType: 'multiDevice',
    transports: 'internal,hybrid',
    ...fields,
  }
}
