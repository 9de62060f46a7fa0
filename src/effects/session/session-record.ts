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
import { base36Time, isWholeTime, timeFromBase36 } from '../../security/base36-time.js'
import { randomToken } from '../../security/random.js'
import { sessionIdClaimName } from '../../session/session-jwe.js'
import type { AdapterSession, AdapterSessionRecord } from '../../types/adapters.js'
import type { JWT } from '../../types/jwt.js'
import type { SessionRecord, SessionStore, StoredSessionRecord } from '../../types/session-store.js'
import type { EffectEnv } from '../shared/effect-env.js'

/** Authchart's claim of a JWT session under session management: its id, sign-in time (epoch ms) and method. */
export { sessionIdClaimName }

/** The session id claim as Authchart reads it; a token carries it in its compact form (`sealedSessionIdClaim`). */
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

/**
 * The claim as a token carries it: one string, `<id>.<at>.<r>.<m>`, the times in base 36 (`r` empty until a check
 * records the session; the method is the rest of the string, so a provider id may hold a dot). Every session check
 * reads it from the cookie and seals it into the next one, so its bytes are paid twice per check: the object form
 * (`{"id":…,"at":…,"m":…,"r":…}` with a UUID) made a session-managed token about 130 characters longer, this form
 * under a name of its own about 100, and sealed as the token's `jti` (src/session/session-jwe.ts) about 20. A claim
 * this form cannot hold unambiguously (an id with a dot, a time that is not a whole number of milliseconds; Authchart
 * writes neither) keeps the object form, which `readSessionIdClaim` reads too.
 */
export function sealedSessionIdClaim(claim: SessionIdClaim): string | SessionIdClaim {
  const { id, at, m, r } = claim
  if (!compactable(id, at) || (r !== undefined && !isWholeTime(r))) return claim
  return compactClaim(id, at, r === undefined ? '' : base36Time(r), m)
}

function compactable(id: string, at: number): boolean {
  return id !== '' && !id.includes('.') && isWholeTime(at)
}

function compactClaim(id: string, at: number, recorded: string, method: string | undefined): string {
  return `${id}.${base36Time(at)}.${recorded}.${method ?? ''}`
}

function readCompactClaim(text: string): SessionIdClaim | undefined {
  const afterId = text.indexOf('.')
  const afterAt = afterId > 0 ? text.indexOf('.', afterId + 1) : -1
  const afterRecorded = afterAt > 0 ? text.indexOf('.', afterAt + 1) : -1
  if (afterRecorded < 0) return undefined
  const at = timeFromBase36(text, afterId + 1, afterAt)
  if (at === undefined) return undefined
  const read: SessionIdClaim = { id: text.slice(0, afterId), at }
  if (afterRecorded > afterAt + 1) {
    const recorded = timeFromBase36(text, afterAt + 1, afterRecorded)
    if (recorded === undefined) return undefined
    read.r = recorded
  }
  if (afterRecorded + 1 < text.length) read.m = text.slice(afterRecorded + 1)
  return read
}

/**
 * The session id claim of a token, when it has a well-formed one: the compact form Authchart writes, or the object
 * form of tokens sealed before it (read for as long as such a token can be alive, its `maxAge`).
 */
export function readSessionIdClaim(token: JWT | null | undefined): SessionIdClaim | undefined {
  const claim: unknown = token?.[sessionIdClaimName]
  if (typeof claim === 'string') return readCompactClaim(claim)
  if (typeof claim !== 'object' || claim === null || !('id' in claim) || !('at' in claim)) return undefined
  const { id, at } = claim
  if (typeof id !== 'string' || typeof at !== 'number') return undefined
  // One literal, members added in place: no temporary object per optional member.
  const read: SessionIdClaim = { id, at }
  const m = 'm' in claim ? claim.m : undefined
  const r = 'r' in claim ? claim.r : undefined
  if (typeof m === 'string') read.m = m
  if (typeof r === 'number' && Number.isFinite(r)) read.r = r
  return read
}

/**
 * The claim a check seals when it writes the session's record: the same session, recorded at `nowMs`. Written from
 * its members, not through a copy of the claim: `{ ...claim, r }` of a claim read from a token (members added one by
 * one) took about 2 µs, on every check that records.
 */
export function recordedSessionIdClaim(claim: SessionIdClaim, nowMs: number): string | SessionIdClaim {
  const { id, at, m } = claim
  if (compactable(id, at) && isWholeTime(nowMs)) return compactClaim(id, at, base36Time(nowMs), m)
  return { ...claim, r: nowMs }
}

/**
 * A new session id claim for a sign-in now: 96 random bits, 16 characters of base64url (no dot, so the compact form
 * holds it). The id names a session among its user's (revocations and records are filed by user) and is no secret
 * (the device list shows it to its owner; ending a session takes that user's own session): 96 bits keep ids apart
 * beyond any count of sessions, and every character is paid twice on each session check, read from the cookie and
 * sealed into the next.
 */
export function newSessionIdClaim(env: Pick<EffectEnv, 'nowMs'>, method: string | undefined): SessionIdClaim {
  return { id: randomToken(12), at: env.nowMs, ...(method ? { m: method } : {}) }
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
