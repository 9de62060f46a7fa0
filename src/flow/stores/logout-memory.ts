/**
 * Back-channel logout state in this process's memory: enough for one instance (and for tests). Several instances
 * behind a load balancer need the Redis store, or a logout received by one is unknown to the others.
 * @module flow/stores/logout-memory
 */
import type { LogoutStore } from '../../types/logout-store.js'

/** Largest number of entries per map before the expired ones (and then the oldest) are dropped. */
const maxEntries = 100_000

interface Expiring<T> {
  value: T
  until: number
}

function prune<T>(map: Map<string, Expiring<T>>, nowMs: number): void {
  if (map.size < maxEntries) return
  for (const [key, entry] of map) if (entry.until <= nowMs) map.delete(key)
  for (const key of map.keys()) {
    if (map.size < maxEntries) break
    map.delete(key)
  }
}

/** A `LogoutStore` in memory; `now` (epoch milliseconds) is injectable for tests. */
export class MemoryLogoutStore implements LogoutStore {
  readonly kind = 'memory'
  readonly #tokenIds = new Map<string, Expiring<true>>()
  readonly #revocations = new Map<string, Expiring<number>>()
  readonly #sessions = new Map<string, Expiring<Set<string>>>()
  readonly #now: () => number

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now
  }

  #live<T>(map: Map<string, Expiring<T>>, key: string): T | undefined {
    const entry = map.get(key)
    if (!entry) return undefined
    if (entry.until > this.#now()) return entry.value
    map.delete(key)
    return undefined
  }

  async claimTokenId(key: string, ttlSeconds: number): Promise<boolean> {
    if (this.#live(this.#tokenIds, key)) return false
    prune(this.#tokenIds, this.#now())
    this.#tokenIds.set(key, { value: true, until: this.#now() + ttlSeconds * 1000 })
    return true
  }

  async releaseTokenId(key: string): Promise<void> {
    this.#tokenIds.delete(key)
  }

  async revoke(keys: string[], atMs: number, ttlSeconds: number): Promise<void> {
    prune(this.#revocations, this.#now())
    for (const key of keys) {
      const earlier = this.#live(this.#revocations, key) ?? 0
      this.#revocations.set(key, { value: Math.max(earlier, atMs), until: this.#now() + ttlSeconds * 1000 })
    }
  }

  async revokedAt(keys: string[]): Promise<number | undefined> {
    let latest: number | undefined
    for (const key of keys) {
      const at = this.#live(this.#revocations, key)
      if (at !== undefined && (latest === undefined || at > latest)) latest = at
    }
    return latest
  }

  async addSession(keys: string[], sessionToken: string, ttlSeconds: number): Promise<void> {
    prune(this.#sessions, this.#now())
    for (const key of keys) {
      const tokens = this.#live(this.#sessions, key) ?? new Set<string>()
      tokens.add(sessionToken)
      this.#sessions.set(key, { value: tokens, until: this.#now() + ttlSeconds * 1000 })
    }
  }

  async takeSessions(keys: string[]): Promise<string[]> {
    const taken = new Set<string>()
    for (const key of keys) {
      for (const token of this.#live(this.#sessions, key) ?? []) taken.add(token)
      this.#sessions.delete(key)
    }
    return [...taken]
  }
}
