/**
 * Handlers of the session machine's commands for the JWT strategy. The token lives in the session cookie. These
 * handlers report facts (when the token was issued, when it expires, whether the `jwt` callback changed it); the
 * machine decides whether the session has expired and whether the cookie is written again.
 *
 * The session check runs on every page view, so the handlers are one object per request (methods, no closures) and
 * answer synchronously wherever nothing has to be awaited: the runtime then spends no microtask turn on them.
 */
import type { SessionCommand, sessionContract, SessionEvent } from '../../../machines/session.js'
import type { HandlersFor } from '../../../machines/contract.js'
import { FlowStoreUnavailable, JWTSessionError, SignOutError } from '../../errors.js'
import type { JWT } from '../../types/jwt.js'
import { readSessionToken, writeSessionToken } from '../../session/session-token.js'
import { isoStringOf } from '../../session/expiry-strings.js'
import type { Session } from '../../types/index.js'
import { defaultJwtCallback, defaultSessionCallback } from '../shared/default-callbacks.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { fromScratch } from '../shared/from-scratch.js'
import type { SessionScratch } from './session-scratch.js'
import { runRedirectCallback } from '../shared/redirect-callback.js'
import { clearSessionOutcome } from './session-clearing.js'
import {
  providersWithTokens,
  providerTokensClaim,
  providerTokensIn,
  rejoinProviderTokens,
  splitProviderTokens,
  type ProviderTokens,
} from '../token-refresh/provider-tokens.js'
import { refreshTokenError, refusedRefreshes } from '../token-refresh/refused-refreshes.js'
import { opLogoutClaimName, readOpLogoutClaim, revokedAtProvider } from './op-logout-claim.js'
import { buildProviderLogoutUrl, type SessionLogoutInput } from './provider-logout.js'
import { keptSignInClaims, withoutSignInClaims } from './sign-in-authentication.js'
import {
  jwtRecordDue,
  managedJwtSession,
  recordedSessionIdClaim,
  sessionIdClaimName,
  sessionRecordOf,
  writeSessionRecordBehind,
} from './session-record.js'

/** The session machine's handlers, as its contract types them. */
export type SessionHandlers = HandlersFor<SessionCommand, SessionEvent, typeof sessionContract, SessionScratch>

type Params<K extends keyof SessionHandlers> = Parameters<SessionHandlers[K]>[0]
type Scratch = Partial<SessionScratch>

/** One ISO string per expiry second: every check of one token shows the same `expires`. */
let lastExpiry = { seconds: Number.NaN, iso: '' }

function isoOf(seconds: number): string {
  if (lastExpiry.seconds !== seconds) lastExpiry = { seconds, iso: new Date(seconds * 1000).toISOString() }
  return lastExpiry.iso
}

/**
 * The client-visible session of a token, before the session callback: name, e-mail and image only, and the
 * `RefreshTokenError` mark when the machine says a provider refused to refresh the tokens the session keeps. Each as
 * the token holds it, as Auth.js answers: a `null` (a user without a picture) stays `null` in the JSON, and only a
 * claim the token lacks is left out.
 */
function sessionOf(token: JWT, expires: string, refreshRefused: boolean): Session {
  return {
    user: { name: token.name, email: token.email, image: token.picture },
    expires,
    ...(refreshRefused ? { error: refreshTokenError } : {}),
  }
}

/** The provider tokens a token keeps, by provider (none for a session without token refresh). */
function keptTokens(token: JWT): Array<[string, ProviderTokens]> {
  if (!(providerTokensClaim in token)) return []
  return providersWithTokens(token).map((id) => [id, providerTokensIn(token, id) ?? {}])
}

function errorOf(err: unknown): { err: Error | undefined } {
  return { err: err instanceof Error ? err : undefined }
}

/**
 * The handlers of one request; `rawCookie` is the reassembled session cookie value, if any; `logout` says which
 * providers a sign-out also ends the session at. They keep only these inputs: what a step learns for the next is in
 * the run's scratch (`SessionScratch`).
 */
class JwtSessionEffects implements SessionHandlers {
  constructor(
    private readonly env: EffectEnv,
    private readonly rawCookie: string | undefined,
    private readonly logout?: SessionLogoutInput,
  ) {}

  loadSession(_params: Params<'loadSession'>, scratch: Scratch) {
    if (!this.rawCookie) return { type: 'SESSION_NOT_FOUND' } as const
    const { env } = this
    const read = readSessionToken(env.config, env.sessionCookieName, this.rawCookie, env.now)
    return read instanceof Promise ? read.then((token) => this.#checked(token, scratch)) : this.#checked(read, scratch)
  }

  #checked(token: JWT | null, scratch: Scratch) {
    const revoked = token ? revokedAtProvider(this.env.config, token) : undefined
    if (!revoked) return this.#checkedHere(token, scratch)
    return revoked.then((isRevoked) =>
      isRevoked ? ({ type: 'SESSION_REVOKED_AT_PROVIDER' } as const) : this.#checkedHere(token, scratch),
    )
  }

  /** Session management: a session its user or the app ended is refused (a lookup in this process's memory). */
  #checkedHere(token: JWT | null, scratch: Scratch) {
    const managed = token ? managedJwtSession(this.env.config, token) : undefined
    if (token) scratch.managed = { token, session: managed }
    if (!managed) return this.#loaded(token, scratch)
    const { store, claim, userId } = managed
    const revoked = store.isRevoked(userId, claim.id, claim.at)
    if (revoked === true) return { type: 'SESSION_REVOKED_BY_SITE' } as const
    if (revoked === false) return this.#loaded(token, scratch)
    return revoked.then(
      (isRevoked) => (isRevoked ? ({ type: 'SESSION_REVOKED_BY_SITE' } as const) : this.#loaded(token, scratch)),
      (err: unknown) => {
        throw new FlowStoreUnavailable('the session store could not be read', {
          store: store.kind,
          err: err instanceof Error ? err : undefined,
        })
      },
    )
  }

  #loaded(token: JWT | null, scratch: Scratch) {
    const { env } = this
    if (!token) return { type: 'SESSION_INVALID' } as const
    scratch.token = token
    const expires = typeof token.exp === 'number' ? token.exp : env.now + env.config.jwt.maxAge
    scratch.expires = expires
    const issuedAt = typeof token.iat === 'number' ? token.iat : 0
    // The kept provider tokens a refused refresh dropped: the machine marks or ends the session for them.
    const refused = refusedRefreshes(env.config, keptTokens(token))
    return refused
      ? ({ type: 'SESSION_FOUND', issuedAt, expiresAt: expires, refusedRefreshes: refused } as const)
      : ({ type: 'SESSION_FOUND', issuedAt, expiresAt: expires } as const)
  }

  refreshSession(params: Params<'refreshSession'>, scratch: Scratch) {
    const { config } = this.env
    const isUpdate = params.trigger === 'update'
    // The built-in callback hands the token back untouched: nothing can have changed, and nothing need be awaited.
    if (config.callbacks.jwt === defaultJwtCallback) return { type: 'SESSION_REFRESHED', changed: isUpdate } as const
    return this.#refreshWithAppCallback(isUpdate, scratch)
  }

  async #refreshWithAppCallback(isUpdate: boolean, scratch: Scratch) {
    const { config } = this.env
    // The app's callback sees its own token; Authchart's provider-token claim is put back afterwards.
    const { visible: current, own } = splitProviderTokens(fromScratch(scratch.token, 'the session token'))
    const before = JSON.stringify(current)
    let next: JWT | null
    try {
      // On a session check Auth.js passes neither `user` nor `account` (its type names them for sign-in), so an app's
      // `account !== undefined` test reads the same here.
      next = await config.callbacks.jwt({
        token: current,
        user: undefined as never,
        account: undefined as never,
        ...(isUpdate ? { trigger: 'update' as const, session: this.env.body?.data } : {}),
      })
    } catch (err) {
      config.logger.error(new JWTSessionError('the jwt callback threw', errorOf(err)))
      return { type: 'SESSION_REFRESH_FAILED', error: 'JWTSessionError' } as const
    }
    if (next === null || next === undefined) return { type: 'SESSION_REVOKED' } as const
    const rejoined = rejoinProviderTokens(next, own)
    // Authchart's logout and session id claims outlive a callback that rebuilds the token from scratch.
    const logoutClaim = current[opLogoutClaimName]
    const sessionIdClaim = current[sessionIdClaimName]
    // The sign-in's `auth_time` and `amr` are the sign-in's: whatever the callback answered (an `update()` whose
    // data it copies in, a token rebuilt without them), the token keeps the ones it had, or none.
    scratch.token = {
      ...withoutSignInClaims(rejoined),
      ...keptSignInClaims(current),
      ...(logoutClaim !== undefined && rejoined[opLogoutClaimName] === undefined
        ? { [opLogoutClaimName]: logoutClaim }
        : {}),
      ...(sessionIdClaim !== undefined ? { [sessionIdClaimName]: sessionIdClaim } : {}),
    }
    // An update is the app asking for a new cookie, whatever the callback did.
    return { type: 'SESSION_REFRESHED', changed: isUpdate || JSON.stringify(next) !== before } as const
  }

  /** The managed session of the token about to be re-issued: the one read at load, unless a callback replaced it. */
  #managedToReissue(token: JWT, scratch: Scratch): ReturnType<typeof managedJwtSession> {
    const loaded = scratch.managed
    return loaded?.token === token ? loaded.session : managedJwtSession(this.env.config, token)
  }

  reissueSession(_params: Params<'reissueSession'>, scratch: Scratch) {
    const { env } = this
    const token = fromScratch(scratch.token, 'the session token')
    const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
    // Session management: when the record's "last seen" is due, the new cookie says it was written now.
    const managed = this.#managedToReissue(token, scratch)
    const recordDue = managed && jwtRecordDue(managed.claim, env.nowMs, env.config.session.updateAge * 1000)
    const recorded = recordDue ? managed : undefined
    if (recorded) claims[sessionIdClaimName] = recordedSessionIdClaim(recorded.claim, env.nowMs)
    let written: ReturnType<typeof writeSessionToken>
    try {
      written = writeSessionToken(env.config, env.sessionCookieName, claims, env.now)
    } catch (err) {
      return this.#reissueFailed(err)
    }
    if (written instanceof Promise) {
      return written.then(
        (issued) => this.#reissued(issued, claims, recorded, scratch),
        (err: unknown) => this.#reissueFailed(err),
      )
    }
    return this.#reissued(written, claims, recorded, scratch)
  }

  #reissued(
    issued: { value: string; expires: number },
    claims: JWT,
    recorded: ReturnType<typeof managedJwtSession>,
    scratch: Scratch,
  ) {
    scratch.issuedSession = issued
    scratch.expires = issued.expires
    // As Auth.js answers: the new expiry counted from the request's clock to the millisecond (the token's `exp`
    // holds whole seconds).
    scratch.issuedExpiry = isoStringOf(this.env.nowMs + (issued.expires - this.env.now) * 1000)
    if (recorded) {
      // The record says when the session was last seen, and from where. Written behind: a "last seen" that fails
      // to be written is logged and costs the device list nothing but freshness, so the answer does not wait on the
      // store's round trip (the store sends the writes of one turn together).
      const { claim, userId } = recorded
      const { amr, auth_time: authTime } = keptSignInClaims(claims)
      const record = sessionRecordOf(this.env, {
        id: claim.id,
        userId,
        createdAt: claim.at,
        expiresAt: issued.expires * 1000,
        method: claim.m,
        amr,
        authTime,
      })
      writeSessionRecordBehind(this.env, record)
    }
    return { type: 'SESSION_REISSUED' } as const
  }

  #reissueFailed(err: unknown) {
    this.env.config.logger.error(new JWTSessionError('the session token could not be encoded', errorOf(err)))
    return { type: 'SESSION_REISSUE_FAILED' } as const
  }

  runSessionCallback(params: Params<'runSessionCallback'>, scratch: Scratch) {
    const { config } = this.env
    const isUpdate = params.trigger === 'update'
    const current = splitProviderTokens(fromScratch(scratch.token, 'the session token')).visible
    const expires = scratch.issuedExpiry ?? isoOf(fromScratch(scratch.expires, 'the session expiry'))
    const session = sessionOf(current, expires, params.refreshRefused)
    // The built-in callback returns the session it is given.
    if (config.callbacks.session === defaultSessionCallback && !isUpdate) {
      scratch.session = session
      return { type: 'SESSION_RESOLVED' } as const
    }
    return this.#sessionWithAppCallback(session, current, isUpdate, scratch)
  }

  async #sessionWithAppCallback(session: Session, current: JWT, isUpdate: boolean, scratch: Scratch) {
    const { config } = this.env
    try {
      scratch.session = await config.callbacks.session({
        session: session as Session & { user: NonNullable<Session['user']> },
        token: current,
        user: undefined as never,
        ...(isUpdate ? { trigger: 'update' as const, newSession: this.env.body?.data } : {}),
      })
      return { type: 'SESSION_RESOLVED' } as const
    } catch (err) {
      config.logger.error(new JWTSessionError('the session callback threw', errorOf(err)))
      return { type: 'SESSION_CALLBACK_FAILED' } as const
    }
  }

  emitSessionEvent(_params: Params<'emitSessionEvent'>, scratch: Scratch) {
    const { env } = this
    if (!env.config.events.session) return { type: 'SESSION_ANNOUNCED' } as const
    const token = splitProviderTokens(fromScratch(scratch.token, 'the session token')).visible
    const pending = emitAppEvent(env, 'session', { session: scratch.session as Session, token })
    return pending
      ? pending.then(() => ({ type: 'SESSION_ANNOUNCED' }) as const)
      : ({ type: 'SESSION_ANNOUNCED' } as const)
  }

  clearSession(params: Params<'clearSession'>, scratch: Scratch) {
    return clearSessionOutcome(scratch, params)
  }

  runRedirectCallback(params: Params<'runRedirectCallback'>) {
    return runRedirectCallback(this.env, params)
  }

  buildProviderLogoutUrl(params: Params<'buildProviderLogoutUrl'>, scratch: Scratch) {
    return buildProviderLogoutUrl(this.env, scratch.providerLogout, params)
  }

  async endSession(_params: Params<'endSession'>, scratch: Scratch) {
    const { env } = this
    try {
      const ending = this.rawCookie
        ? await readSessionToken(env.config, env.sessionCookieName, this.rawCookie, env.now)
        : null
      scratch.clearSession = true
      // Under session management a signed-out token is ended everywhere, not only forgotten by this browser.
      const managed = ending ? managedJwtSession(env.config, ending) : undefined
      if (managed) await managed.store.revoke(managed.userId, [managed.claim.id], env.config.jwt.maxAge)
      await emitAppEvent(env, 'signOut', { token: ending && splitProviderTokens(ending).visible })
      const claim = readOpLogoutClaim(ending)
      const provider = claim?.idt ? this.logout?.endSessionProvider(claim.p) : undefined
      if (!provider) return { type: 'SESSION_ENDED' } as const
      scratch.providerLogout = { provider, idToken: claim?.idt }
      return { type: 'SESSION_ENDED', endAtProvider: true } as const
    } catch (err) {
      env.config.logger.error(new SignOutError('sign-out failed', errorOf(err)))
      return { type: 'SIGNOUT_FAILED' } as const
    }
  }
}

/**
 * Builds the handlers for one request; `rawCookie` is the reassembled session cookie value, if any; `logout` says
 * which providers a sign-out also ends the session at.
 */
export function jwtSessionEffects(
  env: EffectEnv,
  rawCookie: string | undefined,
  logout?: SessionLogoutInput,
): SessionHandlers {
  return new JwtSessionEffects(env, rawCookie, logout)
}
