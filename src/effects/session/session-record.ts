/**
 * Session management in the session handlers: the id a JWT session carries, its record (written at sign-in and when
 * the session slides, at most once per `updateAge`), and the revocation check made on every read. A database
 * session's id is a digest of its token, so the token itself never leaves the store.
 *
 * Where a database session's record is kept: on its row, when the adapter has `listSessionsByUser` (the memory,
 * Redis and SQL adapters) and the row came back with the record (on SQL, once `migrate()` added the columns);
 * otherwise in the session store, as a JWT session's. `readSessionRecord` is the one reader of it.
 */
import { createHash } from 'node:crypto'
import { FlowStoreUnavailable } from '../../errors.js'
import { randomId } from '../../security/random.js'
import type { AdapterSession, AdapterSessionRecord } from '../../types/adapters.js'
import type { JWT } from '../../types/jwt.js'
import type { SessionRecord, SessionStore, StoredSessionRecord } from '../../types/session-store.js'
import type { EffectEnv } from '../shared/effect-env.js'

/** Authchart's claim of a JWT session under session management: its id, sign-in time (epoch ms) and method. */
export const sessionIdClaimName = 'authchart:sid'

export interface SessionIdClaim {
  id: string
  /** When the user signed in, epoch milliseconds: a per-user revocation ends the sessions signed in before it. */
  at: number
  /** The provider signed in with. */
  m?: string
  /**
   * When a check last wrote the session's record, epoch milliseconds (absent until the first: the sign-in wrote it
   * at `at`). The token carries it, so "last seen" is written once per `updateAge` per session, whichever instance
   * checks it, with nothing remembered in any process.
   */
  r?: number
}

/** The session id claim of a token, when it has a well-formed one. */
export function readSessionIdClaim(token: JWT | null | undefined): SessionIdClaim | undefined {
  const claim = token?.[sessionIdClaimName] as Partial<SessionIdClaim> | undefined
  if (typeof claim !== 'object' || claim === null) return undefined
  if (typeof claim.id !== 'string' || typeof claim.at !== 'number') return undefined
  // One literal, members added in place: read on every check, so no temporary object per optional member.
  const read: SessionIdClaim = { id: claim.id, at: claim.at }
  if (typeof claim.m === 'string') read.m = claim.m
  if (typeof claim.r === 'number' && Number.isFinite(claim.r)) read.r = claim.r
  return read
}

/**
 * The claim a check seals when it writes the session's record: the same session, recorded at `nowMs`. Written out
 * member by member rather than spread with `r` added: on Node 20 JSON.stringify leaves its fast path on such an
 * object, and this one is sealed into the cookie at once.
 */
export function recordedSessionIdClaim(claim: SessionIdClaim, nowMs: number): SessionIdClaim {
  return claim.m === undefined
    ? { id: claim.id, at: claim.at, r: nowMs }
    : { id: claim.id, at: claim.at, m: claim.m, r: nowMs }
}

/** A new session id claim for a sign-in now. */
export function newSessionIdClaim(env: EffectEnv, method: string | undefined): SessionIdClaim {
  return { id: randomId(), at: env.nowMs, ...(method ? { m: method } : {}) }
}

/** The id a database session is listed and revoked by: a digest of its token, never the token. */
export function databaseSessionId(sessionToken: string): string {
  return createHash('sha256').update(sessionToken).digest('base64url').slice(0, 22)
}

function amrOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : undefined
}

/** A session's record as of this request. */
export function sessionRecordOf(
  env: EffectEnv,
  fields: {
    id: string
    userId: string
    createdAt: number
    expiresAt: number
    method?: string
    amr?: unknown
    authTime?: number
  },
  sessionToken?: string,
): StoredSessionRecord {
  const { device } = env
  const amr = amrOf(fields.amr)
  const { authTime } = fields
  // One literal, members added in place: built on the session checks that slide, so no temporary object per
  // optional member (and an object JSON.stringify keeps on its fast path).
  const record: StoredSessionRecord = {
    id: fields.id,
    userId: fields.userId,
    createdAt: fields.createdAt,
    lastSeenAt: env.nowMs,
    expiresAt: fields.expiresAt,
  }
  if (device?.userAgent) record.userAgent = device.userAgent
  if (device?.clientAddress) record.clientAddress = device.clientAddress
  if (fields.method) record.method = fields.method
  if (amr) record.amr = amr
  if (typeof authTime === 'number' && Number.isFinite(authTime)) record.authTime = authTime
  if (sessionToken) record.sessionToken = sessionToken
  return record
}

/** Whether a row came back with its record: `lastSeenAt` is written with every record and only with one. */
export function rowHasRecord(row: AdapterSession | null | undefined): boolean {
  return row?.lastSeenAt instanceof Date && !Number.isNaN(row.lastSeenAt.getTime())
}

/** A record as the row's columns keep it (`amr` as JSON text). */
export function sessionRecordColumns(record: StoredSessionRecord): AdapterSessionRecord {
  return {
    createdAt: new Date(record.createdAt),
    lastSeenAt: new Date(record.lastSeenAt),
    deviceSummary: record.userAgent ?? null,
    clientAddress: record.clientAddress ?? null,
    method: record.method ?? null,
    amr: record.amr ? JSON.stringify(record.amr) : null,
    authTime: record.authTime !== undefined ? new Date(record.authTime * 1000) : null,
  }
}

function timeOf(value: Date | null | undefined): number | undefined {
  const time = value instanceof Date ? value.getTime() : Number.NaN
  return Number.isNaN(time) ? undefined : time
}

function parsedAmr(text: string | null | undefined): string[] | undefined {
  if (typeof text !== 'string') return undefined
  try {
    return amrOf(JSON.parse(text))
  } catch {
    // A hand-edited or truncated column: the record is shown without its factors rather than not at all.
    return undefined
  }
}

/** The record a row keeps, or undefined when it keeps none (an Auth.js adapter, a table without the columns). */
export function recordFromRow(row: AdapterSession): StoredSessionRecord | undefined {
  const lastSeenAt = timeOf(row.lastSeenAt)
  if (lastSeenAt === undefined) return undefined
  const amr = parsedAmr(row.amr)
  // The record keeps OpenID Connect's `auth_time` in epoch seconds; the row, a date.
  const authTimeMs = timeOf(row.authTime)
  const authTime = authTimeMs === undefined ? undefined : Math.floor(authTimeMs / 1000)
  return {
    id: databaseSessionId(row.sessionToken),
    userId: row.userId,
    createdAt: timeOf(row.createdAt) ?? lastSeenAt,
    lastSeenAt,
    expiresAt: row.expires.getTime(),
    ...(row.deviceSummary ? { userAgent: row.deviceSummary } : {}),
    ...(row.clientAddress ? { clientAddress: row.clientAddress } : {}),
    ...(row.method ? { method: row.method } : {}),
    ...(amr ? { amr } : {}),
    ...(authTime !== undefined ? { authTime } : {}),
    sessionToken: row.sessionToken,
  }
}

/**
 * The record of a database session, wherever it is kept: the row's own (read with the row, no further query), else
 * the session store's (a row of an adapter or table without the record columns); undefined when neither has one.
 * The one reader of a database session's record: the device list and the step-up check both come through here.
 */
export async function readSessionRecord(
  config: { sessionManagement?: { store: SessionStore } },
  row: AdapterSession,
): Promise<StoredSessionRecord | undefined> {
  const kept = recordFromRow(row)
  if (kept) return kept
  const store = config.sessionManagement?.store
  if (!store) return undefined
  const id = databaseSessionId(row.sessionToken)
  return (await store.list(row.userId)).find((record) => record.id === id)
}

/**
 * Writes a session's record. A failure is logged and the request goes on: the session is valid all the same, it is
 * only missing from the device list until it slides again.
 */
export async function writeSessionRecord(env: EffectEnv, record: StoredSessionRecord): Promise<void> {
  const store = env.config.sessionManagement?.store
  if (!store) return
  try {
    await store.put(record)
  } catch (err) {
    env.config.logger.error(
      new FlowStoreUnavailable('the session record could not be written', {
        store: store.kind,
        err: err instanceof Error ? err : undefined,
      }),
    )
  }
}

/** The logger's report of records written behind that failed, one function per config (see `SessionStore.putBehind`). */
const failedWrites = new WeakMap<EffectEnv['config'], (err: Error) => void>()

function failedWritesReporter(config: EffectEnv['config'], store: SessionStore): (err: Error) => void {
  let report = failedWrites.get(config)
  if (!report) {
    report = (err: Error) =>
      config.logger.error(
        new FlowStoreUnavailable('the session record could not be written', { store: store.kind, err }),
      )
    failedWrites.set(config, report)
  }
  return report
}

/**
 * Writes a session's record behind the request (the session check's "last seen"): the answer does not wait for it,
 * and a store with `putBehind` makes no promise for it. A failure is logged as by `writeSessionRecord`.
 */
export function writeSessionRecordBehind(env: EffectEnv, record: StoredSessionRecord): void {
  const store = env.config.sessionManagement?.store
  if (!store) return
  if (store.putBehind) store.putBehind(record, failedWritesReporter(env.config, store))
  else void writeSessionRecord(env, record)
}

/**
 * What a database session records of its sign-in (`authTime`, `amr`), read through `readSessionRecord` (the row's own
 * record, else the session store's): what the step-up check and the last-factor removal read. Undefined when nothing
 * is recorded (an Auth.js adapter without session management, a session from before either): a step-up then fails
 * closed.
 * @throws FlowStoreUnavailable (status 503) when the store cannot be read: neither "recent" nor "not recent" is known,
 *   and sending the user to sign in again would only loop while the store is down
 */
export async function databaseSignInRecord(
  config: { sessionManagement?: { store: SessionStore } },
  row: AdapterSession,
): Promise<Pick<SessionRecord, 'authTime' | 'amr'> | undefined> {
  let record: StoredSessionRecord | undefined
  try {
    record = await readSessionRecord(config, row)
  } catch (err) {
    throw new FlowStoreUnavailable('the session record could not be read', {
      store: config.sessionManagement?.store.kind,
      status: 503,
      err: err instanceof Error ? err : undefined,
    })
  }
  return record ? { authTime: record.authTime, amr: record.amr } : undefined
}

/** The store, and the id, user and sign-in time of a JWT session under session management. */
export function managedJwtSession(
  config: { sessionManagement?: { store: SessionStore } },
  token: JWT,
): { store: SessionStore; claim: SessionIdClaim; userId: string } | undefined {
  const store = config.sessionManagement?.store
  if (!store) return undefined
  const claim = readSessionIdClaim(token)
  const userId = token.sub
  if (!claim || typeof userId !== 'string') return undefined
  return { store, claim, userId }
}

/**
 * Whether a JWT session's record is due to be written again: a JWT session is re-sealed on every check (as in
 * Auth.js), and its "last seen" need not be: once per `updateAge` is enough for a device list, and the session check
 * stays free of store writes in between. The token says when the record was last written (`r`, else the sign-in's
 * `at`), and the check that writes it seals the new time into the cookie it re-issues.
 */
export function jwtRecordDue(claim: SessionIdClaim, nowMs: number, intervalMs: number): boolean {
  return nowMs - (claim.r ?? claim.at) >= intervalMs
}
