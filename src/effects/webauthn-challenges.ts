/**
 * Challenges already answered, so a second answer to one is refused. A server-side flow store (Redis) already hands a
 * flow out once; the cookie flow store cannot (a copied cookie opens again), so this record closes that gap within
 * one process until the challenge's own expiry. Deployments with several instances use a server-side flow store.
 *
 * Every callback that reaches the claim adds an entry, junk ones included, so a claim must not cost more as entries
 * pile up: entries wait in a queue ordered by the time they may go, and a claim only looks at the expired head.
 */
export class SpentChallenges {
  /** Challenge → the time (epoch seconds) from which it may be forgotten. */
  readonly #spent = new Map<string, number>()
  /** The same entries in the order they may go; `#head` is the first one still held. */
  readonly #queue: { challenge: string; until: number }[] = []
  #head = 0
  #examined = 0

  /** How many entries claims have looked at so far: a count of work, for tests and metrics. */
  get examined(): number {
    return this.#examined
  }

  /** How many challenges are held. */
  get size(): number {
    return this.#spent.size
  }

  /**
   * Marks `challenge` spent.
   * @returns true the first time, false for every later claim before `expiresAt`
   */
  claim(challenge: string, expiresAt: number, now: number): boolean {
    this.#forgetExpired(now)
    if (challenge === '' || this.#spent.has(challenge)) return false
    // Kept at least until its own expiry, and no earlier than the entry before it, so the queue stays in order.
    // Holding one a little longer changes nothing: past its expiry the flow is refused as expired before any claim.
    const tail = this.#queue.length > this.#head ? this.#queue[this.#queue.length - 1].until : expiresAt
    const until = Math.max(expiresAt, tail)
    this.#spent.set(challenge, until)
    this.#queue.push({ challenge, until })
    return true
  }

  /** Drops the expired entries at the head of the queue: each entry is dropped once, so O(1) per claim amortised. */
  #forgetExpired(now: number): void {
    while (this.#head < this.#queue.length) {
      this.#examined++
      const first = this.#queue[this.#head]
      if (first.until > now) break
      this.#spent.delete(first.challenge)
      this.#head++
    }
    // Compact once the dropped prefix is at least half the array, so memory follows what is held.
    if (this.#head > 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue.splice(0, this.#head)
      this.#head = 0
    }
  }
}
