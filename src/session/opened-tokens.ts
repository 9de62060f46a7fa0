/**
 * The plaintexts of session tokens this process sealed or opened lately, so that the cookie a browser sends back on
 * every page view is decrypted once rather than on each view.
 *
 * It is a memo of a pure function: for one key ring, a token's plaintext never changes, and what is remembered is the
 * plaintext only. Everything that depends on the moment (expiry, the lifetime rule, the revocation list, the app's
 * callbacks) is still checked on every read by the callers. Tokens that fail to open are never remembered, so a
 * sender without a valid token cannot grow it, and it holds a bounded number of entries.
 *
 * Entries are found by the start of the token's authentication tag (its last segment) and then the whole token is compared in
 * constant time: a lookup must not tell a guesser, through its timing, how much of a valid token it got right.
 */
import { timingSafeEqual } from 'node:crypto'

/** Enough for the sessions active on one instance within minutes; at most a few MB with typical tokens. */
export const defaultOpenedTokenCapacity = 2048

/** Tokens longer than this (chunked sessions with large payloads) are opened every time: they would crowd the memo. */
const maxRememberedTokenLength = 4096

interface OpenedToken {
  /**
   * The whole token as bytes, compared in constant time. A token this process sealed is kept as its own string until
   * it is first presented (most are presented once at most); one taken from a request is copied at once, so it does
   * not keep the cookie header it came from alive.
   */
  bytes?: Buffer
  sealed?: string
  plaintext: string
}

/**
 * Base64url characters of the tag that file an entry (72 bits: collisions among genuine tokens do not happen, and a
 * forged one is caught by the comparison). Under 13 characters V8 copies a slice rather than pointing into the
 * cookie header it came from, so the key keeps nothing else alive.
 */
const keyLength = 12

/** The filing key of a compact JWE (the start of its tag segment), or undefined for anything that is not one. */
function keyOf(token: string): string | undefined {
  const dot = token.lastIndexOf('.')
  return token.length - dot <= keyLength ? undefined : token.slice(dot + 1, dot + 1 + keyLength)
}

export class OpenedTokens {
  readonly #entries = new Map<string, OpenedToken>()
  /**
   * The keys in the order they were filed, as a ring: the oldest is evicted from here. Asking the map for its first
   * key instead (`keys().next()`) walks over every slot deletions left behind, about 0.9 µs per eviction at 2,048.
   */
  readonly #order: string[] = []
  #oldest = 0

  constructor(readonly capacity: number = defaultOpenedTokenCapacity) {}

  get size(): number {
    return this.#entries.size
  }

  /** The plaintext of `token` if it was remembered, else undefined. */
  get(token: string): string | undefined {
    if (token.length > maxRememberedTokenLength) return undefined
    const key = keyOf(token)
    if (key === undefined) return undefined
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    const stored = (entry.bytes ??= Buffer.from(entry.sealed as string, 'utf8'))
    entry.sealed = undefined
    // UTF-8, not latin1: latin1 would fold a character beyond U+00FF onto a byte a stored token has.
    const presented = Buffer.from(token, 'utf8')
    if (presented.length !== stored.length) return undefined
    return timingSafeEqual(stored, presented) ? entry.plaintext : undefined
  }

  /**
   * Remembers the plaintext of a token that was just sealed (`sealedHere`: the string is this process's own) or
   * authenticated; the oldest entry makes room.
   */
  remember(token: string, plaintext: string, sealedHere = false): void {
    if (this.capacity <= 0 || token.length > maxRememberedTokenLength) return
    const key = keyOf(token)
    if (key === undefined) return
    const entry: OpenedToken = sealedHere
      ? { sealed: token, plaintext }
      : { bytes: Buffer.from(token, 'utf8'), plaintext }
    // A key filed again keeps its place in the order, as a map keeps an existing key's place.
    if (this.#entries.has(key)) {
      this.#entries.set(key, entry)
      return
    }
    if (this.#order.length < this.capacity) {
      this.#order.push(key)
    } else {
      this.#entries.delete(this.#order[this.#oldest])
      this.#order[this.#oldest] = key
      this.#oldest = (this.#oldest + 1) % this.capacity
    }
    this.#entries.set(key, entry)
  }
}
