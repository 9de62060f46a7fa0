/**
 * Flow stores side by side: flow steps per second (save, load, consume) with the Redis store and the cookie store,
 * and the memory 100,000 in-flight flows take in Redis (target: at most 64 MB). Runs on a private redis-server, so
 * the numbers are not disturbed by other users and FLUSHALL harms nobody.
 */
import { Redis } from 'ioredis'
import { pathToFileURL } from 'node:url'
import { RedisFlowStore } from '../src/flow/stores/redis.js'
import { CookieFlowStore } from '../src/flow/stores/cookie.js'
import type { FlowRecord, FlowStore } from '../src/types/flow-store.js'
import { randomToken } from '../src/security/random.js'
import { startRedisServer } from '../test/support/redis-server.js'
import { measure } from './measure.js'

/** Shaped like an OAuth flow waiting at the provider: state, nonce and PKCE verifier, a callback URL. */
function oauthRecord(): FlowRecord {
  const now = Math.floor(Date.now() / 1000)
  return {
    v: 1,
    m: 'oauth',
    s: 'authorizing',
    c: {
      providerId: 'github',
      state: randomToken(),
      nonce: randomToken(),
      pkceVerifier: randomToken(),
      callbackUrl: '/dashboard/settings?tab=profile',
      startedAt: now,
    },
    x: now + 900,
  }
}

/** One flow's life in a store: started (save), read back (load), finished (consume). */
async function flowStep(store: FlowStore, record: FlowRecord): Promise<void> {
  const ref = await store.save(record, null)
  if (!(await store.load(ref))) throw new Error(`${store.kind}: load lost the flow`)
  if (!(await store.consume(ref))) throw new Error(`${store.kind}: consume lost the flow`)
}

/** Steps per second with `inFlight` steps running at once. */
async function concurrentRate(store: FlowStore, record: FlowRecord, inFlight: number, total: number): Promise<number> {
  let next = 0
  const start = process.hrtime.bigint()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < total) await flowStep(store, record)
    }),
  )
  return total / (Number(process.hrtime.bigint() - start) / 1e9)
}

async function usedMemory(client: Redis): Promise<number> {
  const info = await client.info('memory')
  const match = /used_memory:(\d+)/.exec(info)
  if (!match) throw new Error('INFO memory has no used_memory')
  return Number(match[1])
}

/** Runs the flow-store benchmark, prints a table, and returns the numbers by name. */
export async function runFlowStoreBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const quick = options.quick ?? false
  const flows = quick ? 10_000 : 100_000
  const server = await startRedisServer()
  const client = new Redis(server.url)
  const pipelined = new Redis(server.url, { enableAutoPipelining: true })
  try {
    const record = oauthRecord()
    const redis = RedisFlowStore(client)
    const redisPipelined = RedisFlowStore(pipelined)
    const cookie = new CookieFlowStore()
    cookie.configure({ secrets: ['bench secret, long enough for any key derivation'], cookieName: 'authjs.flow' })

    const rounds = quick ? 3 : 7
    const opsPerRound = quick ? 500 : 3000
    const redisSequential = await measure('redis', () => flowStep(redis, record), { rounds, opsPerRound })
    const cookieSequential = await measure('cookie', () => flowStep(cookie, record), { rounds, opsPerRound })
    const total = quick ? 5000 : 30_000
    const redisConcurrent = await concurrentRate(redisPipelined, record, 32, total)
    const cookieConcurrent = await concurrentRate(cookie, record, 32, total)

    await client.flushall()
    const before = await usedMemory(client)
    const batch = 1000
    for (let i = 0; i < flows; i += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, flows - i) }, () => redisPipelined.save(oauthRecord(), null)),
      )
    }
    const keys = await client.dbsize()
    if (keys !== flows) throw new Error(`expected ${flows} flows in Redis, found ${keys}`)
    const bytes = (await usedMemory(client)) - before
    const megabytesPer100k = ((bytes / flows) * 100_000) / (1024 * 1024)

    const results: Record<string, number> = {
      redisStepsPerSecond: redisSequential.opsPerSecond,
      cookieStepsPerSecond: cookieSequential.opsPerSecond,
      redisStepsPerSecond32InFlight: redisConcurrent,
      cookieStepsPerSecond32InFlight: cookieConcurrent,
      recordJsonBytes: Buffer.byteLength(JSON.stringify(record)),
      cookieRefBytes: (await cookie.save(record)).length,
      redisBytesPerFlow: bytes / flows,
      redisMegabytesPer100kFlows: megabytesPer100k,
    }

    const fmt = (n: number) => Math.round(n).toLocaleString('en')
    console.log('\n## Flow stores (one step = save + load + consume; private redis-server on loopback)')
    console.log('| store | steps/s, sequential | µs/step | steps/s, 32 in flight |')
    console.log('|---|---:|---:|---:|')
    console.log(
      `| redis | ${fmt(redisSequential.opsPerSecond)} | ${redisSequential.microsPerOp.toFixed(1)} | ${fmt(redisConcurrent)} (auto-pipelining) |`,
    )
    console.log(
      `| cookie | ${fmt(cookieSequential.opsPerSecond)} | ${cookieSequential.microsPerOp.toFixed(1)} | ${fmt(cookieConcurrent)} |`,
    )
    console.log(
      `\nRedis memory for ${fmt(flows)} in-flight flows: ${fmt(bytes)} bytes, ${results.redisBytesPerFlow.toFixed(0)} bytes/flow, ` +
        `${megabytesPer100k.toFixed(1)} MB per 100,000 flows (target ≤ 64 MB: ${megabytesPer100k <= 64 ? 'met' : 'MISSED'}); ` +
        `record ${results.recordJsonBytes} bytes of JSON, cookie ref ${results.cookieRefBytes} characters`,
    )
    return results
  } finally {
    client.disconnect()
    pipelined.disconnect()
    await server.stop()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runFlowStoreBench({ quick: process.argv.includes('--quick') })
}
