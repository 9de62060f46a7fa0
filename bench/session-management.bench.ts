/**
 * What session management costs the session check: GET /session with a valid JWT, every operation from a different
 * user with a cookie never sent before in the run (tokens minted before the run, one per user, so no cache of
 * opened tokens helps anyone), for Authchart without session management, Authchart with `RedisSessionStore` on the
 * local Redis (the check is a lookup in the process's revocation cache, 10,000 revocations loaded), and @auth/core.
 * Three pairs, each interleaved (bench/measure.ts): with against without (the goal: at most 10 % slower), and each
 * against @auth/core.
 */
import { Auth as AuthJs } from '@auth/core'
import { encode as authJsEncode } from '@auth/core/jwt'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { Redis } from 'ioredis'
import { RedisSessionStore } from '../src/flow/stores/logout.js'
import { Auth } from '../src/index.js'
import { encode } from '../src/jwt.js'
import Credentials from '../src/providers/credentials.js'
import type { AuthConfig } from '../src/types/index.js'
import { compare, printTable, runOptions, type CaseResult, type Side } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const salt = 'authjs.session-token'
const authorize = () => null

type Encoder = (token: Record<string, unknown>) => Promise<string>

/**
 * A side whose every operation checks the session of a new user: `count` tokens are minted before it is measured (one
 * per user, never sent twice), and the run fails rather than reuse one.
 */
async function freshUsers(
  label: string,
  handler: (request: Request) => Promise<Response>,
  mint: Encoder,
  managed: boolean,
  count: number,
): Promise<Side> {
  const cookies: string[] = []
  const now = Date.now()
  const iat = Math.floor(now / 1000)
  for (let i = 0; i < count; i++) {
    const token = {
      sub: `${label}-user-${i}`,
      name: `User ${i}`,
      email: `user-${i}@example.com`,
      iat,
      exp: iat + 3600,
      ...(managed ? { 'authchart:sid': { id: `sid-${label}-${i}`, at: now, m: 'credentials' } } : {}),
    }
    cookies.push(`${salt}=${await mint(token)}`)
  }
  let next = 0
  return {
    run: async () => {
      const cookie = cookies[next++]
      if (cookie === undefined) throw new Error(`${label}: more checks than minted users; raise the pool`)
      const response = await handler(new Request(`${origin}/auth/session`, { headers: { cookie } }))
      const body = (await response.json()) as { user?: unknown } | null
      if (!body?.user) throw new Error(`${label}: the session check found no session`)
    },
  }
}

/** Runs the suite; returns the ratios by case. */
export async function runSessionManagementBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
  const prefix = `authchart-bench:${process.pid}:`
  const store = new RedisSessionStore(redis, { prefix })
  // A store with history: revoked sessions and users that the cache holds while the checks run.
  for (let i = 0; i < 5_000; i++) await store.revoke(`revoked-user-${i}`, [`sid-${i}`], 3600)
  for (let i = 0; i < 5_000; i++) await store.revokeUser(`epoch-user-${i}`, Date.now(), 3600)
  const shape = { secret, trustHost: true, basePath: '/auth' }
  const plain: AuthConfig = { ...shape, providers: [Credentials({ authorize })] }
  const managed: AuthConfig = { ...plain, sessionManagement: { store } }
  const theirs = { ...shape, providers: [AuthJsCredentials({ authorize })] }
  const ours: Encoder = (token) => encode({ token, secret, salt })
  const authJs: Encoder = (token) => authJsEncode({ token, secret, salt })
  // Enough users for the whole run of one side at 30,000 checks/s; each pair's pools are dropped after it.
  const pool = Math.ceil(((run.rounds * run.roundMillis + run.warmupMillis) / 1000) * 30_000)
  const withManagement = () => freshUsers('managed', (r) => Auth(r, managed), ours, true, pool)
  const without = () => freshUsers('plain', (r) => Auth(r, plain), ours, false, pool)
  const authJsSide = () => freshUsers('authjs', (r) => AuthJs(r, theirs), authJs, false, pool)
  const results: CaseResult[] = []
  try {
    results.push(
      await compare('session management on / off (Authchart both)', await withManagement(), await without(), run),
    )
    results.push(await compare('session management on / @auth/core', await withManagement(), await authJsSide(), run))
    results.push(await compare('session management off / @auth/core', await without(), await authJsSide(), run))
  } finally {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await store.close()
    redis.disconnect()
  }
  console.log(
    '\nGET /session with a valid JWT, a new user and a never-seen cookie on every check; in the first row the ' +
      '"@auth/core" column is Authchart without session management.',
  )
  return printTable('Session management: the cost on the session check (JWT, distinct users)', results, run)
}
