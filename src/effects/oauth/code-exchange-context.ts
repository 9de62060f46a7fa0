/**
 * What one code exchange expects of the token response (its nonce, its clock), carried to the token endpoint
 * guard. openid-client calls the guard through the provider's cached `Configuration`, which is shared by concurrent
 * requests, so the per-flow expectations cannot live on it; AsyncLocalStorage scopes them to this exchange's
 * async call chain instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { JWTPayload } from 'jose'

/** The expectations of one code exchange (or refresh), and what the guard verified. */
export interface CodeExchange {
  /**
   * `refresh_token` for a refresh (docs/token-refresh.md): the ID token is optional in its answer, and carries the
   * original sign-in's nonce, which the refresh cannot know (OIDC Core §12.2). Default `authorization_code`.
   */
  grant?: 'authorization_code' | 'refresh_token'
  /** The nonce sent in the authorization request, when the provider's checks include `nonce`. */
  expectedNonce?: string
  /** Epoch seconds. */
  now: number
  /** Set by the guard: the ID token's claims, after every check on them passed. */
  verifiedIdTokenClaims?: JWTPayload
}

const storage = new AsyncLocalStorage<CodeExchange>()

/** Runs `exchange` (the openid-client call) with `expectations` visible to the token endpoint guard. */
export function runCodeExchange<T>(expectations: CodeExchange, exchange: () => Promise<T>): Promise<T> {
  return storage.run(expectations, exchange)
}

/** The expectations of the code exchange in progress, or undefined outside one. */
export function currentCodeExchange(): CodeExchange | undefined {
  return storage.getStore()
}
