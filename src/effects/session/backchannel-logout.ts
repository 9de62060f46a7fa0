/**
 * OpenID Connect Back-Channel Logout 1.0, the receiving side: the logout token is verified (§2.6) and the sessions
 * it names are ended. Database sessions indexed under the OP account or OP session are deleted; JWT sessions cannot
 * be reached, so the OP account or session is put on the revocation list their reads check
 * (src/effects/session/jwt-session.ts).
 */
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify, type JWTPayload } from 'jose'
import type { WrappedAdapter } from '../../types/adapters.js'
import type { LogoutStore } from '../../types/logout-store.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { resolveProviderClient, type ProviderClient } from '../oauth/client-configuration.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { logoutKeys } from './op-logout-claim.js'

/** The `events` member that makes a JWT a logout token. */
export const backchannelLogoutEvent = 'http://schemas.openid.net/event/backchannel-logout'

/** Signature algorithms a logout token may use: asymmetric ones, verified against the provider's published keys. */
const allowedAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

/** Seconds of clock difference tolerated between the provider and this server. */
const clockTolerance = 60

/** A verified logout token: whom it logs out. */
export interface LogoutSubject {
  issuer: string
  jti: string
  sub?: string
  sid?: string
  /** Epoch seconds until which the token id must be remembered. */
  rememberUntil: number
}

/** Why a logout token was refused: a short reason for the log (never the token); the machine names the check. */
export interface LogoutTokenRefusal {
  refused: string
}

const keySets = new WeakMap<ProviderClient, ReturnType<typeof createRemoteJWKSet>>()

function keySetOf(client: ProviderClient, timeoutMs: number): ReturnType<typeof createRemoteJWKSet> | undefined {
  let keys = keySets.get(client)
  const jwksUri = client.config.serverMetadata().jwks_uri
  if (!keys && jwksUri) {
    keys = createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: Math.ceil(timeoutMs),
      [joseCustomFetch]: client.fetch,
    })
    keySets.set(client, keys)
  }
  return keys
}

function refuse(reason: string): LogoutTokenRefusal {
  return { refused: reason }
}

/** The claim checks of §2.6 after the signature, `iss`, `aud` and `iat` have passed. */
function checkClaims(payload: JWTPayload): string | undefined {
  if (typeof payload.jti !== 'string' || payload.jti === '') return 'no jti'
  const events = payload.events
  if (typeof events !== 'object' || events === null || Array.isArray(events)) return 'no events claim'
  const member = (events as Record<string, unknown>)[backchannelLogoutEvent]
  if (typeof member !== 'object' || member === null || Array.isArray(member)) return 'events lacks the logout event'
  const hasSub = typeof payload.sub === 'string' && payload.sub !== ''
  const hasSid = typeof payload.sid === 'string' && payload.sid !== ''
  if (!hasSub && !hasSid) return 'neither sub nor sid'
  if ('nonce' in payload) return 'a logout token must not carry a nonce'
  return undefined
}

/**
 * Verifies a logout token from `provider`: signature against its JWKS, `iss`, `aud` (the client id), `iat` within
 * `maxTokenAge`, `exp` when present, `jti`, the logout event, `sub` or `sid`, no `nonce`.
 */
export async function verifyLogoutToken(
  env: EffectEnv,
  provider: OAuthConfigInternal,
  logoutToken: string,
  maxTokenAge: number,
): Promise<LogoutSubject | LogoutTokenRefusal> {
  let client: ProviderClient
  try {
    client = await resolveProviderClient(provider, env.config.providerTimeout)
  } catch {
    return refuse('provider discovery failed')
  }
  const metadata = client.config.serverMetadata()
  const keys = keySetOf(client, env.config.providerTimeout)
  if (!keys) return refuse('provider publishes no jwks_uri')
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(logoutToken, keys, {
      issuer: metadata.issuer,
      audience: provider.clientId ?? '',
      algorithms: allowedAlgorithms,
      requiredClaims: ['iat'],
      maxTokenAge,
      clockTolerance,
      currentDate: new Date(env.nowMs),
    }))
  } catch (err) {
    const code = (err as { code?: unknown }).code
    return refuse(typeof code === 'string' ? code : 'signature or claims invalid')
  }
  // jose accepts an `iat` a little in the future within the tolerance; a token from far ahead is refused too.
  if (typeof payload.iat !== 'number' || payload.iat > env.now + clockTolerance) return refuse('iat in the future')
  const problem = checkClaims(payload)
  if (problem) return refuse(problem)
  const lifetimeEnd = typeof payload.exp === 'number' ? payload.exp : (payload.iat ?? env.now) + maxTokenAge
  return {
    issuer: metadata.issuer,
    jti: payload.jti as string,
    ...(typeof payload.sub === 'string' && payload.sub !== '' ? { sub: payload.sub } : {}),
    ...(typeof payload.sid === 'string' && payload.sid !== '' ? { sid: payload.sid } : {}),
    rememberUntil: Math.max(lifetimeEnd, (payload.iat ?? env.now) + maxTokenAge) + clockTolerance,
  }
}

/**
 * Records the token id in the logout store until the token's lifetime has passed: `true` the first time, `false` for
 * a token already used. Store failures are thrown.
 */
export async function claimLogoutTokenId(env: EffectEnv, store: LogoutStore, subject: LogoutSubject): Promise<boolean> {
  return store.claimTokenId(tokenIdKey(subject), Math.max(1, subject.rememberUntil - env.now))
}

function tokenIdKey(subject: LogoutSubject): string {
  return `${encodeURIComponent(subject.issuer)}:${encodeURIComponent(subject.jti)}`
}

/**
 * Forgets the claim of a token whose logout failed after it was claimed, so the provider's retry is served rather
 * than refused as a replay. Best effort: the store that just failed may fail again, and then the retry is refused.
 */
export async function releaseLogoutTokenId(store: LogoutStore, subject: LogoutSubject): Promise<void> {
  await store.releaseTokenId?.(tokenIdKey(subject))
}

/**
 * JWT sessions cannot be reached on the server: the OP session (`sid`) when given (with the user's sessions that carry
 * no `sid`), else the OP account (`sub`), is marked revoked for the session reads to find. Store failures are thrown.
 */
export async function revokeLoggedOutSessions(
  env: EffectEnv,
  store: LogoutStore,
  providerId: string,
  subject: LogoutSubject,
): Promise<void> {
  // A JWT session lives at most its maxAge after it was last written: the mark need not outlive that.
  await store.revoke(
    logoutKeys(providerId, subject.sub, subject.sid),
    env.nowMs,
    Math.max(env.config.session.maxAge, env.config.jwt.maxAge),
  )
}

/**
 * Deletes the database sessions indexed under the OP session (`sid`) or OP account (`sub`), with a `signOut` event
 * for each; answers how many were still there. Store and adapter failures are thrown.
 */
export async function deleteLoggedOutSessions(
  env: EffectEnv,
  store: LogoutStore,
  adapter: WrappedAdapter,
  providerId: string,
  subject: LogoutSubject,
): Promise<number> {
  let ended = 0
  const keys = logoutKeys(providerId, subject.sub, subject.sid)
  const taken = await store.takeSessions(keys)
  for (let i = 0; i < taken.length; i++) {
    let deleted
    try {
      deleted = await adapter.deleteSession(taken[i])
    } catch (err) {
      // The sessions not yet deleted go back into the index, for the provider's retry to find.
      const lifetime = Math.max(env.config.session.maxAge, 1)
      for (const sessionToken of taken.slice(i)) await store.addSession(keys, sessionToken, lifetime).catch(() => {})
      throw err
    }
    // null: the session had ended already (signed out, expired); an adapter returning nothing deleted it.
    if (deleted === null) continue
    ended++
    await emitAppEvent(env, 'signOut', { session: deleted ?? null })
  }
  return ended
}
