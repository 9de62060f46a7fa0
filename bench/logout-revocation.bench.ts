/**
 * What the back-channel revocation check costs on the hot path: GET /session with a valid JWT that came from an
 * OIDC provider (it carries the `authchart:op` claim), without `backchannelLogout` (no lookup), with the memory
 * logout store, and with the Redis logout store on the local Redis (one MGET per check). Authchart only: @auth/core
 * has no such check to compare with.
 */
import { Redis } from 'ioredis'
import { Auth } from '../src/index.js'
import { MemoryLogoutStore, RedisLogoutStore } from '../src/flow/stores/logout.js'
import { encode } from '../src/jwt.js'
import type { AuthConfig } from '../src/types/index.js'
import { measure, type Measured } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'

/** Runs the revocation-check benchmark and returns microseconds per check by case. */
export async function runLogoutRevocationBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const now = Math.floor(Date.now() / 1000)
  const token = await encode({
    token: {
      sub: 'u-1',
      name: 'Bench User',
      email: 'bench@example.com',
      iat: now,
      exp: now + 3600,
      'authchart:op': { p: 'idp', sub: 'op-sub-1', sid: 'op-sid-1', at: Date.now() },
    },
    secret,
    salt: 'authjs.session-token',
  })
  const cookie = `authjs.session-token=${token}`
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
  const prefix = `authchart-bench:${process.pid}:{logout}:`
  const base = { providers: [], secret, trustHost: true }
  const configs: Array<[string, AuthConfig]> = [
    ['no backchannelLogout (no lookup)', base],
    ['MemoryLogoutStore', { ...base, backchannelLogout: { store: new MemoryLogoutStore() } }],
    [
      'RedisLogoutStore (local Redis)',
      { ...base, backchannelLogout: { store: new RedisLogoutStore(redis, { prefix }) } },
    ],
  ]
  const opsPerRound = options.quick ? 200 : 1000
  const rounds = options.quick ? 3 : 7
  const results: Measured[] = []
  try {
    for (const [label, config] of configs) {
      const check = async () => {
        const response = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie } }), config)
        const body = (await response.json()) as { user?: unknown } | null
        if (!body?.user) throw new Error(`${label}: the session check found no session`)
      }
      results.push(await measure(label, check, { opsPerRound, rounds }))
    }
  } finally {
    redis.disconnect()
  }
  console.log('\n## GET /session with an OIDC JWT: the back-channel revocation check')
  console.log('| case | ops/s | µs per check |')
  console.log('|---|---:|---:|')
  for (const r of results) console.log(`| ${r.name} | ${r.opsPerSecond.toFixed(0)} | ${r.microsPerOp.toFixed(1)} |`)
  return Object.fromEntries(results.map((r) => [r.name, r.microsPerOp]))
}
