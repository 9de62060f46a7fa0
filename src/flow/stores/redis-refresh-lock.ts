/**
 * The token refresh lock on Redis, offered by the Redis flow store (`flowStore.tokenRefreshLock()`) so that every
 * instance of a site that shares the store also shares its refreshes (docs/token-refresh.md). Two keys per refresh
 * token, under one hash tag (one Cluster slot): the lock (`SET NX PX` with a random owner, released only by its
 * owner) and the sealed result that waiting instances read.
 */
import type { Cluster, Redis } from 'ioredis'
import { randomToken } from '../../security/random.js'
import type { TokenRefreshLock } from '../../types/token-refresh.js'

/** Releases a lock only if its owner still holds it: a lock that expired and was taken by another stays taken. */
const releaseScript = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"

/** Runs one Redis operation under the flow store's deadline and failure model (every failure: FlowStoreUnavailable). */
export type RedisOperation = <T>(operation: string, send: () => Promise<T>) => Promise<T>

/** The lock and result slot of token refreshes, on the flow store's client and under its prefix. */
export class RedisTokenRefreshLock implements TokenRefreshLock {
  readonly kind = 'redis'
  readonly #client: Redis | Cluster
  readonly #prefix: string
  readonly #run: RedisOperation

  constructor(client: Redis | Cluster, prefix: string, run: RedisOperation) {
    this.#client = client
    this.#prefix = prefix
    this.#run = run
  }

  async acquire(key: string, ttlMs: number): Promise<string | null> {
    const owner = randomToken(12)
    const taken = await this.#run('refresh lock', () =>
      this.#client.set(this.#lockKey(key), owner, 'PX', Math.ceil(ttlMs), 'NX'),
    )
    return taken === 'OK' ? owner : null
  }

  async release(key: string, owner: string): Promise<void> {
    await this.#run('refresh unlock', () => this.#client.eval(releaseScript, 1, this.#lockKey(key), owner))
  }

  async readResult(key: string): Promise<string | null> {
    return this.#run('refresh result', () => this.#client.get(this.#resultKey(key)))
  }

  async writeResult(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#run('refresh result', () => this.#client.set(this.#resultKey(key), value, 'PX', Math.ceil(ttlMs)))
  }

  #lockKey(key: string): string {
    return `${this.#prefix}refresh:{${key}}:lock`
  }

  #resultKey(key: string): string {
    return `${this.#prefix}refresh:{${key}}:result`
  }
}
