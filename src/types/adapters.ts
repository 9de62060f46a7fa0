/**
 * The data-layer contract: the models and the `Adapter` interface every storage adapter implements.
 * All methods are optional; the core asks only for what the configuration needs.
 * @module adapters
 */
import type { Account, Awaitable, User } from './models.js'

/** A user row. `emailVerified` is null until the first successful e-mail sign-in. */
export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
}

/** An account row: a user's link to one provider. */
/** The kinds of provider an account row can come from. */
export type AdapterAccountType = 'oauth' | 'oidc' | 'email' | 'webauthn'

export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

/**
 * Authchart's record of a database session, kept on the row by adapters that have `listSessionsByUser` (the memory,
 * Redis and SQL adapters; on SQL once `migrate()` added the columns). Every field is optional: an Auth.js adapter
 * never receives them, and a row written before them has none (docs/sessions.md, "Where the record is kept").
 */
export interface AdapterSessionRecord {
  /** When the session was made (the sign-in). */
  createdAt?: Date | null
  /** When the session was last seen, at most `updateAge` late: written when the row's expiry slides. */
  lastSeenAt?: Date | null
  /** A short summary of the browser's User-Agent ("Firefox on Linux"). */
  deviceSummary?: string | null
  /** The client's address as the request limits see it. */
  clientAddress?: string | null
  /** The provider signed in with. */
  method?: string | null
  /** The sign-in's authentication methods (`amr`), as JSON text: `["pwd","otp"]`. */
  amr?: string | null
  /** When the user last proved who they are in this session (the sign-in, or a later step-up). */
  authTime?: Date | null
}

/** A database session row. */
export interface AdapterSession extends AdapterSessionRecord {
  sessionToken: string
  userId: string
  expires: Date
}

/** A single-use e-mail sign-in token (`token` is stored hashed). */
export interface VerificationToken {
  identifier: string
  token: string
  expires: Date
}

/** A WebAuthn credential. `credentialID` and `credentialPublicKey` are base64. */
export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  credentialDeviceType: string
  transports?: string | null
}

/** The kinds of second factor a user can hold. */
export type AdapterFactorType = 'totp' | 'recovery-codes'

/**
 * A second factor of a user (docs/adapters.md, "Second factors (storage)"). A set of recovery codes is one factor;
 * its codes are stored beside it, hashed, and leave only through `useRecoveryCode`.
 */
export interface AdapterFactor {
  id: string
  userId: string
  type: AdapterFactorType
  /** TOTP: the shared secret sealed with the app's secret (`src/factors/secret-seal.ts`), never in the clear; `null` for recovery codes. */
  secret: string | null
  /** TOTP: the last time step a code was accepted for; `null` before the first. Codes of this step and earlier are refused. */
  lastUsedStep: number | null
  /** A name the user gave it ("phone"); `null` when none. */
  label: string | null
  createdAt: Date
}

/** A factor to create: a set of recovery codes brings the hashes of its codes (`hashRecoveryCode`). */
export interface NewAdapterFactor extends AdapterFactor {
  recoveryCodeHashes?: readonly string[]
}

/** The storage interface. Methods that must throw on failure say so. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>,
  ): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, 'id'>): Awaitable<AdapterUser>
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  getAccount?(
    providerAccountId: AdapterAccount['providerAccountId'],
    provider: AdapterAccount['provider'],
  ): Awaitable<AdapterAccount | null>
  createSession?(
    session: { sessionToken: string; userId: string; expires: Date } & AdapterSessionRecord,
  ): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, 'sessionToken'>,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  getAuthenticator?(credentialID: AdapterAuthenticator['credentialID']): Awaitable<AdapterAuthenticator | null>
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator['userId']): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator['credentialID'],
    newCounter: AdapterAuthenticator['counter'],
  ): Awaitable<AdapterAuthenticator>
  /**
   * Authchart: every account of a user. Token refresh with database sessions finds the provider's tokens through it
   * (docs/token-refresh.md); Auth.js adapters do not have it.
   */
  listAccountsByUserId?(userId: AdapterAccount['userId']): Awaitable<AdapterAccount[]>
  /**
   * Authchart: changes the given fields of an account (the provider's tokens after a refresh); `null` when there is
   * no such account. A field set to `null` is cleared. Auth.js adapters do not have it.
   */
  updateAccount?(
    account: Pick<AdapterAccount, 'provider' | 'providerAccountId'> & AccountTokenFields,
  ): Awaitable<AdapterAccount | null>
  /**
   * Authchart: stores a second factor, with the hashes of its recovery codes, in one step (all or nothing).
   * Throws an `AdapterError` when a factor with this id or a code with one of these hashes exists.
   */
  createFactor?(factor: NewAdapterFactor): Awaitable<AdapterFactor>
  /** Authchart: every second factor of a user, `[]` when none (or no such user). */
  listFactorsByUserId?(userId: AdapterFactor['userId']): Awaitable<AdapterFactor[]>
  /**
   * Authchart: records that a code of `step` was accepted for the user's TOTP factor, only if `step` is above its
   * `lastUsedStep`: `true` when it was, `false` otherwise (a step used already, by this call's twin running at the
   * same time too, or no such factor of this user). Atomic: of concurrent calls for one step, one gets `true`.
   */
  useTotpStep?(params: { userId: string; factorId: string; step: number }): Awaitable<boolean>
  /**
   * Authchart: spends one of the user's recovery codes, by its hash: `true` the first time, `false` ever after and
   * for a hash the user does not have. Atomic: of concurrent calls for one code, one gets `true`.
   */
  useRecoveryCode?(params: { userId: string; codeHash: string }): Awaitable<boolean>
  /** Authchart: deletes a factor of the user (with its recovery codes) and returns it; `null` when there is none. */
  deleteFactor?(params: { userId: string; factorId: string }): Awaitable<AdapterFactor | null>
  /**
   * Authchart: the user's unexpired database sessions, with the record fields the row keeps, `[]` when none. Having
   * it says that the adapter keeps the session record (`AdapterSessionRecord`) on the row: the core then hands those
   * fields to `createSession` and `updateSession`. Auth.js adapters do not have it; the record then stays in the
   * session store (docs/sessions.md).
   */
  listSessionsByUser?(userId: AdapterSession['userId']): Awaitable<AdapterSession[]>
}

/** The token fields of an account that `updateAccount` may change; `null` clears one. */
export interface AccountTokenFields {
  access_token?: string | null
  refresh_token?: string | null
  expires_at?: number | null
  id_token?: string | null
  scope?: string | null
  token_type?: string | null
}

/** The names of all adapter methods, in the order of the spec's table. */
export const adapterMethodNames = [
  'createUser',
  'getUser',
  'getUserByEmail',
  'getUserByAccount',
  'updateUser',
  'deleteUser',
  'linkAccount',
  'unlinkAccount',
  'getAccount',
  'createSession',
  'getSessionAndUser',
  'updateSession',
  'deleteSession',
  'createVerificationToken',
  'useVerificationToken',
  'createAuthenticator',
  'getAuthenticator',
  'listAuthenticatorsByUserId',
  'updateAuthenticatorCounter',
] as const satisfies readonly (keyof Adapter)[]

/**
 * Authchart's own methods beyond Auth.js's 19: token refresh with database sessions needs them. Kept apart so the
 * 19 of the spec's table stay what Auth.js adapters implement.
 */
export const accountTokenMethodNames = [
  'listAccountsByUserId',
  'updateAccount',
] as const satisfies readonly (keyof Adapter)[]

/**
 * Authchart's second-factor methods (docs/adapters.md, "Second factors (storage)"); Auth.js has no second factor.
 * Optional like every method: only an app that enables second factors needs them.
 */
export const factorMethodNames = [
  'createFactor',
  'listFactorsByUserId',
  'useTotpStep',
  'useRecoveryCode',
  'deleteFactor',
] as const satisfies readonly (keyof Adapter)[]

/** Authchart's session-record method (docs/sessions.md): listing a user's database sessions. */
export const sessionRecordMethodNames = ['listSessionsByUser'] as const satisfies readonly (keyof Adapter)[]

/** One adapter method's name. */
export type AdapterMethodName =
  | (typeof adapterMethodNames)[number]
  | (typeof accountTokenMethodNames)[number]
  | (typeof factorMethodNames)[number]
  | (typeof sessionRecordMethodNames)[number]

type AdapterMethod<K extends AdapterMethodName> = NonNullable<Adapter[K]>

/** An adapter as the core hands it to effects (see `wrapAdapter` in src/core/adapter-calls.ts): every method present, every result a promise. */
export type WrappedAdapter = {
  [K in AdapterMethodName]: (...args: Parameters<AdapterMethod<K>>) => Promise<Awaited<ReturnType<AdapterMethod<K>>>>
}

/** Whether a value is a Date or an ISO date string, as some drivers return them. */
export function isDate(value: unknown): value is Date | string {
  return (
    value instanceof Date ||
    (typeof value === 'string' && !Number.isNaN(Date.parse(value)) && /^\d{4}-\d\d-\d\dT/.test(value))
  )
}
