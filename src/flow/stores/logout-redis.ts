/**
 * Back-channel logout state in Redis, shared by every instance: used logout token ids (`SET NX EX`), the
 * revocation list (one `MGET` per JWT session read) and the database sessions of each OP account (sets).
 *
 * Every key carries the hash tag `{logout}`, so the multi-key reads work on a Redis Cluster (one slot holds them).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisLogoutStore } from 'authchart/logout-stores'
 * const backchannelLogout = { store: new RedisLogoutStore(new Redis(process.env.REDIS_URL!)) }
 * ```
 * @module flow/stores/logout-redis
 */
import type { Cluster, Redis } from 'ioredis'
import type { LogoutStore } from '../../types/logout-store.js'

// A later revocation never lowers the recorded time: the mark keeps the maximum, and the lifetime is renewed.
const revokeScript =
  "local v = tonumber(redis.call('GET', KEYS[1]) or '0') local at = tonumber(ARGV[1]) if at > v then v = at end " +
  "redis.call('SET', KEYS[1], tostring(v), 'EX', ARGV[2]) return v"

const takeScript = "local v = redis.call('SMEMBERS', KEYS[1]) redis.call('DEL', KEYS[1]) return v"

/** A `LogoutStore` on an ioredis client (single node, Sentinel or Cluster). */
export class RedisLogoutStore implements LogoutStore {
  readonly kind = 'redis'
  readonly #client: Redis | Cluster
  readonly #prefix: string

  /** `prefix` defaults to `authchart:{logout}:`; a custom one should keep a hash tag for Cluster. */
  constructor(client: Redis | Cluster, options: { prefix?: string } = {}) {
    this.#client = client
    this.#prefix = options.prefix ?? 'authchart:{logout}:'
  }

  #key(kind: string, key: string): string {
    return `${this.#prefix}${kind}:${key}`
  }

  async claimTokenId(key: string, ttlSeconds: number): Promise<boolean> {
    const set = await this.#client.set(this.#key('jti', key), '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX')
    return set === 'OK'
  }

  async releaseTokenId(key: string): Promise<void> {
    await this.#client.del(this.#key('jti', key))
  }

  async revoke(keys: string[], atMs: number, ttlSeconds: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds))
    for (const key of keys) await this.#client.eval(revokeScript, 1, this.#key('revoked', key), atMs, ttl)
  }

  async revokedAt(keys: string[]): Promise<number | undefined> {
    if (keys.length === 0) return undefined
    const values = await this.#client.mget(...keys.map((key) => this.#key('revoked', key)))
    const times = values.filter((v): v is string => typeof v === 'string').map(Number)
    return times.length > 0 ? Math.max(...times) : undefined
  }

  async addSession(keys: string[], sessionToken: string, ttlSeconds: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds))
    for (const key of keys) {
      const redisKey = this.#key('sessions', key)
      await this.#client.multi().sadd(redisKey, sessionToken).expire(redisKey, ttl).exec()
    }
  }

  async takeSessions(keys: string[]): Promise<string[]> {
    const taken = new Set<string>()
    for (const key of keys) {
      const members = await this.#client.eval(takeScript, 1, this.#key('sessions', key))
      if (Array.isArray(members)) for (const m of members) if (typeof m === 'string') taken.add(m)
    }
    return [...taken]
  }
}
