/**
 * Session management (`sessionManagement` in the config): every session has an id and a small record the user can
 * see (a device list), and any session can be ended before it expires, JWT sessions included. The store keeps the
 * records of JWT sessions and the revocations every instance checks on the hot path. See docs/sessions.md.
 * @module session-store
 */

/** What a user sees of one of their sessions. Times are epoch milliseconds. */
export interface SessionRecord {
  /** The session's id: the JWT's `authchart:sid` claim, or a digest of a database session's token. */
  id: string
  userId: string
  /** When the user signed in. */
  createdAt: number
  /** When the session was last seen, at most `updateAge` late (the record is written when the session slides). */
  lastSeenAt: number
  /** When the session expires unless it is seen again. */
  expiresAt: number
  /** A short summary of the browser's User-Agent: "Firefox on Linux". */
  userAgent?: string
  /** The client's address as the request limits see it (the socket, or behind `trustedProxies` the forwarded hop). */
  clientAddress?: string
  /** How the user signed in: the provider id. */
  method?: string
  /** Authentication methods (`amr`) of the sign-in, when known. */
  amr?: string[]
  /**
   * When the user authenticated, epoch seconds (OpenID Connect's `auth_time`): written at sign-in only, never when
   * the session slides, so that a step-up (`requireRecentAuth`) reads the sign-in itself. A database session kept by
   * an adapter with the record columns has it on its row. Absent on a record made before Authchart kept it (or by a
   * slide of a session it never recorded): such a session is not recent.
   */
  authTime?: number
}

/** A record as the store keeps it: a database session's token stays with it, so that revoking can delete the row. */
export interface StoredSessionRecord extends SessionRecord {
  /** A database session's token (never shown to anyone); absent for a JWT session. */
  sessionToken?: string
}

/** Where session records and revocations are kept: in memory for one instance, in Redis for several. */
export interface SessionStore {
  /** A short name for logs (`memory`, `redis`). */
  readonly kind: string
  /**
   * Whether the session `id` of `userId`, signed in at `createdAt` (epoch ms), was revoked: answered from this
   * process's memory (kept current by the store), so the check of every page view waits for nothing. A promise only
   * until the store has loaded the revocations once.
   */
  isRevoked(userId: string, id: string, createdAt: number): boolean | Promise<boolean>
  /** Writes (or replaces) a session's record, kept until it expires. */
  put(record: StoredSessionRecord): Promise<void>
  /**
   * Writes (or replaces) a session's record behind the request: the session check's "last seen", which its answer
   * does not wait for. Nothing is returned, so a store need make no promise per record; a failure is reported to
   * `failed` (once per write for all the records that share that `failed`). The store writes the record soon (the
   * Redis store: with the other records of the event-loop turn) and before any `list`, `revoke`, `revokeUser` or
   * `close` of the same store object returns; a later record of the same session waiting with it replaces it.
   * Optional: without it the check calls `put` and does not wait.
   */
  putBehind?(record: StoredSessionRecord, failed: (err: Error) => void): void
  /** The live records of a user's sessions. */
  list(userId: string): Promise<StoredSessionRecord[]>
  /** Ends sessions of `userId` by id, on every instance; their records are removed. Remembered `ttlSeconds`. */
  revoke(userId: string, ids: string[], ttlSeconds: number): Promise<void>
  /** Ends every session of `userId` signed in before `atMs`, on every instance; their records are removed. */
  revokeUser(userId: string, atMs: number, ttlSeconds: number): Promise<void>
  /** Stops listening for revocations (closes the store's own connections). */
  close?(): Promise<void>
}

/** `sessionManagement` in the config. */
export interface SessionManagementOptions {
  store: SessionStore
}
