/**
 * Provider tokens of a JWT session: they ride in the session cookie, under Authchart's own claim. Renewed tokens
 * reach the browser in a re-issued cookie with the same expiry (a refresh does not lengthen the session), which the
 * app's response must carry (`getAccessToken` hands back its `Set-Cookie` lines).
 */
import type { JWT } from '../../types/jwt.js'
import { readSessionToken, writeSessionToken } from '../../session/session-token.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import { providerTokensIn, splitProviderTokens, withProviderTokens, type ProviderTokens } from './provider-tokens.js'
import type { SessionTokenStore } from './token-refresh-flow.js'

/** The store for one request; `rawCookie` is the reassembled session cookie value, if any. */
export function jwtSessionTokens(env: EffectEnv, providerId: string, rawCookie: string | undefined): SessionTokenStore {
  const { config } = env
  let token: JWT | null = null

  const reissue = async (next: JWT, writes: Partial<SessionCookieWrites>) => {
    const { iat: _iat, exp, jti: _jti, ...claims } = next
    const lifetime = typeof exp === 'number' ? exp - env.now : config.jwt.maxAge
    writes.issuedSession = await writeSessionToken(config, env.sessionCookieName, claims, env.now, lifetime)
    token = next
  }

  return {
    async load() {
      if (!rawCookie) return 'no-session'
      token = await readSessionToken(config, env.sessionCookieName, rawCookie, env.now)
      if (!token || (typeof token.exp === 'number' && token.exp <= env.now)) return 'no-session'
      return providerTokensIn(token, providerId) ?? 'no-tokens'
    },
    async save(tokens: ProviderTokens, writes) {
      await reissue(withProviderTokens(token as JWT, providerId, tokens), writes)
    },
    async mark(writes) {
      await reissue(withProviderTokens(token as JWT, providerId, {}), writes)
    },
    async end(writes) {
      writes.clearSession = true
      await emitAppEvent(env, 'signOut', { token: splitProviderTokens(token as JWT).visible })
    },
  }
}
