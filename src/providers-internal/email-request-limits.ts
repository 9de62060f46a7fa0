/**
 * Counters for the e-mail sign-in request limits: how many sign-in requests one address (or one client) made in
 * the current window. The machine compares the counts with the limits (machines/email.ts, `countingRequests`).
 * @module providers-internal/email-request-limits
 */
import { hash } from 'node:crypto'
import type { FailureCounter } from '../types/providers.js'

export type { EmailRequestLimits, FailureCounter, RequestCounter } from '../types/providers.js'

/**
 * perAddress counts one address's requests from one client; perAddressAllClients caps them over every client, so a
 * stranger needs requests from four clients (four IPv4 addresses or IPv6 /64s) to spend an owner's sign-in mail for
 * 15 minutes, and an inbox gets at most 20 links a window (docs/email.md, "Request limits").
 */
export const defaultEmailRequestLimits = {
  perAddress: 5,
  perAddressAllClients: 20,
  perClient: 20,
  windowSeconds: 900,
} as const

/** Stored keys never carry an address or IP in the clear. */
export function counterKey(kind: 'address' | 'address-from-client' | 'client', value: string): string {
  return `${kind}:${hash('sha256', value, 'base64url').slice(0, 32)}`
}

/**
 * Largest number of count windows the memory counter holds, and, apart from them, of running lockouts. At about
 * 150 bytes a window (the key, its record and its place in the expiry queue) that is some 30 MB at most for both.
 */
export const maxMemoryKeys = 100_000

interface Window {
  count: number
  endsAt: number
}

/**
 * Windows in the order they end. Each window length (the e-mail window, the failure window, the lockout) has its own
 * first-in first-out queue: windows of one length end in the order they began, so the expired ones are always at the
 * head and are dropped without a scan, amortised O(1) a call. An entry whose key has since begun a new window (or
 * been cleared) is stale and skipped when it reaches the head.
 */
class ExpiryQueues {
  readonly #queues = new Map<number, { keys: string[]; endsAt: number[]; head: number }>()

  push(key: string, length: number, endsAt: number): void {
    let queue = this.#queues.get(length)
    if (!queue) this.#queues.set(length, (queue = { keys: [], endsAt: [], head: 0 }))
    queue.keys.push(key)
    queue.endsAt.push(endsAt)
  }

  /** Drops every entry whose window ended by `nowSeconds`, calling `expire` for each live one. */
  dropExpired(nowSeconds: number, expire: (key: string, endsAt: number) => void): void {
    for (const queue of this.#queues.values()) {
      while (queue.head < queue.keys.length && queue.endsAt[queue.head] <= nowSeconds) {
        expire(queue.keys[queue.head], queue.endsAt[queue.head])
        queue.head += 1
      }
      this.#compact(queue)
    }
  }

  /** Drops the window that ends first among the queue heads, live or stale; answers whether one was dropped. */
  dropOldest(expire: (key: string, endsAt: number) => void): boolean {
    let oldest: { keys: string[]; endsAt: number[]; head: number } | undefined
    for (const queue of this.#queues.values()) {
      if (queue.head >= queue.keys.length) continue
      if (!oldest || queue.endsAt[queue.head] < oldest.endsAt[oldest.head]) oldest = queue
    }
    if (!oldest) return false
    expire(oldest.keys[oldest.head], oldest.endsAt[oldest.head])
    oldest.head += 1
    this.#compact(oldest)
    return true
  }

  // The consumed prefix is cut off once it is half the array: each entry is copied at most once more.
  #compact(queue: { keys: string[]; endsAt: number[]; head: number }): void {
    if (queue.head > 1024 && queue.head * 2 > queue.keys.length) {
      queue.keys = queue.keys.slice(queue.head)
      queue.endsAt = queue.endsAt.slice(queue.head)
      queue.head = 0
    }
  }
}

/** Windows of one kind (counts, or lockouts), bounded, expired in the order they end. */
class WindowTable {
  readonly windows = new Map<string, Window>()
  readonly #expiry = new ExpiryQueues()
  readonly #forget = (key: string, endsAt: number) => {
    // Only the entry of the key's current window forgets it; an older entry of a key counted again is stale.
    if (this.windows.get(key)?.endsAt === endsAt) this.windows.delete(key)
  }

  /** The key's running window, or undefined. */
  current(key: string, nowSeconds: number): Window | undefined {
    const window = this.windows.get(key)
    return window && window.endsAt > nowSeconds ? window : undefined
  }

  /** Begins a new window of `length` seconds for `key`, making room first. */
  begin(key: string, length: number, nowSeconds: number, count: number): Window {
    this.#expiry.dropExpired(nowSeconds, this.#forget)
    // Full of running windows: the one ending soonest goes (for counts, the oldest; never unbounded growth).
    while (this.windows.size >= maxMemoryKeys && this.#expiry.dropOldest(this.#forget));
    const window = { count, endsAt: nowSeconds + length }
    this.windows.set(key, window)
    this.#expiry.push(key, length, window.endsAt)
    return window
  }
}

/**
 * A counter in this process's memory. Counts and lockouts are kept apart: a flood of new counts (failed sign-ins
 * under fresh usernames) evicts the oldest counts, never a running lockout, and every call costs O(1) amortised
 * however full the counter is (docs/security.md, "Memory bounds").
 */
export class MemoryRequestCounter implements FailureCounter {
  readonly #counts = new WindowTable()
  readonly #locks = new WindowTable()

  #hit(key: string, windowSeconds: number, nowSeconds: number): number {
    const current = this.#counts.current(key, nowSeconds)
    if (current) return (current.count += 1)
    return this.#counts.begin(key, windowSeconds, nowSeconds, 1).count
  }

  async hit(key: string, windowSeconds: number, nowSeconds: number): Promise<number> {
    return this.#hit(key, windowSeconds, nowSeconds)
  }

  // Answered without a promise: memory needs no turn of the event loop.
  peek(key: string, nowSeconds: number): { count: number; secondsLeft: number } {
    const current = this.#locks.current(key, nowSeconds) ?? this.#counts.current(key, nowSeconds)
    if (!current) return { count: 0, secondsLeft: 0 }
    return { count: current.count, secondsLeft: current.endsAt - nowSeconds }
  }

  // Synchronous, so two reservations can never interleave: N parallel attempts get the counts 1..N.
  reserve(
    lockoutKey: string,
    attemptKey: string,
    windowSeconds: number,
    nowSeconds: number,
  ): { lockedSeconds: number; attempts: number } {
    const lock = this.#locks.current(lockoutKey, nowSeconds)
    if (lock)
      return {
        lockedSeconds: lock.endsAt - nowSeconds,
        attempts: this.#counts.current(attemptKey, nowSeconds)?.count ?? 0,
      }
    return { lockedSeconds: 0, attempts: this.#hit(attemptKey, windowSeconds, nowSeconds) }
  }

  release(key: string): void {
    const window = this.#counts.windows.get(key)
    if (window && window.count > 0) window.count -= 1
  }

  lock(key: string, seconds: number, nowSeconds: number): void {
    const current = this.#locks.current(key, nowSeconds)
    if (current) current.count += 1
    else this.#locks.begin(key, seconds, nowSeconds, 1)
  }

  clear(key: string): void {
    this.#counts.windows.delete(key)
    this.#locks.windows.delete(key)
  }
}

/** The part of an ioredis client the Redis counter uses. */
export interface RedisCounterClient {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>
}

// INCR and the window's expiry in one step, so a key never outlives its window without a TTL.
const incrementScript =
  "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n"

// The count and the milliseconds left in its window, read together; a missing key reads as no window.
const peekScript =
  "local n = redis.call('GET', KEYS[1]) if not n then return {0, 0} end return {tonumber(n), redis.call('PTTL', KEYS[1])}"

const clearScript = "return redis.call('DEL', KEYS[1])"

// The lockout's milliseconds left, or one attempt counted (with its window's expiry), in one atomic step.
const reserveScript =
  "local left = redis.call('PTTL', KEYS[1]) if left > 0 then local n = redis.call('GET', KEYS[2]) return {left, tonumber(n) or 0} end " +
  "local n = redis.call('INCR', KEYS[2]) if n == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end return {0, n}"

// One attempt given back; a key that is gone stays gone (never a negative count without a TTL).
const releaseScript =
  "local n = redis.call('GET', KEYS[1]) if n and tonumber(n) > 0 then return redis.call('DECR', KEYS[1]) end return 0"

const lockScript = "redis.call('SET', KEYS[1], 1, 'EX', ARGV[1]) return 1"

/**
 * A counter in Redis, shared by every instance of the app. Windows end with the key's TTL, on Redis's clock: the
 * `nowSeconds` arguments are not used.
 */
export class RedisRequestCounter implements FailureCounter {
  constructor(
    private readonly client: RedisCounterClient,
    private readonly prefix = 'authchart:email-limit:',
  ) {}

  async hit(key: string, windowSeconds: number): Promise<number> {
    const count = await this.client.eval(
      incrementScript,
      1,
      `${this.prefix}${key}`,
      Math.max(1, Math.ceil(windowSeconds)),
    )
    return Number(count)
  }

  async peek(key: string): Promise<{ count: number; secondsLeft: number }> {
    const answer = await this.client.eval(peekScript, 1, `${this.prefix}${key}`)
    const [count, msLeft] = Array.isArray(answer) ? answer.map(Number) : [0, 0]
    if (!(count > 0)) return { count: 0, secondsLeft: 0 }
    // A key without a TTL (-1) would never end: read it as a window that ends now rather than a lock for ever.
    return { count, secondsLeft: msLeft > 0 ? Math.ceil(msLeft / 1000) : 0 }
  }

  async clear(key: string): Promise<void> {
    await this.client.eval(clearScript, 1, `${this.prefix}${key}`)
  }

  async reserve(
    lockoutKey: string,
    attemptKey: string,
    windowSeconds: number,
  ): Promise<{ lockedSeconds: number; attempts: number }> {
    const answer = await this.client.eval(
      reserveScript,
      2,
      `${this.prefix}${lockoutKey}`,
      `${this.prefix}${attemptKey}`,
      Math.max(1, Math.ceil(windowSeconds)),
    )
    const [msLeft, attempts] = Array.isArray(answer) ? answer.map(Number) : [Number.NaN, Number.NaN]
    if (!Number.isFinite(msLeft) || !Number.isFinite(attempts))
      throw new Error('unexpected answer from the reserve script')
    return { lockedSeconds: msLeft > 0 ? Math.ceil(msLeft / 1000) : 0, attempts }
  }

  async release(key: string): Promise<void> {
    await this.client.eval(releaseScript, 1, `${this.prefix}${key}`)
  }

  async lock(key: string, seconds: number): Promise<void> {
    await this.client.eval(lockScript, 1, `${this.prefix}${key}`, Math.max(1, Math.ceil(seconds)))
  }
}
