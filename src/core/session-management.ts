/**
 * Session management for the app and the built-in `/sessions` page: which sessions a user has (`listSessions`), and
 * ending one, all but the current one, or all of a user's (`revokeSession`, `revokeOtherSessions`,
 * `revokeUserSessions`). Needs `sessionManagement` in the config. A JWT session is ended through the store's
 * revocations (refused on its next check on every instance); a database session's row is deleted as well.
 *
 * The request's own session decides whose sessions are listed or ended: an id of another user's session is never
 * found, so it can neither be listed nor ended.
 */
import { AuthError, InvalidConfig } from '../errors.js'
import { createLogger } from '../logger.js'
import { databaseSessionId, managedJwtSession, recordFromRow } from '../effects/session/session-record.js'
import { readChunkedCookie } from '../session/cookie-chunks.js'
import { parseCookieHeader } from '../session/cookie-header.js'
import { readSessionToken } from '../session/session-token.js'
import { revokedAtProvider } from '../effects/session/op-logout-claim.js'
import type { JWT } from '../types/jwt.js'
import type { AdapterSession } from '../types/adapters.js'
import type { AuthConfig } from '../types/index.js'
import type { SessionRecord, SessionStore, StoredSessionRecord } from '../types/session-store.js'
import { resolveConfig, type ResolvedConfig } from './config.js'
import { auditAccountChange } from './audit-trail.js'

/** A session as `listSessions` shows it: its record, and whether it is the one of the request. */
export interface ListedSession extends SessionRecord {
  current: boolean
}

/** The signed-in user of a request under session management, and the id of the request's session. */
export interface CurrentSession {
  userId: string
  id: string
}

function storeOf(config: ResolvedConfig): SessionStore {
  const store = config.sessionManagement?.store
  if (!store) throw new InvalidConfig('session management needs `sessionManagement: { store }` in the config')
  return store
}

/** The config resolved for a call from the app; a config that cannot be resolved is logged, then thrown. */
export function resolved(config: AuthConfig): ResolvedConfig {
  try {
    return resolveConfig(config)
  } catch (error) {
    createLogger(config ?? {}).error(error instanceof Error ? error : new AuthError(String(error)))
    throw error
  }
}

/** Whether the request came over HTTPS as the cookies see it: the secure cookie set then names the session cookie. */
export function sessionCookieName(config: ResolvedConfig, request: Request): string {
  const origin = config.origin ?? new URL(request.url).origin
  const secure = config.cookies.forced
    ? config.cookies.secure.sessionToken.options.secure === true
    : origin.startsWith('https:')
  return (secure ? config.cookies.secure : config.cookies.insecure).sessionToken.name
}

/**
 * The request's signed-in session as its cookie names it, every revocation checked: a database session's row (gone
 * when a back-channel logout or a sign-out deleted it; refused when session management revoked its id), or a JWT
 * session's token (refused when session management revoked it or a back-channel logout revoked its OP account or OP
 * session). The one lookup for whoever reads the session outside the session check (this module, step-up).
 */
export type LiveSession =
  | { readonly strategy: 'database'; readonly userId: string; readonly id: string; readonly row: AdapterSession }
  | { readonly strategy: 'jwt'; readonly userId: string; readonly id?: string; readonly token: JWT }

/** The request's live session (see `LiveSession`), or null when nobody is signed in. */
export async function liveSessionOf(config: ResolvedConfig, request: Request): Promise<LiveSession | null> {
  const name = sessionCookieName(config, request)
  const raw = readChunkedCookie(name, parseCookieHeader(request.headers.get('cookie')))
  if (!raw) return null
  const nowMs = Date.now()
  const store = config.sessionManagement?.store
  if (config.session.strategy === 'database' && config.adapter) {
    const found = await config.adapter.getSessionAndUser(raw)
    if (!found || found.session.expires.getTime() <= nowMs) return null
    const id = databaseSessionId(raw)
    if (store && (await store.isRevoked(found.user.id, id, Number.POSITIVE_INFINITY))) return null
    return { strategy: 'database', userId: found.user.id, id, row: found.session }
  }
  const token = await readSessionToken(config, name, raw, Math.floor(nowMs / 1000))
  if (!token || typeof token.sub !== 'string') return null
  if (await revokedAtProvider(config, token)) return null
  const managed = managedJwtSession(config, token)
  if (!managed) return { strategy: 'jwt', userId: token.sub, token }
  if (await managed.store.isRevoked(managed.userId, managed.claim.id, managed.claim.at)) return null
  return { strategy: 'jwt', userId: managed.userId, id: managed.claim.id, token }
}

/**
 * The request's session under session management, or null when nobody is signed in (no cookie, an unreadable,
 * expired or revoked one, or a JWT session issued before session management, which has no id).
 */
export async function currentSessionOf(config: ResolvedConfig, request: Request): Promise<CurrentSession | null> {
  storeOf(config)
  const live = await liveSessionOf(config, request)
  return live?.id === undefined ? null : { userId: live.userId, id: live.id }
}

/**
 * A live row that keeps no record, and of which the store has none (made before session management, or its record
 * was lost): listed all the same, so that it can be ended, as last seen at its last slide (`maxAge` before expiry).
 */
function rowOnlyRecord(config: ResolvedConfig, row: AdapterSession): StoredSessionRecord {
  const expiresAt = row.expires.getTime()
  const slid = expiresAt - config.session.maxAge * 1000
  return {
    id: databaseSessionId(row.sessionToken),
    userId: row.userId,
    createdAt: slid,
    lastSeenAt: slid,
    expiresAt,
    sessionToken: row.sessionToken,
  }
}

/**
 * The records of a user's sessions. With database sessions and an adapter that lists them (`listSessionsByUser`),
 * the rows are the truth for database sessions: each shows the record it keeps, else the store's; a store record of a
 * row that is gone is left out. Otherwise (an Auth.js adapter, or JWT sessions) the store's records alone.
 */
async function recordsOf(config: ResolvedConfig, userId: string): Promise<StoredSessionRecord[]> {
  const stored = await storeOf(config).list(userId)
  const adapter = config.adapter
  if (config.session.strategy !== 'database' || !adapter || !config.sessionRecordsOnRow) return stored
  const rows = await adapter.listSessionsByUser(userId)
  const storedById = new Map(stored.map((record) => [record.id, record]))
  const rowIds = new Set<string>()
  const fromRows = rows
    .filter((row) => row.userId === userId)
    .map((row) => {
      const id = databaseSessionId(row.sessionToken)
      rowIds.add(id)
      return recordFromRow(row) ?? storedById.get(id) ?? rowOnlyRecord(config, row)
    })
  return [...stored.filter((record) => !record.sessionToken && !rowIds.has(record.id)), ...fromRows]
}

function shown(record: StoredSessionRecord, currentId: string | undefined): ListedSession {
  const { sessionToken: _hidden, ...visible } = record
  return { ...visible, current: record.id === currentId }
}

/** How long a revocation must be remembered: until every session it can end has expired by itself. */
function revocationSeconds(config: ResolvedConfig): number {
  return Math.max(config.session.maxAge, config.jwt.maxAge)
}

/** Ends the listed sessions of one user: database rows deleted, ids revoked everywhere, the event sent. */
async function endSessions(
  config: ResolvedConfig,
  userId: string,
  records: StoredSessionRecord[],
  by: 'user' | 'app',
): Promise<number> {
  if (records.length === 0) return 0
  const store = storeOf(config)
  for (const record of records) if (record.sessionToken) await config.adapter?.deleteSession(record.sessionToken)
  const ids = records.map((record) => record.id)
  await store.revoke(userId, ids, revocationSeconds(config))
  auditAccountChange(config, { type: 'session-revoked', userId, count: ids.length })
  await announce(config, { userId, sessionIds: ids, by })
  return ids.length
}

async function announce(
  config: ResolvedConfig,
  message: { userId: string; sessionIds: string[]; by: 'user' | 'app' },
): Promise<void> {
  const listener = config.events.sessionRevoked
  if (!listener) return
  try {
    await listener(message)
  } catch (err) {
    config.logger.error(err instanceof Error ? err : new AuthError(String(err)))
  }
}

/** The sessions of the request's user, the request's own first; null when nobody is signed in. */
export async function listSessionsOf(config: ResolvedConfig, request: Request): Promise<ListedSession[] | null> {
  const current = await currentSessionOf(config, request)
  if (!current) return null
  const records = await recordsOf(config, current.userId)
  return records
    .map((record) => shown(record, current.id))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt)
}

/** Ends one session of the request's user; false when the user has no session with that id (or nobody is signed in). */
export async function revokeSessionOf(config: ResolvedConfig, request: Request, id: string): Promise<boolean> {
  const current = await currentSessionOf(config, request)
  if (!current || typeof id !== 'string') return false
  const record = (await recordsOf(config, current.userId)).find((candidate) => candidate.id === id)
  if (!record) return false
  await endSessions(config, current.userId, [record], 'user')
  return true
}

/** Ends every other session of the request's user; the number ended (null when nobody is signed in). */
export async function revokeOtherSessionsOf(config: ResolvedConfig, request: Request): Promise<number | null> {
  const current = await currentSessionOf(config, request)
  if (!current) return null
  const others = (await recordsOf(config, current.userId)).filter((record) => record.id !== current.id)
  return endSessions(config, current.userId, others, 'user')
}

/**
 * The sessions of the request's signed-in user, each with its record (device, address, sign-in time and method, last
 * seen) and `current` for the request's own; null when nobody is signed in.
 * @param request the app's request (its `Cookie` header carries the session)
 * @param config the configuration `Auth()` is given, with `sessionManagement`
 */
export function listSessions(request: Request, config: AuthConfig): Promise<ListedSession[] | null> {
  return listSessionsOf(resolved(config), request)
}

/**
 * Ends one of the request's user's sessions (`id` as `listSessions` gave it), on every instance at once.
 * @returns false when the signed-in user has no session with that id, or nobody is signed in
 */
export function revokeSession(request: Request, config: AuthConfig, id: string): Promise<boolean> {
  return revokeSessionOf(resolved(config), request, id)
}

/**
 * Ends every session of the request's user but the request's own ("sign out everywhere else").
 * @returns how many were ended, or null when nobody is signed in
 */
export function revokeOtherSessions(request: Request, config: AuthConfig): Promise<number | null> {
  return revokeOtherSessionsOf(resolved(config), request)
}

/**
 * Ends every session of a user signed in before now, on every instance at once: for the app, after a password or
 * factor change, or when an account is locked. Database session rows are deleted; JWT sessions are refused at their
 * next check, including those the store holds no record of.
 * @returns how many listed sessions were ended
 */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<number> {
  const resolvedConfig = resolved(config)
  const store = storeOf(resolvedConfig)
  if (typeof userId !== 'string' || userId === '') throw new InvalidConfig('revokeUserSessions: userId is required')
  const records = await recordsOf(resolvedConfig, userId)
  for (const record of records)
    if (record.sessionToken) await resolvedConfig.adapter?.deleteSession(record.sessionToken)
  await store.revokeUser(userId, Date.now(), revocationSeconds(resolvedConfig))
  auditAccountChange(resolvedConfig, { type: 'session-revoked', userId, count: records.length })
  await announce(resolvedConfig, { userId, sessionIds: records.map((record) => record.id), by: 'app' })
  return records.length
}
