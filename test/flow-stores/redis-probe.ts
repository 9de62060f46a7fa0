/**
 * Whether the shared Redis (REDIS_URL, default 127.0.0.1:6379) answers. Suites that need it run only when it does;
 * otherwise they print why they did not run, and under CI=true a missing Redis is a failure instead.
 * A local stand-in until the shared `test/support/services.ts` helper exists.
 */
import { Redis } from 'ioredis'
import { redisServerAvailable } from '../support/redis-server.js'

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const inCi = process.env.CI === 'true'

function report(what: string, reason: string): false {
  if (inCi) throw new Error(`${what} is required under CI=true: ${reason}`)
  console.warn(`[skipped] ${what}: ${reason}`)
  return false
}

/** True when the shared Redis answers PING within a second. */
export async function sharedRedisReachable(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  client.on('error', () => { /* the probe reports below */ })
  try {
    await client.connect()
    await client.ping()
    return true
  } catch (err) {
    return report(`Redis at ${redisUrl}`, err instanceof Error ? err.message : String(err))
  } finally {
    client.disconnect()
  }
}

/** True when a private redis-server can be started for fault tests. */
export async function privateRedisPossible(): Promise<boolean> {
  const result = await redisServerAvailable()
  return result.ok ? true : report('a private redis-server', result.reason)
}
