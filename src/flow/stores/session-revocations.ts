/**
 * The revocations of session management as this process holds them: revoked session ids and per-user epochs (every
 * session of the user signed in before the epoch is ended), each kept until the sessions it ends have expired
 * anyway. Both session stores answer the hot-path check from here; the Redis store keeps it current by pub/sub.
 * @module flow/stores/session-revocations
 */

/** Largest number of revoked ids (or of epochs) kept before the expired ones are dropped. */
const pruneAt = 50_000

/** What is revoked of one user: an epoch, revoked session ids (each until when it is remembered), or both. */
interface UserRevocations {
  epoch: { at: number; until: number } | undefined
  ids: Map<string, number> | undefined
}

export class RevocationCache {
  /**
   * Filed by user, so that the check made on every page view is one lookup by the user id the token already holds
   * (its hash cached in the string), and for nearly every user a miss: no key is built for it.
   */
  readonly #users = new Map<string, UserRevocations>()
  #idCount = 0
  #epochCount = 0
  readonly #now: () => number

  constructor(now: () => number) {
    this.#now = now
  }

  #entryOf(userId: string): UserRevocations {
    let entry = this.#users.get(userId)
    if (!entry) this.#users.set(userId, (entry = { epoch: undefined, ids: undefined }))
    return entry
  }

  /** Session `id` of `userId` is revoked until `untilMs`. */
  revokeId(userId: string, id: string, untilMs: number): void {
    if (this.#idCount >= pruneAt) this.#prune()
    const entry = this.#entryOf(userId)
    const ids = (entry.ids ??= new Map())
    if (!ids.has(id)) this.#idCount++
    ids.set(id, untilMs)
  }

  /** Every session of `userId` signed in before `atMs` is revoked until `untilMs`; a later epoch wins. */
  revokeBefore(userId: string, atMs: number, untilMs: number): void {
    const earlier = this.#users.get(userId)?.epoch
    if (earlier && earlier.at >= atMs) return
    if (this.#epochCount >= pruneAt) this.#prune()
    const entry = this.#entryOf(userId)
    if (!entry.epoch) this.#epochCount++
    entry.epoch = { at: atMs, until: untilMs }
  }

  isRevoked(userId: string, id: string, createdAt: number): boolean {
    const entry = this.#users.get(userId)
    if (entry === undefined) return false
    const { epoch, ids } = entry
    if (epoch && createdAt < epoch.at && epoch.until > this.#now()) return true
    const until = ids?.get(id)
    return until !== undefined && until > this.#now()
  }

  #prune(): void {
    const now = this.#now()
    for (const [userId, entry] of this.#users) {
      if (entry.ids) {
        for (const [id, until] of entry.ids) {
          if (until > now) continue
          entry.ids.delete(id)
          this.#idCount--
        }
        if (entry.ids.size === 0) entry.ids = undefined
      }
      if (entry.epoch && entry.epoch.until <= now) {
        entry.epoch = undefined
        this.#epochCount--
      }
      if (!entry.ids && !entry.epoch) this.#users.delete(userId)
    }
  }
}
