/**
 * Handlers of the session machine's commands for the JWT strategy. The token lives in the session cookie; the `jwt`
 * callback may rewrite it on every check, and the cookie is rewritten only when something changed or `updateAge`
 * has passed since it was issued (Auth.js rewrites it on every check; the sliding window is the same at
 * `updateAge: 0`).
 */
import { JWTSessionError, SignOutError } from '../errors.js'
import type { JWT } from '../jwt-types.js'
import { readSessionToken, writeSessionToken } from '../session/session-token.js'
import type { Session } from '../types.js'
import { emitAppEvent } from './app-events.js'
import type { EffectEnv } from './effect-env.js'
import type { EffectHandlers, ResultEvent } from '../flow/runtime.js'
import { strategyNeutralSessionEffects } from './session-clearing.js'

/** The client-visible session of a token, before the session callback: name, e-mail and image only. */
function sessionOf(token: JWT, expires: number): Session {
  return {
    user: { name: token.name ?? undefined, email: token.email ?? undefined, image: token.picture ?? undefined },
    expires: new Date(expires * 1000).toISOString(),
  }
}

function isRefreshDue(token: JWT, now: number, updateAge: number): boolean {
  return typeof token.iat !== 'number' || now - token.iat >= updateAge
}

/** Builds the handlers for one request; `rawCookie` is the reassembled session cookie value, if any. */
export function jwtSessionEffects(env: EffectEnv, rawCookie: string | undefined): EffectHandlers {
  const { config, outcome } = env
  let token: JWT | null = null
  let expires = 0
  const updateData = env.body?.data

  return {
    async loadSession() {
      if (!rawCookie) return { type: 'SESSION_NOT_FOUND' }
      token = await readSessionToken(config, env.sessionCookieName, rawCookie, env.now)
      outcome.token = token
      if (!token) return { type: 'SESSION_INVALID' }
      return { type: 'SESSION_FOUND' }
    },

    async refreshSession(params): Promise<ResultEvent> {
      const current = token as JWT
      const isUpdate = params.trigger === 'update'
      const before = JSON.stringify(current)
      let next: JWT | null
      try {
        next = await config.callbacks.jwt({
          token: current,
          user: undefined as never,
          account: null,
          ...(isUpdate ? { trigger: 'update' as const, session: updateData } : {}),
        })
      } catch (err) {
        config.logger.error(new JWTSessionError('the jwt callback threw', { err: err instanceof Error ? err : undefined }))
        return { type: 'SESSION_REFRESH_FAILED', error: 'JWTSessionError' }
      }
      if (next === null || next === undefined) return { type: 'SESSION_REVOKED' }
      token = next
      const changed = JSON.stringify(next) !== before
      if (isUpdate || changed || isRefreshDue(current, env.now, config.session.updateAge)) {
        const { iat: _iat, exp: _exp, jti: _jti, ...claims } = next
        outcome.issuedSession = await writeSessionToken(config, env.sessionCookieName, claims, env.now)
        expires = outcome.issuedSession.expires
      } else {
        expires = typeof current.exp === 'number' ? current.exp : env.now + config.jwt.maxAge
      }
      return { type: 'SESSION_REFRESHED' }
    },

    async runSessionCallback(params) {
      const current = token as JWT
      try {
        outcome.session = await config.callbacks.session({
          session: sessionOf(current, expires) as Session & { user: NonNullable<Session['user']> },
          token: current,
          user: undefined as never,
          ...(params.trigger === 'update' ? { trigger: 'update' as const, newSession: updateData } : {}),
        }) as Session
        return { type: 'SESSION_RESOLVED' }
      } catch (err) {
        config.logger.error(new JWTSessionError('the session callback threw', { err: err instanceof Error ? err : undefined }))
        return { type: 'SESSION_CALLBACK_FAILED' }
      }
    },

    async emitSessionEvent() {
      await emitAppEvent(env, 'session', { session: outcome.session as Session, token: token as JWT })
      return { type: 'SESSION_ANNOUNCED' }
    },

    ...strategyNeutralSessionEffects(env),

    async endSession() {
      try {
        const ending = rawCookie ? await readSessionToken(config, env.sessionCookieName, rawCookie, env.now) : null
        outcome.clearSession = true
        await emitAppEvent(env, 'signOut', { token: ending })
        return { type: 'SESSION_ENDED' }
      } catch (err) {
        config.logger.error(new SignOutError('sign-out failed', { err: err instanceof Error ? err : undefined }))
        return { type: 'SIGNOUT_FAILED' }
      }
    },
  }
}
