/**
 * Session management in Redis, shared by every instance.
 *
 * - **Revocations** (revoked session ids, per-user epochs) live in one sorted set scored by when they may be
 *   forgotten (the sessions they end have expired by then), and every change is published on a channel. Each process
 *   loads the set once, then follows the channel on a connection of its own, so the check made on every page view is
 *   a lookup in this process's memory, and a session ended through one instance is refused by all the others as soon
 *   as the message arrives. After a reconnect the set is loaded again (messages sent meanwhile are not lost).
 * - **Records** (the device list) live in one hash per user, a field per session, written at sign-in and when the
 *   session slides (at most once per `updateAge`), never on a plain check. Writes go to Redis together (one command
 *   on a single node, up to `recordBatch` records), so a busy instance pays one round trip for many sessions; a
 *   listing first waits for this process's writes still on their way, and never shows a revoked session (a late
 *   write of another instance cannot bring one back). A sign-in's `put` is sent at the end of its event-loop turn,
 *   with whatever waits. The session check writes its record behind (`putBehind`): no promise per record, nothing
 *   worked out for it until its batch is sent (session-record-batch.ts), a later record of the same session leaving
 *   the earlier one out, its failures reported once per command; and it waits up to `writeBehindMs` for others. A
 *   server answers each request in an event-loop turn of its own, so batching by turn alone sent one command per
 *   check (measured: a session check cost 80 % more with it than without session management, against 19 % with 20 ms
 *   of waiting).
 *
 * The revocation keys carry the hash tag `{sessions}`, a user's records the tag of that user, so the store works on a
 * Redis Cluster (PUBLISH reaches every node's subscribers).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisSessionStore } from 'authchart/logout-stores'
 * const sessionManagement = { store: new RedisSessionStore(new Redis(process.env.REDIS_URL!)) }
 * ```
 * @module flow/stores/session-redis
 */
import type { Cluster, Redis } from 'ioredis'
import type { SessionStore, StoredSessionRecord } from '../../types/session-store.js'
import { RecordBatch, wellFormed, type RecordWriteFailed, type RecordWritten } from './session-record-batch.js'
import { readSessionRecordText } from './session-record-text.js'
import { RevocationCache } from './session-revocations.js'

// The hash lives as long as its longest-lived session: the lifetime is only ever lengthened.
const putScript =
  "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) local ttl = tonumber(ARGV[3]) " +
  "if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end return 1"

/**
 * Many records in one command (a single node): per record, the same as `putScript`. The records' fields, texts and
 * lifetimes travel in one argument, a JSON array of three entries per record (Redis's Lua reads it with its built-in
 * cjson), and the answer is 0 when every record was written, else a table of 1 or Redis's error text per record (a
 * record Redis refuses, a key of another type, is not written and the others are). The client's work per command is
 * per argument and per answer element: three arguments and an answer per record cost this process about 1.4 µs more
 * per record than one argument and a 0 (64-record commands on the local Redis).
 */
const putManyScript =
  'local values, answers, failed = cjson.decode(ARGV[1]), {}, false ' +
  'for i = 1, #KEYS do local field, text, ttl = values[3 * i - 2], values[3 * i - 1], values[3 * i] ' +
  "local set = redis.pcall('HSET', KEYS[i], field, text) " +
  "if type(set) == 'table' and set.err then answers[i] = set.err failed = true else " +
  "if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end answers[i] = 1 end end " +
  'if failed then return answers end return 0'

/**
 * Most records sent to Redis in one command; a full batch is sent at once. Each command is a round trip, and a round
 * trip costs a busy process more than its own work: with many sessions in memory, a PING every 64 session checks made
 * them 4 to 6 % slower (2 % with few). 256 records wait at most 17 ms at 15,000 checks a second, well inside
 * `writeBehindMs`, and took 2 to 3 points off session management's cost on the session check against 64.
 */
const recordBatch = 256

/**
 * How long a record written behind waits for others by default. "Last seen" is written at most once per `updateAge`
 * anyway, so 50 ms more is invisible in a device list; a process that ends without `close()` loses at most that
 * much of it.
 */
const defaultWriteBehindMs = 50

/** A revocation as the sorted set and the channel carry it: kind, user, then the id or the epoch. */
type Revocation = { kind: 'i'; userId: string; id: string } | { kind: 'e'; userId: string; at: number }

function memberOf(revocation: Revocation): string {
  return revocation.kind === 'i'
    ? `i\n${revocation.userId}\n${revocation.id}`
    : `e\n${revocation.userId}\n${revocation.at}`
}

function parseMember(member: string): Revocation | undefined {
  const [kind, userId, rest] = member.split('\n')
  if (userId === undefined || rest === undefined) return undefined
  if (kind === 'i') return { kind, userId, id: rest }
  const at = Number(rest)
  return kind === 'e' && Number.isFinite(at) ? { kind, userId, at } : undefined
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err))
}

function isCluster(client: Redis | Cluster): client is Cluster {
  return client.isCluster
}

/** A new connection to the same Redis (or Cluster), for the subscription: a subscribed connection serves nothing else. */
function connectionLike(client: Redis | Cluster): Redis | Cluster {
  return isCluster(client) ? client.duplicate() : client.duplicate()
}

/** A `SessionStore` on an ioredis client (single node, Sentinel or Cluster). */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis'
  readonly #client: Redis | Cluster
  readonly #prefix: string
  readonly #cache: RevocationCache
  readonly #now: () => number
  #subscriber: Redis | Cluster | undefined
  #loaded = false
  #starting: Promise<void> | undefined
  /** The records waiting for the next command. */
  #batch = new RecordBatch()
  /** The next command is due at the end of this event-loop turn (a `put` waits in it). */
  #sendingThisTurn = false
  /** The next command is due when this timer fires (only records written behind wait in it). */
  #writeBehindTimer: ReturnType<typeof setTimeout> | undefined
  readonly #writeBehindMs: number
  /** Pipelines sent and not yet answered: what a listing waits for. */
  readonly #sending = new Set<Promise<void>>()

  /**
   * `prefix` defaults to `authchart:`; the revocation keys add the hash tag `{sessions}`, a user's records the tag of
   * the user. `writeBehindMs` (default 50) is how long a record written behind (a session check's "last seen") may
   * wait for others before it is sent; 0 sends it at the end of its event-loop turn.
   */
  constructor(client: Redis | Cluster, options: { prefix?: string; now?: () => number; writeBehindMs?: number } = {}) {
    const writeBehindMs = options.writeBehindMs ?? defaultWriteBehindMs
    if (!Number.isFinite(writeBehindMs) || writeBehindMs < 0)
      throw new TypeError('RedisSessionStore: writeBehindMs is a number of milliseconds, 0 or more')
    this.#writeBehindMs = writeBehindMs
    this.#client = client
    this.#prefix = options.prefix ?? 'authchart:'
    this.#now = options.now ?? Date.now
    this.#cache = new RevocationCache(this.#now)
  }

  get #revocationsKey(): string {
    return `${this.#prefix}{sessions}:revocations`
  }

  /** Never throws: a user id with a lone surrogate, which `encodeURIComponent` refuses, is keyed as UTF-8 writes it. */
  #recordsKey(userId: string): string {
    return `${this.#prefix}session-records:{${encodeURIComponent(wellFormed(userId))}}`
  }

  readonly #recordsKeyOf = (userId: string): string => this.#recordsKey(userId)

  #apply(member: string, until: number): void {
    const revocation = parseMember(member)
    if (!revocation) return
    if (revocation.kind === 'i') this.#cache.revokeId(revocation.userId, revocation.id, until)
    else this.#cache.revokeBefore(revocation.userId, revocation.at, until)
  }

  /** Loads every live revocation into this process's memory. */
  async #load(): Promise<void> {
    const key = this.#revocationsKey
    await this.#client.zremrangebyscore(key, '-inf', String(this.#now()))
    const flat = await this.#client.zrange(key, '0', '-1', 'WITHSCORES')
    for (let i = 0; i + 1 < flat.length; i += 2) this.#apply(flat[i] ?? '', Number(flat[i + 1]))
    this.#loaded = true
  }

  /** Subscribes (first, so nothing published meanwhile is missed), then loads the set. */
  #start(): Promise<void> {
    this.#starting ??= (async () => {
      const subscriber = connectionLike(this.#client)
      this.#subscriber = subscriber
      // The duplicate has no listener of the app's: without one, ioredis prints every failed reconnect to the
      // console with a stack. A lost subscription is handled below (the set is read again on `ready`); the failures
      // that matter reach the app through the calls that need Redis.
      subscriber.on('error', () => {})
      subscriber.on('message', (_channel: string, message: string) => {
        const cut = message.indexOf('\n')
        this.#apply(message.slice(cut + 1), Number(message.slice(0, cut)))
      })
      // Messages published while the connection was down are lost: after a reconnect the whole set is read again.
      let first = true
      subscriber.on('ready', () => {
        if (first) return
        this.#load().catch(() => {
          // The next reconnect reads it again; until then the revocations already known still hold.
        })
      })
      await subscriber.subscribe(this.#revocationsKey)
      first = false
      await this.#load()
    })().catch((err: unknown) => {
      this.#starting = undefined
      const subscriber = this.#subscriber
      this.#subscriber = undefined
      subscriber?.disconnect()
      throw err
    })
    return this.#starting
  }

  isRevoked(userId: string, id: string, createdAt: number): boolean | Promise<boolean> {
    if (this.#loaded) return this.#cache.isRevoked(userId, id, createdAt)
    return this.#start().then(() => this.#cache.isRevoked(userId, id, createdAt))
  }

  put(record: StoredSessionRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#add(record, (err) => (err ? reject(err) : resolve()), undefined)
    })
  }

  /**
   * The session check's record: nothing to wait for, so no promise; sent with the records of the next `writeBehindMs`
   * (or sooner, with a `put` or a full batch; always before any `list`, `revoke`, `revokeUser` or `close` of this
   * object returns), its failure reported to `failed`.
   */
  putBehind(record: StoredSessionRecord, failed: RecordWriteFailed): void {
    this.#add(record, undefined, failed)
  }

  #add(record: StoredSessionRecord, waiting: RecordWritten | undefined, failed: RecordWriteFailed | undefined): void {
    if (waiting) this.#batch.add(record, waiting)
    else if (failed) this.#batch.addBehind(record, failed)
    if (this.#batch.size >= recordBatch) this.#send()
    else if (waiting || this.#writeBehindMs === 0) this.#sendAtEndOfTurn()
    else this.#sendWithinWriteBehind()
  }

  #sendAtEndOfTurn(): void {
    if (this.#sendingThisTurn) return
    this.#sendingThisTurn = true
    setImmediate(this.#sendScheduled)
  }

  #sendWithinWriteBehind(): void {
    if (this.#sendingThisTurn || this.#writeBehindTimer) return
    // Unreferenced: waiting records never keep a process alive (`close()` is what sends them at the end).
    this.#writeBehindTimer = setTimeout(this.#sendScheduled, this.#writeBehindMs).unref()
  }

  readonly #sendScheduled = (): void => {
    this.#sendingThisTurn = false
    this.#send()
  }

  /** Sends the waiting records: one command on a single node; on a Cluster each on its own (keys of many slots). */
  #send(): void {
    if (this.#writeBehindTimer) {
      clearTimeout(this.#writeBehindTimer)
      this.#writeBehindTimer = undefined
    }
    const batch = this.#batch
    if (batch.size === 0) return
    this.#batch = new RecordBatch()
    const client = this.#client
    const sent = isCluster(client) ? this.#oneByOne(client, batch) : this.#together(client, batch)
    this.#sending.add(sent)
    void sent.finally(() => this.#sending.delete(sent))
  }

  /** One command for the whole batch: what each record costs this process is its JSON, not a command of its own. */
  async #together(client: Redis, batch: RecordBatch): Promise<void> {
    try {
      const { keys, values } = batch.prepare(this.#recordsKeyOf, this.#now())
      const answers: unknown = await client.eval(putManyScript, keys.length, ...keys, JSON.stringify(values))
      batch.settle(answers === 0 ? 'all written' : Array.isArray(answers) ? answers : [])
    } catch (err) {
      batch.settle(asError(err))
    }
  }

  /** A Cluster: each record a command of its own, to the node of its user's hash tag. */
  async #oneByOne(client: Cluster, batch: RecordBatch): Promise<void> {
    const { keys, values } = batch.prepare(this.#recordsKeyOf, this.#now())
    const answers = await Promise.all(
      keys.map((key, i) =>
        client.eval(putScript, 1, key, ...values.slice(i * 3, i * 3 + 3)).then(
          (): unknown => 1,
          (err: unknown) => asError(err).message,
        ),
      ),
    )
    batch.settle(answers)
  }

  /** Waits until this process's record writes so far have been answered (each `put` reports its own failure). */
  async #written(): Promise<void> {
    this.#send()
    await Promise.allSettled([...this.#sending])
  }

  async list(userId: string): Promise<StoredSessionRecord[]> {
    await this.#written()
    if (!this.#loaded) await this.#start()
    const key = this.#recordsKey(userId)
    const fields = await this.#client.hgetall(key)
    const now = this.#now()
    const live: StoredSessionRecord[] = []
    const expired: string[] = []
    for (const [id, text] of Object.entries(fields)) {
      const record = readSessionRecordText(text, id, userId)
      // A revoked session's record can be written again by a check that was under way (here or on another
      // instance): it is dropped like an expired one.
      const alive =
        record !== undefined && record.expiresAt > now && !this.#cache.isRevoked(userId, record.id, record.createdAt)
      if (record && alive) live.push(record)
      else expired.push(id)
    }
    if (expired.length > 0) await this.#client.hdel(key, ...expired)
    return live
  }

  async #publish(revocations: Revocation[], ttlSeconds: number): Promise<void> {
    await this.#start()
    const until = this.#now() + Math.max(1, Math.ceil(ttlSeconds)) * 1000
    const key = this.#revocationsKey
    for (const revocation of revocations) {
      const member = memberOf(revocation)
      // This process knows at once; the others when the message arrives.
      this.#apply(member, until)
      await this.#client.zadd(key, until, member)
      await this.#client.publish(key, `${until}\n${member}`)
    }
  }

  async revoke(userId: string, ids: string[], ttlSeconds: number): Promise<void> {
    if (ids.length === 0) return
    await this.#written()
    await this.#publish(
      ids.map((id) => ({ kind: 'i', userId, id })),
      ttlSeconds,
    )
    await this.#client.hdel(this.#recordsKey(userId), ...ids)
  }

  async revokeUser(userId: string, atMs: number, ttlSeconds: number): Promise<void> {
    await this.#written()
    await this.#publish([{ kind: 'e', userId, at: atMs }], ttlSeconds)
    const ended = (await this.list(userId)).filter((record) => record.createdAt < atMs).map((record) => record.id)
    if (ended.length > 0) await this.#client.hdel(this.#recordsKey(userId), ...ended)
  }

  async close(): Promise<void> {
    await this.#written()
    const subscriber = this.#subscriber
    this.#subscriber = undefined
    this.#starting = undefined
    this.#loaded = false
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect())
  }
}
