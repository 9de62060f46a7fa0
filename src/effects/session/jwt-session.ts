/**
 * Handlers of the session machine's commands for the JWT strategy. The token lives in the session cookie. These
 * handlers report facts (when the token was issued, when it expires, whether the `jwt` callback changed it); the
 * machine decides whether the session has expired and whether the cookie is written again.
 */
import type { SessionCommand, sessionContract, SessionEvent } from '../../../machines/session.js'
import type { HandlersFor } from '../../../machines/contract.js'
import { FlowStoreUnavailable, JWTSessionError, SignOutError } from '../../errors.js'
import type { JWT } from '../../types/jwt.js'
import { readSessionToken, writeSessionToken } from '../../session/session-token.js'
import type { Session } from '../../types/index.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { strategyNeutralSessionEffects } from './session-clearing.js'
import {
  providersWithTokens,
  providerTokensIn,
  rejoinProviderTokens,
  splitProviderTokens,
  type ProviderTokens,
} from '../token-refresh/provider-tokens.js'
import { refreshTokenError, refreshVerdict } from '../token-refresh/refresh-verdict.js'
import { opLogoutClaimName, readOpLogoutClaim, sessionKeys } from './op-logout-claim.js'
import { buildProviderLogoutUrl, type ProviderLogoutTarget, type SessionLogoutInput } from './provider-logout.js'

/** The session machine's handlers, as its contract types them. */
export type SessionHandlers = HandlersFor<SessionCommand, SessionEvent, typeof sessionContract>

/**
 * The client-visible session of a token, before the session callback: name, e-mail and image only, and the
 * `RefreshTokenError` mark when a provider refused to refresh the tokens the session keeps.
 */
function sessionOf(token: JWT, expires: number, refreshFailed: boolean): Session {
  return {
    user: { name: token.name ?? undefined, email: token.email ?? undefined, image: token.picture ?? undefined },
    expires: new Date(expires * 1000).toISOString(),
    ...(refreshFailed ? { error: refreshTokenError } : {}),
  }
}

/**
 * Whether a back-channel logout revoked this token's OP account or OP session after it was signed in: one store
 * lookup, made only when back-channel logout is configured and the token came from an OP that can send one.
 */
async function isRevokedAtProvider(env: EffectEnv, token: JWT): Promise<boolean> {
  const store = env.config.backchannelLogout?.store
  const claim = store ? readOpLogoutClaim(token) : undefined
  if (!store || !claim) return false
  let revokedAt: number | undefined
  try {
    revokedAt = await store.revokedAt(sessionKeys(claim))
  } catch (err) {
    // Neither "signed in" nor "signed out" can be known: the client is told to try again shortly (503).
    throw new FlowStoreUnavailable('the logout store could not be read', {
      store: store.kind,
      err: err instanceof Error ? err : undefined,
    })
  }
  return revokedAt !== undefined && revokedAt >= claim.at
}

/** The provider tokens a token keeps, by provider. */
function keptTokens(token: JWT): Array<[string, ProviderTokens]> {
  return providersWithTokens(token).map((id) => [id, providerTokensIn(token, id) ?? {}])
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
  const { config, outcome } = env
  let token: JWT | null = null
  let expires = 0
  let refreshFailed = false
  const updateData = env.body?.data
  let providerLogout: ProviderLogoutTarget | undefined

  return {
    async loadSession() {
      if (!rawCookie) return { type: 'SESSION_NOT_FOUND' }
      token = await readSessionToken(config, env.sessionCookieName, rawCookie, env.now)
      outcome.token = token
      if (!token) return { type: 'SESSION_INVALID' }
      if (await isRevokedAtProvider(env, token)) return { type: 'SESSION_REVOKED_AT_PROVIDER' }
      expires = typeof token.exp === 'number' ? token.exp : env.now + config.jwt.maxAge
      return { type: 'SESSION_FOUND', issuedAt: typeof token.iat === 'number' ? token.iat : 0, expiresAt: expires }
    },

    async refreshSession(params) {
      const verdict = refreshVerdict(config, keptTokens(token as JWT))
      if (verdict === 'end') return { type: 'SESSION_REVOKED' }
      refreshFailed = verdict === 'mark'
      // The app's callback sees its own token; Authchart's provider-token claim is put back afterwards.
      const { visible: current, own } = splitProviderTokens(token as JWT)
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
        config.logger.error(
          new JWTSessionError('the jwt callback threw', { err: err instanceof Error ? err : undefined }),
        )
        return { type: 'SESSION_REFRESH_FAILED', error: 'JWTSessionError' }
      }
      if (next === null || next === undefined) return { type: 'SESSION_REVOKED' }
      const rejoined = rejoinProviderTokens(next, own)
      // Authchart's logout claim outlives a callback that rebuilds the token from scratch.
      const logoutClaim = current[opLogoutClaimName]
      token =
        logoutClaim !== undefined && rejoined[opLogoutClaimName] === undefined
          ? { ...rejoined, [opLogoutClaimName]: logoutClaim }
          : rejoined
      // An update is the app asking for a new cookie, whatever the callback did.
      return { type: 'SESSION_REFRESHED', changed: isUpdate || JSON.stringify(next) !== before }
    },

    async reissueSession() {
      const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token as JWT
      try {
        outcome.issuedSession = await writeSessionToken(config, env.sessionCookieName, claims, env.now)
      } catch (err) {
        config.logger.error(
          new JWTSessionError('the session token could not be encoded', {
            err: err instanceof Error ? err : undefined,
          }),
        )
        return { type: 'SESSION_REISSUE_FAILED' }
      }
      expires = outcome.issuedSession.expires
      return { type: 'SESSION_REISSUED' }
    },

    async runSessionCallback(params) {
      const current = splitProviderTokens(token as JWT).visible
      try {
        outcome.session = await config.callbacks.session({
          session: sessionOf(current, expires, refreshFailed) as Session & { user: NonNullable<Session['user']> },
          token: current,
          user: undefined as never,
          ...(params.trigger === 'update' ? { trigger: 'update' as const, newSession: updateData } : {}),
        })
        return { type: 'SESSION_RESOLVED' }
      } catch (err) {
        config.logger.error(
          new JWTSessionError('the session callback threw', { err: err instanceof Error ? err : undefined }),
        )
        return { type: 'SESSION_CALLBACK_FAILED' }
      }
    },

    async emitSessionEvent() {
      await emitAppEvent(env, 'session', {
        session: outcome.session as Session,
        token: splitProviderTokens(token as JWT).visible,
      })
      return { type: 'SESSION_ANNOUNCED' }
    },

    ...strategyNeutralSessionEffects(env, async () => {}),

    buildProviderLogoutUrl: (params) => buildProviderLogoutUrl(env, providerLogout, params),

    async endSession() {
      try {
        const ending = rawCookie ? await readSessionToken(config, env.sessionCookieName, rawCookie, env.now) : null
        outcome.clearSession = true
        await emitAppEvent(env, 'signOut', { token: ending && splitProviderTokens(ending).visible })
        const claim = readOpLogoutClaim(ending)
        const provider = claim?.idt ? logout?.endSessionProvider(claim.p) : undefined
        if (!provider) return { type: 'SESSION_ENDED' }
        providerLogout = { provider, idToken: claim?.idt }
        return { type: 'SESSION_ENDED', endAtProvider: true }
      } catch (err) {
        config.logger.error(new SignOutError('sign-out failed', { err: err instanceof Error ? err : undefined }))
        return { type: 'SIGNOUT_FAILED' }
      }
    },
  }
}
