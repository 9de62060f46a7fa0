/**
 * The revocations of session management as this process holds them: revoked session ids and per-user epochs (every
 * session of the user signed in before the epoch is ended), each kept until the sessions it ends have expired
 * anyway. Both session stores answer the hot-path check from here; the Redis store keeps it current by pub/sub.
 * @module flow/stores/session-revocations
 */

/** Largest number of revoked ids kept before the expired ones are dropped. */
const pruneAt = 50_000

export class RevocationCache {
  readonly #ids = new Map<string, number>()
  readonly #epochs = new Map<string, { at: number; until: number }>()
  readonly #now: () => number

  constructor(now: () => number) {
    this.#now = now
  }

  /** Session `id` of `userId` is revoked until `untilMs`. */
  revokeId(userId: string, id: string, untilMs: number): void {
    if (this.#ids.size >= pruneAt) this.#prune()
    this.#ids.set(`${userId}\n${id}`, untilMs)
  }

  /** Every session of `userId` signed in before `atMs` is revoked until `untilMs`; a later epoch wins. */
  revokeBefore(userId: string, atMs: number, untilMs: number): void {
    const earlier = this.#epochs.get(userId)
    if (earlier && earlier.at >= atMs) return
    if (this.#epochs.size >= pruneAt) this.#prune()
    this.#epochs.set(userId, { at: atMs, until: untilMs })
  }

  isRevoked(userId: string, id: string, createdAt: number): boolean {
    if (this.#epochs.size > 0) {
      const epoch = this.#epochs.get(userId)
      if (epoch && createdAt < epoch.at && epoch.until > this.#now()) return true
    }
    if (this.#ids.size === 0) return false
    const until = this.#ids.get(`${userId}\n${id}`)
    return until !== undefined && until > this.#now()
  }

  #prune(): void {
    const now = this.#now()
    for (const [key, until] of this.#ids) if (until <= now) this.#ids.delete(key)
    for (const [key, epoch] of this.#epochs) if (epoch.until <= now) this.#epochs.delete(key)
  }
}
