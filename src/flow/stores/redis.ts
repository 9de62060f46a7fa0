/**
 * A server-side flow store on Redis (through an ioredis client the app creates: single node, Sentinel or Cluster).
 * The browser's flow cookie carries only a random id; the record lives in Redis until its expiry, and the step that
 * reads it takes it out with `GETDEL`, so a replayed or concurrent request finds nothing and a flow completes at
 * most once, on whichever instance serves it.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisFlowStore } from 'authchart/flow-stores/redis'
 * const flowStore = RedisFlowStore(new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }), { operationTimeoutMs: 1500 })
 * ```
 * @module flow/stores/redis
 */
import type { Cluster, Redis } from 'ioredis'
import { FlowStoreUnavailable, InvalidConfig } from '../../errors.js'
import type { FlowRecord, FlowStore } from '../../types/flow-store.js'
import type { TokenRefreshLock, TokenRefreshLockSource } from '../../types/token-refresh.js'
import { randomToken } from '../../security/random.js'
import { RedisTokenRefreshLock } from './redis-refresh-lock.js'

export interface RedisFlowStoreOptions {
  /** Prefix of every key. Default `authchart:flow:`. */
  prefix?: string
  /**
   * Milliseconds a store operation may take, waiting for the connection included, before it fails with
   * `FlowStoreUnavailable`. Default 2000.
   */
  operationTimeoutMs?: number
  /** Epoch milliseconds, injectable for tests. */
  now?: () => number
}

/** 128 random bits in base64url: 21 full characters, then one of the four that carry only the last 2 bits. */
const refPattern = /^[A-Za-z0-9_-]{21}[AQgw]$/

/** For servers older than 6.2, which lack GETDEL: the same read-and-delete, atomic because a script is. */
const getDelScript = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v"

/** Connection states in which a command would wait in ioredis's offline queue for a server that is known to be gone. */
const downStatuses = new Set(['reconnecting', 'close', 'end', 'disconnecting'])

function isFlowRecord(value: unknown): value is FlowRecord {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return (
    typeof r.v === 'number' &&
    typeof r.m === 'string' &&
    typeof r.x === 'number' &&
    (typeof r.s === 'string' || (typeof r.s === 'object' && r.s !== null)) &&
    typeof r.c === 'object' &&
    r.c !== null &&
    !Array.isArray(r.c)
  )
}

function isUnknownCommand(err: unknown): boolean {
  return err instanceof Error && /unknown command/i.test(err.message)
}

/**
 * Keeps in-flight flows in Redis under `${prefix}{${id}}`. The braces are a Cluster hash tag: every key of one flow
 * hashes to one slot, so the store also works on a Cluster.
 *
 * Every `save` issues a fresh id and deletes the previous one, rather than rewriting the same id. The runtime
 * consumes a flow before it runs a step, so with a stable id a late replay of an earlier request would consume the
 * flow's *next* state and break the user's live flow; with a fresh id per step the replay finds nothing and only
 * the replay is rejected.
 *
 * Failure model: any Redis error, a connection that is down, or an operation that outlasts `operationTimeoutMs`
 * rejects with `FlowStoreUnavailable`, and nothing else. While the client is reconnecting commands are refused at
 * once instead of being queued, so an answer never waits on a server that is gone. A command that was already sent
 * when its time ran out cannot be recalled: a timed-out `consume` may still take the flow, so the user starts
 * again; it can never complete twice.
 */
export class RedisKeyedFlowStore implements FlowStore, TokenRefreshLockSource {
  readonly kind = 'redis'
  readonly #client: Redis | Cluster
  readonly #prefix: string
  readonly #timeoutMs: number
  readonly #now: () => number
  #hasGetDel = true
  /** Shared by every operation waiting for the connection. */
  #ready: Promise<void> | null = null

  /** @param client an ioredis `Redis` (single node or Sentinel) or `Cluster`, created and closed by the app. */
  constructor(client: Redis | Cluster, options: RedisFlowStoreOptions = {}) {
    const timeoutMs = options.operationTimeoutMs ?? 2000
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new InvalidConfig('operationTimeoutMs must be a positive number of milliseconds', {
        operationTimeoutMs: timeoutMs,
      })
    }
    this.#client = client
    this.#prefix = options.prefix ?? 'authchart:flow:'
    this.#timeoutMs = timeoutMs
    this.#now = options.now ?? Date.now
  }

  async load(ref: string): Promise<FlowRecord | null> {
    const key = this.#keyOf(ref)
    if (!key) return null
    return this.#parse(await this.#run('load', () => this.#client.get(key)))
  }

  async save(record: FlowRecord, prevRef: string | null): Promise<string> {
    const ref = randomToken(16)
    const prevKey = prevRef === null ? null : this.#keyOf(prevRef)
    const ttlMs = Math.floor(record.x * 1000 - this.#now())
    if (!(ttlMs > 0)) {
      // Already expired: nothing worth writing; the ref loads as unknown, like any expired flow.
      if (prevKey) await this.#run('save', () => this.#client.del(prevKey))
      return ref
    }
    const key = this.#prefix + '{' + ref + '}'
    const value = JSON.stringify(record)
    await this.#run<unknown>('save', () => {
      const write = this.#client.set(key, value, 'PX', ttlMs)
      // Two keys in two slots, so two commands rather than one transaction; a failure leaves at worst an
      // unreachable key that expires on its own.
      return prevKey ? Promise.all([write, this.#client.del(prevKey)]) : write
    })
    return ref
  }

  async consume(ref: string): Promise<FlowRecord | null> {
    const key = this.#keyOf(ref)
    if (!key) return null
    return this.#parse(await this.#run('consume', () => this.#getDel(key)))
  }

  /** Drops one flow by its ref (for instance when the app signs a user out everywhere). */
  async revoke(ref: string): Promise<void> {
    const key = this.#keyOf(ref)
    if (key) await this.#run('revoke', () => this.#client.del(key))
  }

  /**
   * The lock that makes one provider token refresh serve every instance sharing this store (docs/token-refresh.md),
   * on the same client, prefix, deadline and failure model.
   */
  tokenRefreshLock(): TokenRefreshLock {
    return new RedisTokenRefreshLock(this.#client, this.#prefix, (operation, send) => this.#run(operation, send))
  }

  /** The key behind a ref, or null for anything that cannot be a ref this store issued (no round trip). */
  #keyOf(ref: unknown): string | null {
    return typeof ref === 'string' && refPattern.test(ref) ? this.#prefix + '{' + ref + '}' : null
  }

  #parse(raw: unknown): FlowRecord | null {
    if (typeof raw !== 'string') return null
    let record: unknown
    try {
      record = JSON.parse(raw)
    } catch {
      return null
    }
    // The TTL removes expired keys; the check covers clock skew between this instance and Redis.
    if (!isFlowRecord(record) || record.x * 1000 <= this.#now()) return null
    return record
  }

  async #getDel(key: string): Promise<unknown> {
    if (this.#hasGetDel) {
      try {
        return await this.#client.getdel(key)
      } catch (err) {
        if (!isUnknownCommand(err)) throw err
        this.#hasGetDel = false
      }
    }
    return this.#client.eval(getDelScript, 1, key)
  }

  /** Runs one operation under the deadline and turns every way it can fail into `FlowStoreUnavailable`. */
  #run<T>(operation: string, send: () => Promise<T>): Promise<T> {
    const status = this.#client.status
    if (downStatuses.has(status)) {
      return Promise.reject(
        new FlowStoreUnavailable(`redis flow store: ${operation} refused, connection is ${status}`, {
          operation,
          status,
        }),
      )
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false
      const settle = (done: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        done()
      }
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new FlowStoreUnavailable(`redis flow store: ${operation} timed out after ${this.#timeoutMs} ms`, {
                operation,
                timeoutMs: this.#timeoutMs,
                status: this.#client.status,
              }),
            ),
          ),
        this.#timeoutMs,
      )

      this.#whenReady()
        // A deadline that passed while connecting must not let the command go out afterwards.
        .then(() => (settled ? undefined : send()))
        .then(
          (value) => settle(() => resolve(value as T)),
          (err: unknown) =>
            settle(() =>
              reject(
                err instanceof FlowStoreUnavailable
                  ? err
                  : new FlowStoreUnavailable(
                      `redis flow store: ${operation} failed`,
                      err instanceof Error ? err : { reason: String(err) },
                    ),
              ),
            ),
        )
    })
  }

  /**
   * Resolves once the client can send straight to the server. Starting up (`wait`, `connecting`) is waited for
   * within each operation's deadline, so the first request after boot does not fail. One pair of listeners serves
   * every waiting operation, however many there are.
   */
  #whenReady(): Promise<void> {
    const client = this.#client
    if (client.status === 'ready') return Promise.resolve()
    if (!this.#ready) {
      this.#ready = new Promise<void>((resolve, reject) => {
        const done = () => {
          client.off('ready', onReady)
          client.off('end', onEnd)
          this.#ready = null
        }
        const onReady = () => {
          done()
          resolve()
        }
        const onEnd = () => {
          done()
          reject(new FlowStoreUnavailable('redis flow store: the client was closed', { status: client.status }))
        }
        client.on('ready', onReady)
        client.on('end', onEnd)
      })
      if (client.status === 'wait')
        client.connect().catch(() => {
          /* the deadline reports it */
        })
    }
    return this.#ready
  }
}

/**
 * A flow store on Redis, called the way Auth.js adapters are: `flowStore: RedisFlowStore(client, options)`.
 * @param client an ioredis client (single node, Sentinel or Cluster); give it a bounded `maxRetriesPerRequest`
 *   so commands are not resent long after their request has given up
 * @param options key prefix and operation timeout
 */
export function RedisFlowStore(client: Redis | Cluster, options: RedisFlowStoreOptions = {}): RedisKeyedFlowStore {
  return new RedisKeyedFlowStore(client, options)
}
