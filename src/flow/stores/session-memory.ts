/**
 * Session management in this process's memory: enough for one instance (and for tests). Several instances behind a
 * load balancer need `RedisSessionStore`, or a session ended through one is still accepted by the others.
 * @module flow/stores/session-memory
 */
import type { SessionStore, StoredSessionRecord } from '../../types/session-store.js'
import { RevocationCache } from './session-revocations.js'

/** A `SessionStore` in memory; `now` (epoch milliseconds) is injectable for tests. */
export class MemorySessionStore implements SessionStore {
  readonly kind = 'memory'
  readonly #records = new Map<string, Map<string, StoredSessionRecord>>()
  readonly #revoked: RevocationCache
  readonly #now: () => number

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now
    this.#revoked = new RevocationCache(this.#now)
  }

  isRevoked(userId: string, id: string, createdAt: number): boolean {
    return this.#revoked.isRevoked(userId, id, createdAt)
  }

  async put(record: StoredSessionRecord): Promise<void> {
    this.putBehind(record)
  }

  /** Written at once: memory cannot fail to take it. */
  putBehind(record: StoredSessionRecord): void {
    let sessions = this.#records.get(record.userId)
    if (!sessions) this.#records.set(record.userId, (sessions = new Map<string, StoredSessionRecord>()))
    sessions.set(record.id, { ...record })
  }

  async list(userId: string): Promise<StoredSessionRecord[]> {
    const sessions = this.#records.get(userId)
    if (!sessions) return []
    const now = this.#now()
    for (const [id, record] of sessions)
      if (record.expiresAt <= now || this.#revoked.isRevoked(userId, id, record.createdAt)) sessions.delete(id)
    if (sessions.size === 0) this.#records.delete(userId)
    return [...sessions.values()].map((record) => ({ ...record }))
  }

  async revoke(userId: string, ids: string[], ttlSeconds: number): Promise<void> {
    const until = this.#now() + ttlSeconds * 1000
    const sessions = this.#records.get(userId)
    for (const id of ids) {
      this.#revoked.revokeId(userId, id, until)
      sessions?.delete(id)
    }
  }

  async revokeUser(userId: string, atMs: number, ttlSeconds: number): Promise<void> {
    this.#revoked.revokeBefore(userId, atMs, this.#now() + ttlSeconds * 1000)
    const sessions = this.#records.get(userId)
    if (!sessions) return
    for (const [id, record] of sessions) if (record.createdAt < atMs) sessions.delete(id)
  }
}
