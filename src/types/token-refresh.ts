/**
 * Types of provider token refresh (docs/token-refresh.md): the per-provider option, what `getAccessToken` answers,
 * and the lock that makes one refresh serve every instance.
 * @module token-refresh
 */

/** What a refused refresh does to the session. */
export type RefreshFailureAction = 'markSession' | 'endSession'

/** Authchart: the `tokenRefresh` option of an OAuth / OIDC provider. `true` takes every default. */
export interface TokenRefreshOptions {
  /**
   * Seconds an access token must still be valid for when `getAccessToken` hands it out; one closer to its expiry
   * is renewed first. Default 60.
   */
  margin?: number
  /**
   * What a refresh the provider refuses (a revoked or expired refresh token) does: `markSession` (default) keeps the
   * session and sets `session.error = "RefreshTokenError"`; `endSession` signs the user out.
   */
  onFailure?: RefreshFailureAction
}

/** Why `getAccessToken` has no token to give. */
export type AccessTokenError =
  /** No valid session in the request. */
  | 'SessionRequired'
  /** The session holds no tokens of this provider (signed in with another one, or before refresh was enabled). */
  | 'NoProviderTokens'
  /** The provider refused the refresh: the user must sign in again. The session is marked, or ended. */
  | 'RefreshTokenError'
  /** The provider or a store could not be reached: the session is untouched; try again later. */
  | 'RefreshUnavailable'
  /** The provider is unknown or has no `tokenRefresh`, or the configuration is broken (the server log says why). */
  | 'Configuration'

/** What `getAccessToken` answers. `setCookie` holds the `Set-Cookie` lines the app's response must carry. */
export type AccessTokenResult =
  | {
      accessToken: string
      /** When the access token expires, epoch seconds, when the provider said. */
      expiresAt?: number
      /** Whether this call renewed it (or was handed the renewal another request made). */
      refreshed: boolean
      error?: undefined
      /** The re-issued session cookie (JWT sessions, after a refresh); empty otherwise. */
      setCookie: string[]
    }
  | {
      accessToken?: undefined
      error: AccessTokenError
      /** With `onFailure: "endSession"`, the lines that clear the session cookie; empty otherwise. */
      setCookie: string[]
    }

/**
 * A lock with a result slot, shared by the instances of a site (the Redis flow store offers one), so that one
 * refresh of a refresh token serves every instance. Values are opaque strings (the caller seals them). Every
 * method may throw `FlowStoreUnavailable`.
 */
export interface TokenRefreshLock {
  readonly kind: string
  /** Takes the lock on `key` for `ttlMs`: an owner id when taken, `null` when someone holds it. */
  acquire(key: string, ttlMs: number): Promise<string | null>
  /** Gives the lock back, if `owner` still holds it. */
  release(key: string, owner: string): Promise<void>
  /** The result stored under `key`, or `null`. */
  readResult(key: string): Promise<string | null>
  /** Stores the result under `key` for `ttlMs`. */
  writeResult(key: string, value: string, ttlMs: number): Promise<void>
}

/** A flow store that also coordinates token refreshes between instances. */
export interface TokenRefreshLockSource {
  tokenRefreshLock(): TokenRefreshLock
}
