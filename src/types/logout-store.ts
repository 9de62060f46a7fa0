/**
 * Where back-channel logout keeps what it must remember between requests: logout token ids already used, the
 * revocation list JWT sessions are checked against, and which database sessions belong to an OP account.
 * @module logout-store
 */

/** Storage of back-channel logout state. Every method may throw; the caller turns a failure into a refusal or a 503. */
export interface LogoutStore {
  /** A short name for logs (`memory`, `redis`). */
  readonly kind: string
  /** Records a logout token id; `true` the first time, `false` for a replay. Kept `ttlSeconds`. */
  claimTokenId(key: string, ttlSeconds: number): Promise<boolean>
  /**
   * Forgets a claimed token id, so that the provider's retry of a logout that failed halfway is not taken for a
   * replay. Optional: without it, such a retry is refused and the logout stays undone.
   */
  releaseTokenId?(key: string): Promise<void>
  /** Marks `keys` revoked at `atMs` (epoch milliseconds) for `ttlSeconds`; a later mark wins. */
  revoke(keys: string[], atMs: number, ttlSeconds: number): Promise<void>
  /** The latest revocation time among `keys`, or undefined: one lookup, on every session read. */
  revokedAt(keys: string[]): Promise<number | undefined>
  /** Remembers that a database session belongs to each of `keys`, for `ttlSeconds`. */
  addSession(keys: string[], sessionToken: string, ttlSeconds: number): Promise<void>
  /** Takes out (forgets and returns) the database sessions remembered under `keys`. */
  takeSessions(keys: string[]): Promise<string[]>
}

/** What back-channel logout needs: the store. Configured as `backchannelLogout` in the config. */
export interface BackchannelLogoutOptions {
  store: LogoutStore
  /** Seconds a logout token's `iat` may lie in the past (and clock skew in the future). Default 300. */
  maxTokenAge?: number
}
