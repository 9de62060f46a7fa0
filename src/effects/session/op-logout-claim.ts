/**
 * What a session remembers about the OpenID provider it came from, so that it can be ended there (RP-initiated
 * logout: the ID token as `id_token_hint`) or from there (back-channel logout: the OP's `sub` and `sid`, and when the
 * user signed in). In a JWT session it rides in the Authchart-owned claim `authchart:op`, kept across the `jwt`
 * callback; a database session is indexed in the logout store under the same keys.
 */
import { decodeJwt } from 'jose'
import { FlowStoreUnavailable } from '../../errors.js'
import type { BackchannelLogoutOptions } from '../../types/logout-store.js'
import type { JWT } from '../../types/jwt.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { Account, TokenSet } from '../../types/index.js'

/** The claim name in the session JWT. Apps should treat it as opaque. */
export const opLogoutClaimName = 'authchart:op'

/** The claim's content. Short names: it rides in a cookie. */
export interface OpLogoutClaim {
  /** Provider id. */
  p: string
  /** The OP's subject. */
  sub: string
  /** The OP's session id (`sid` of the ID token), when it sent one. */
  sid?: string
  /** The ID token, kept only for a provider with `endSessionAtProvider`. */
  idt?: string
  /** Sign-in time, epoch milliseconds: a revocation at or after it ends this session. */
  at: number
}

/** Whether a provider asks for anything to be kept for logout. */
export function wantsOpLogout(provider: OAuthConfigInternal, backchannelConfigured: boolean): boolean {
  if (provider.type !== 'oidc') return false
  return provider.endSessionAtProvider === true || (provider.backchannelLogout === true && backchannelConfigured)
}

/** The claim for one OIDC sign-in, or undefined when the provider sent no usable ID token. */
export function opLogoutClaimOf(
  provider: OAuthConfigInternal,
  account: Account | null,
  tokens: TokenSet | undefined,
  nowMs: number,
): OpLogoutClaim | undefined {
  const idToken = typeof tokens?.id_token === 'string' ? tokens.id_token : account?.id_token
  if (typeof idToken !== 'string') return undefined
  let claims: Record<string, unknown>
  try {
    // Already verified by the callback's ID token checks: only read here.
    claims = decodeJwt(idToken)
  } catch {
    return undefined
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') return undefined
  return {
    p: provider.id,
    sub: claims.sub,
    ...(typeof claims.sid === 'string' && claims.sid !== '' ? { sid: claims.sid } : {}),
    ...(provider.type === 'oidc' && provider.endSessionAtProvider ? { idt: idToken } : {}),
    at: nowMs,
  }
}

/** The claim as a session token carries it, or undefined when it is missing or malformed. */
export function readOpLogoutClaim(token: JWT | null | undefined): OpLogoutClaim | undefined {
  const value = token?.[opLogoutClaimName]
  if (typeof value !== 'object' || value === null) return undefined
  const c = value as Record<string, unknown>
  if (typeof c.p !== 'string' || typeof c.sub !== 'string' || typeof c.at !== 'number') return undefined
  return {
    p: c.p,
    sub: c.sub,
    at: c.at,
    ...(typeof c.sid === 'string' ? { sid: c.sid } : {}),
    ...(typeof c.idt === 'string' ? { idt: c.idt } : {}),
  }
}

const key = (kind: string, provider: string, value: string) =>
  `${kind}:${encodeURIComponent(provider)}:${encodeURIComponent(value)}`

/**
 * The store keys a session answers to (revocation list and database session index): its OP account, and its OP
 * session when the ID token named one. A session without `sid` also answers to `nosid:<sub>`, so that a logout of
 * one OP session of its user reaches it too: it cannot be told apart from that OP session.
 */
export function sessionKeys(claim: Pick<OpLogoutClaim, 'p' | 'sub' | 'sid'>): string[] {
  return [key('sub', claim.p, claim.sub), claim.sid ? key('sid', claim.p, claim.sid) : key('nosid', claim.p, claim.sub)]
}

/**
 * The store keys a logout token ends: with `sid`, that OP session (and the user's sessions that carry no `sid`);
 * with `sub` only, every session of the OP account.
 */
export function logoutKeys(provider: string, sub: string | undefined, sid: string | undefined): string[] {
  if (!sid) return sub ? [key('sub', provider, sub)] : []
  return sub ? [key('sid', provider, sid), key('nosid', provider, sub)] : [key('sid', provider, sid)]
}

/**
 * Whether a back-channel logout revoked this token's OP account or OP session after it was signed in: one store
 * lookup, made only when back-channel logout is configured and the token came from an OP that can send one (else
 * undefined, and nothing is awaited). Every reader of a JWT session asks this one function: the session check and
 * `liveSessionOf` (session management, step-up).
 * @throws FlowStoreUnavailable (in the promise) when the store cannot be read: neither "signed in" nor "signed out"
 *   can be known
 */
export function revokedAtProvider(
  config: { backchannelLogout?: BackchannelLogoutOptions },
  token: JWT,
): Promise<boolean> | undefined {
  const store = config.backchannelLogout?.store
  const claim = store ? readOpLogoutClaim(token) : undefined
  if (!store || !claim) return undefined
  return store.revokedAt(sessionKeys(claim)).then(
    (revokedAt) => revokedAt !== undefined && revokedAt >= claim.at,
    (err: unknown) => {
      throw new FlowStoreUnavailable('the logout store could not be read', {
        store: store.kind,
        err: err instanceof Error ? err : undefined,
      })
    },
  )
}
