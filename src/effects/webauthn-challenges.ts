/**
 * Challenges already answered, so a second answer to one is refused. A server-side flow store (Redis) already hands a
 * flow out once; the cookie flow store cannot (a copied cookie opens again), so this record closes that gap within
 * one process until the challenge's own expiry. Deployments with several instances use a server-side flow store.
 */
export class SpentChallenges {
  readonly #spent = new Map<string, number>()

  /**
   * Marks `challenge` spent.
   * @returns true the first time, false for every later claim before `expiresAt`
   */
  claim(challenge: string, expiresAt: number, now: number): boolean {
    for (const [spent, until] of this.#spent) if (until <= now) this.#spent.delete(spent)
    if (challenge === '' || this.#spent.has(challenge)) return false
    this.#spent.set(challenge, expiresAt)
    return true
  }
}
