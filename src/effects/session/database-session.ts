/**
 * Handlers of the session machine's commands for the database strategy: the cookie holds a random session token,
 * the session row holds the expiry. They report facts (the row's expiry); the machine decides that an expired row is
 * removed and when the expiry slides by `maxAge` (at most once per `updateAge`; every access at `updateAge: 0`).
 */
import type { WrappedAdapter } from '../../types/adapters.js'
import type { AdapterSession, AdapterSessionRecord } from '../../types/adapters.js'
import { SignOutError } from '../../errors.js'
import type { Session } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import { defaultSessionCallback } from '../shared/default-callbacks.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { fromScratch } from '../shared/from-scratch.js'
import type { SessionHandlers } from './jwt-session.js'
import { strategyNeutralSessionEffects } from './session-clearing.js'
import { providerTokensOf } from '../token-refresh/provider-tokens.js'
import { refreshTokenError, refusedRefreshes } from '../token-refresh/refused-refreshes.js'
import { buildProviderLogoutUrl, type ProviderLogoutTarget, type SessionLogoutInput } from './provider-logout.js'
import {
  databaseSessionId,
  readSessionRecord,
  rowHasRecord,
  sessionRecordColumns,
  sessionRecordOf,
  writeSessionRecord,
} from './session-record.js'
import type { StoredSessionRecord } from '../../types/session-store.js'

/**
 * A session row's expiry: `maxAge` from this request's clock, to the millisecond as Auth.js writes it, so rows written
 * by either library look alike and an app comparing `session.expires` sees the instant the row holds.
 */
function expiryFrom(env: EffectEnv): Date {
  return new Date(env.nowMs + env.config.session.maxAge * 1000)
}

/** Builds the handlers for one request; `sessionToken` is the session cookie's value, if any. */
export function databaseSessionEffects(
  env: EffectEnv,
  adapter: WrappedAdapter,
  sessionToken: string | undefined,
  logout?: SessionLogoutInput,
) {
  const { config } = env
  // The session row does not say which provider the user came from: the sign-out request names it (`provider`).
  // The ID token comes from the user's account row of that provider, when the adapter can list accounts.
  const requested = logout?.requestedProvider ? logout.endSessionProvider(logout.requestedProvider) : undefined
  const providerLogout: ProviderLogoutTarget | undefined = requested ? { provider: requested } : undefined
  const ended = providerLogout
    ? { type: 'SESSION_ENDED' as const, endAtProvider: true }
    : { type: 'SESSION_ENDED' as const }
  const { maxAge } = config.session
  const updateData = env.body?.data

  /** The ID token of the user's account at the provider signed out of; without one the OP gets `client_id` only. */
  async function idTokenOf(userId: string): Promise<string | undefined> {
    try {
      const accounts = await adapter.listAccountsByUserId(userId)
      const account = accounts.find((candidate) => candidate.provider === providerLogout?.provider.id)
      return typeof account?.id_token === 'string' ? account.id_token : undefined
    } catch {
      // Logged by the adapter wrapper; the sign-out goes on without the hint.
      return undefined
    }
  }

  return {
    async loadSession(_params, scratch) {
      if (!sessionToken) return { type: 'SESSION_NOT_FOUND' }
      const found = await adapter.getSessionAndUser(sessionToken)
      if (!found) return { type: 'SESSION_INVALID' }
      // Session management: a row its user ended elsewhere is gone already; the id check covers a row whose delete
      // raced this read.
      const store = config.sessionManagement?.store
      if (store && (await store.isRevoked(found.user.id, databaseSessionId(sessionToken), Number.POSITIVE_INFINITY)))
        return { type: 'SESSION_REVOKED_BY_SITE' }
      // The row and its user as this request read them, for the steps after (the run's scratch).
      scratch.sessionRow = found.session
      scratch.sessionUser = found.user
      const expiresAt = found.session.expires.getTime() / 1000
      // The row keeps only its expiry; it was last extended (or made) maxAge before it. Whole seconds, as the
      // machine's clock counts: a row written 0.7 s into this very second is due again at `updateAge: 0`.
      const issuedAt = Math.floor(expiresAt - maxAge)
      // With providers that refresh tokens, the user's accounts are read (one query): the machine marks or ends the
      // session when a refresh was refused. The mark is the account row's cleared tokens, shared by all the user's
      // sessions.
      const refused = config.tokenRefresh?.size
        ? refusedRefreshes(
            config,
            (await adapter.listAccountsByUserId(found.user.id)).map(
              (account) => [account.provider, providerTokensOf(account)] as const,
            ),
          )
        : undefined
      return refused
        ? { type: 'SESSION_FOUND', issuedAt, expiresAt, refusedRefreshes: refused }
        : { type: 'SESSION_FOUND', issuedAt, expiresAt }
    },

    // Database sessions have no jwt callback: nothing the app can change here.
    refreshSession: () => ({ type: 'SESSION_REFRESHED', changed: false }),

    // The slide is when "last seen" is written: at most once per `updateAge`, in the same write as the expiry when
    // the row keeps the record, never a write of its own on a check.
    async reissueSession(_params, scratch) {
      const current = fromScratch(scratch.sessionRow, 'the session row')
      const expires = expiryFrom(env)
      const onRow = config.sessionRecordsOnRow === true && rowHasRecord(current)
      await adapter.updateSession({
        sessionToken: current.sessionToken,
        expires,
        ...(onRow ? seenNow(env) : {}),
      })
      if (!onRow) await touchSessionRecord(env, current, expires)
      scratch.issuedSession = { value: current.sessionToken, expires: expires.getTime() / 1000 }
      return { type: 'SESSION_REISSUED' }
    },

    // As Auth.js asks it: the row as this request read it (its expiry before any slide, so the answer shows it too)
    // with its user, and the user again; no `token`, for there is none.
    async runSessionCallback(params, scratch) {
      const current = fromScratch(scratch.sessionRow, 'the session row')
      const owner = fromScratch(scratch.sessionUser, "the session row's user")
      const error: { error?: typeof refreshTokenError } = params.refreshRefused ? { error: refreshTokenError } : {}
      if (config.callbacks.session === defaultSessionCallback) {
        scratch.session = defaultSessionCallback({ session: { ...current, user: owner, ...error } })
        return { type: 'SESSION_RESOLVED' }
      }
      try {
        const answered = await config.callbacks.session({
          session: { ...withoutRecord(current), user: owner, ...error },
          user: owner,
          token: undefined as never,
          newSession: params.trigger === 'update' ? updateData : undefined,
          ...(params.trigger === 'update' ? { trigger: 'update' as const } : {}),
        })
        scratch.session = withoutSessionToken(answered)
        return { type: 'SESSION_RESOLVED' }
      } catch (err) {
        config.logger.error(err instanceof Error ? err : new Error(String(err)))
        return { type: 'SESSION_CALLBACK_FAILED' }
      }
    },

    async emitSessionEvent(_params, scratch) {
      const owner = fromScratch(scratch.sessionUser, "the session row's user")
      await emitAppEvent(env, 'session', { session: scratch.session as Session, user: owner })
      return { type: 'SESSION_ANNOUNCED' }
    },

    // Clean-up of inactive sessions: an expired row is removed the first time it is met.
    ...strategyNeutralSessionEffects(env, async () => {
      if (sessionToken) await adapter.deleteSession(sessionToken)
    }),

    // The target endSession completed with the account's ID token, else the one the request named.
    buildProviderLogoutUrl: (params, scratch) =>
      buildProviderLogoutUrl(env, scratch.providerLogout ?? providerLogout, params),

    async endSession(_params, scratch) {
      scratch.clearSession = true
      if (!sessionToken) {
        await emitAppEvent(env, 'signOut', { session: null })
        return ended
      }
      try {
        const deleted = await adapter.deleteSession(sessionToken)
        const owner = deleted?.userId ?? scratch.sessionRow?.userId
        const store = config.sessionManagement?.store
        if (store && owner) await store.revoke(owner, [databaseSessionId(sessionToken)], maxAge)
        await emitAppEvent(env, 'signOut', { session: deleted ?? null })
        if (providerLogout && logout?.accountsListable && owner)
          scratch.providerLogout = { ...providerLogout, idToken: await idTokenOf(owner) }
        return ended
      } catch (err) {
        config.logger.error(
          new SignOutError('the database session could not be deleted', {
            err: err instanceof Error ? err : undefined,
          }),
        )
        return { type: 'SIGNOUT_FAILED' }
      }
    },
  } satisfies SessionHandlers
}

/** Creates a database session for a signed-in user; answers the session token for the cookie, with its expiry. */
export async function createDatabaseSession(
  env: EffectEnv,
  adapter: WrappedAdapter,
  userId: string,
  signIn: { method?: string; amr?: unknown; authTime?: number } = {},
): Promise<{ value: string; expires: number }> {
  const sessionToken = env.config.session.generateSessionToken()
  const expires = expiryFrom(env)
  const fields = { id: databaseSessionId(sessionToken), userId, createdAt: env.nowMs, expiresAt: expires.getTime() }
  // The sign-in is now: its time in epoch seconds, as OpenID Connect's `auth_time` (the issuer passes the same).
  const record = sessionRecordOf(env, { ...fields, ...signIn, authTime: signIn.authTime ?? env.now }, sessionToken)
  const onRow = env.config.sessionRecordsOnRow === true
  const created = await adapter.createSession({
    sessionToken,
    userId,
    expires,
    ...(onRow ? sessionRecordColumns(record) : {}),
  })
  // The row answered without the record (a SQL table `migrate()` has not given the columns yet): the store keeps it.
  if (env.config.sessionManagement && !(onRow && rowHasRecord(created))) await writeSessionRecord(env, record)
  return { value: sessionToken, expires: expires.getTime() / 1000 }
}

/** What a slide writes on a row that keeps the record: seen now, from this device and address when known. */
function seenNow(env: EffectEnv): AdapterSessionRecord {
  const device = env.device ?? {}
  return {
    lastSeenAt: new Date(env.nowMs),
    ...(device.userAgent ? { deviceSummary: device.userAgent } : {}),
    ...(device.clientAddress ? { clientAddress: device.clientAddress } : {}),
  }
}

/**
 * Session management, for a row that keeps no record: the store's record of a database session that slid says when
 * it was last seen, and from where. Its sign-in time and method are kept from the record already there (a session
 * from before session management was on is listed from now). Its `authTime` is only ever the one written at sign-in:
 * a record made here has none, for "now" is when the session slid, not when anyone authenticated, and a step-up must
 * not take one for the other.
 */
async function touchSessionRecord(env: EffectEnv, row: AdapterSession, expires: Date): Promise<void> {
  const store = env.config.sessionManagement?.store
  if (!store) return
  const id = databaseSessionId(row.sessionToken)
  let known: StoredSessionRecord | undefined
  try {
    known = await readSessionRecord(env.config, row)
  } catch {
    known = undefined
  }
  const fields = {
    id,
    userId: row.userId,
    createdAt: known?.createdAt ?? env.nowMs,
    expiresAt: expires.getTime(),
    method: known?.method,
    amr: known?.amr,
    authTime: known?.authTime,
  }
  await writeSessionRecord(env, sessionRecordOf(env, fields, row.sessionToken))
}

/**
 * The row as the `session` callback is handed it: without Authchart's record fields (an Auth.js row has none), so a
 * callback that answers `{ ...session }` never puts the device, address or sign-in factors into the client's JSON.
 * `createdAt` stays: Prisma's `Session` model had it before the record did.
 */
function withoutRecord(session: AdapterSession): AdapterSession {
  const { lastSeenAt: _seen, deviceSummary: _device, clientAddress: _address, method: _method, ...rest } = session
  const { amr: _amr, authTime: _authTime, ...kept } = rest
  return kept
}

/**
 * The app's session as answered. The callback is handed the row, so `return { ...session }` would put the session
 * token into the JSON any script on the page can read, undoing the cookie's `HttpOnly`: Authchart leaves it out (a
 * departure from Auth.js, which answers it). An `expires` left as the row's `Date` is answered as its ISO string, as
 * the JSON would carry it, so in-process readers see what `GET /session` shows.
 */
function withoutSessionToken(answered: object): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(answered).filter(([key]) => key !== 'sessionToken'))
  return kept.expires instanceof Date ? { ...kept, expires: kept.expires.toISOString() } : kept
}
