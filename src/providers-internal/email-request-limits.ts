/**
 * Counters for the e-mail sign-in request limits: how many sign-in requests one address (or one client) made in
 * the current window. The machine compares the counts with the limits (machines/email.ts, `countingRequests`).
 * @module providers-internal/email-request-limits
 */
import { hash } from 'node:crypto'
import type { FailureCounter } from '../types/providers.js'

export type { EmailRequestLimits, FailureCounter, RequestCounter } from '../types/providers.js'

export const defaultEmailRequestLimits = { perAddress: 5, perClient: 20, windowSeconds: 900 } as const

/** Stored keys never carry an address or IP in the clear. */
export function counterKey(kind: 'address' | 'client', value: string): string {
  return `${kind}:${hash('sha256', value, 'base64url').slice(0, 32)}`
}

/** Largest number of keys the memory counter holds before it drops the expired ones (and then the oldest). */
const maxMemoryKeys = 100_000

/** A counter in this process's memory. */
export class MemoryRequestCounter implements FailureCounter {
  readonly #windows = new Map<string, { count: number; endsAt: number }>()

  async hit(key: string, windowSeconds: number, nowSeconds: number): Promise<number> {
    const current = this.#windows.get(key)
    if (current && current.endsAt > nowSeconds) {
      current.count += 1
      return current.count
    }
    if (this.#windows.size >= maxMemoryKeys) this.#prune(nowSeconds)
    this.#windows.set(key, { count: 1, endsAt: nowSeconds + windowSeconds })
    return 1
  }

  // Answered without a promise: the credentials sign-in reads two lockouts on every attempt, and memory needs no turn
  // of the event loop.
  peek(key: string, nowSeconds: number): { count: number; secondsLeft: number } {
    const current = this.#windows.get(key)
    if (!current || current.endsAt <= nowSeconds) return { count: 0, secondsLeft: 0 }
    return { count: current.count, secondsLeft: current.endsAt - nowSeconds }
  }

  clear(key: string): void {
    this.#windows.delete(key)
  }

  #prune(nowSeconds: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= nowSeconds) this.#windows.delete(key)
    // Still full: forget the oldest windows (Map keeps insertion order), never grow without bound.
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < maxMemoryKeys) break
      this.#windows.delete(key)
    }
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
}
