/**
 * What session management costs the session check, GET /session with a valid JWT from many distinct users, each
 * signed in at some time in the last 30 days, a thousand users' checks interleaved, in two traffic shapes:
 *
 * - **one check per user**: the issue's own case (#34), no cookie is sent twice in the run. With session management on, nearly every check writes the session's record ("last seen",
 *   due once per `updateAge`, and these sessions were last seen days ago).
 * - **three checks per user**, each sending the cookie the previous answer set (a browser's cookie jar): still no
 *   cookie sent twice, and every check decrypts (Authchart keeps no memo of opened tokens). One check in three
 *   writes a record.
 *
 * Each check runs in an event-loop turn of its own, as a server answers requests (a loop that never yields let the
 * Redis store send 64 records per command; a server sends whatever one turn, or its write-behind window, gathers).
 * A record write is sent behind the answer and finished inside the same round (`settle`), so its cost is counted
 * where it is caused. Every side ends its rounds waiting on Redis alike: a side that alone waited on I/O in its rounds
 * would also be charged whatever the process does while idle (collector work left by every side's garbage), measured
 * at 5–10 % of a check with nothing else different (docs/benchmarks.md). The session-management side's listing is two
 * round trips (what waits is sent, then the hash is read), so the others make two PINGs. Three sides: Authchart without session management, Authchart with `RedisSessionStore` on the local Redis (the revocation
 * check is a lookup in the process's cache, 10,000 revocations loaded), and @auth/core. Each pair is interleaved
 * (bench/measure.ts): with against without (the goal: at most 10 % slower), and each against @auth/core.
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
import { revokeSampleSessions, siteUserClaims } from './site-users.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const salt = 'authjs.session-token'
const authorize = () => null
/** Users whose checks are interleaved at any time. */
const activeUsers = 1_000

type Encoder = (token: Record<string, unknown>) => Promise<string>

interface ActiveUser {
  cookie: string
  left: number
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The re-issued session cookie's value in an answer, as a browser's jar would keep it. */
function reissuedCookie(response: Response, label: string): string {
  const line = response.headers.getSetCookie().find((entry) => entry.startsWith(`${salt}=`))
  if (!line) throw new Error(`${label}: the check re-issued no session cookie`)
  return line.slice(salt.length + 1, line.indexOf(';'))
}

/**
 * A side whose checks are a site's traffic: `count` users (tokens minted before it is measured, one per user, user i
 * signed in i·7919 minutes modulo 30 days ago), `presentations` checks each, `activeUsers` of them interleaved; the
 * run fails rather than reuse a user (or a cookie).
 */
async function siteTraffic(
  label: string,
  handler: (request: Request) => Promise<Response>,
  mint: Encoder,
  options: { managed: boolean; count: number; presentations: number; settle?: () => Promise<unknown> },
): Promise<Side> {
  const minted: string[] = []
  const now = Date.now()
  for (let i = 0; i < options.count; i++) minted.push(await mint(siteUserClaims(label, i, options.managed, now)))
  let next = 0
  const newUser = (): ActiveUser => {
    const cookie = minted[next++]
    if (cookie === undefined) throw new Error(`${label}: more checks than minted users; raise the pool`)
    return { cookie, left: options.presentations }
  }
  const active = Array.from({ length: activeUsers }, newUser)
  let turn = 0
  return {
    run: async () => {
      const slot = turn++ % activeUsers
      const user = active[slot]
      const response = await handler(
        new Request(`${origin}/auth/session`, { headers: { cookie: `${salt}=${user.cookie}` } }),
      )
      const body = (await response.json()) as { user?: unknown } | null
      if (!body?.user) throw new Error(`${label}: the session check found no session`)
      user.cookie = reissuedCookie(response, label)
      user.left -= 1
      if (user.left === 0) active[slot] = newUser()
      // Each check in an event-loop turn of its own, as a server answers requests that arrive on its sockets: work
      // a store puts off to the end of a turn (a batch of record writes) is paid per check, as on a server, and not
      // once per round of a loop that never yields.
      await nextTurn()
    },
    ...(options.settle ? { settle: options.settle } : {}),
  }
}

/** Runs the suite; returns the ratios by case. */
export async function runSessionManagementBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
  const prefix = `authchart-bench:${process.pid}:`
  const store = new RedisSessionStore(redis, { prefix })
  // A store with history: revoked sessions and users that the cache holds while the checks run.
  await revokeSampleSessions(store)
  for (let i = 0; i < 5_000; i++) await store.revokeUser(`epoch-user-${i}`, Date.now(), 3600)
  const shape = { secret, trustHost: true, basePath: '/auth' }
  const plain: AuthConfig = { ...shape, providers: [Credentials({ authorize })] }
  const managed: AuthConfig = { ...plain, sessionManagement: { store } }
  const theirs = { ...shape, providers: [AuthJsCredentials({ authorize })] }
  const ours: Encoder = (token) => encode({ token, secret, salt })
  const authJs: Encoder = (token) => authJsEncode({ token, secret, salt })
  // Enough users for the whole run of one side (Authchart at up to 30,000 checks/s, @auth/core at up to 3,000: it
  // runs at a few hundred); each pair's pools are dropped after it.
  const seconds = (run.rounds * run.roundMillis + run.warmupMillis) / 1000
  const pool = (presentations: number, perSecond: number) =>
    Math.ceil((seconds * perSecond) / presentations) + activeUsers
  // The record writes a round's checks sent behind their answers, finished inside the round (the listing sends what
  // waits and then reads: two round trips); the other sides wait for two round trips too, so that idle time inside a
  // round is the same for all.
  const settle = () => store.list('bench:settle')
  const roundTrip = async () => {
    await redis.ping()
    await redis.ping()
  }
  const withManagement = (presentations: number) =>
    siteTraffic('managed', (r) => Auth(r, managed), ours, {
      managed: true,
      count: pool(presentations, 30_000),
      presentations,
      settle,
    })
  const without = (presentations: number) =>
    siteTraffic('plain', (r) => Auth(r, plain), ours, {
      managed: false,
      count: pool(presentations, 30_000),
      presentations,
      settle: roundTrip,
    })
  const authJsSide = (presentations: number) =>
    siteTraffic('authjs', (r) => AuthJs(r, theirs), authJs, {
      managed: false,
      count: pool(presentations, 3_000),
      presentations,
      settle: roundTrip,
    })
  const results: CaseResult[] = []
  try {
    results.push(
      await compare('on / off (Authchart both), one check per user', await withManagement(1), await without(1), run),
    )
    results.push(
      await compare('on / @auth/core, one check per user', await withManagement(1), await authJsSide(1), run),
    )
    results.push(await compare('off / @auth/core, one check per user', await without(1), await authJsSide(1), run))
    results.push(
      await compare('on / off (Authchart both), three checks per user', await withManagement(3), await without(3), run),
    )
    results.push(
      await compare('on / @auth/core, three checks per user', await withManagement(3), await authJsSide(3), run),
    )
  } finally {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await store.close()
    redis.disconnect()
  }
  console.log(
    '\nGET /session with a valid JWT: distinct users signed in over the last 30 days, one check each (no cookie in any ' +
      'memo) or three (each sending the cookie the previous answer set), ' +
      `${activeUsers} users interleaved; "on / off" rows put Authchart with session management in the Authchart ` +
      'column and Authchart without it in the "@auth/core" column.',
  )
  const ratios = printTable('Session management: the cost on the session check (JWT, distinct users)', results, run)
  // The goal (#34): at most 10 % more per check. The ratios above are rates (on / off, below 1); the cost is the
  // inverse, in wall time and in CPU, each the median of the per-round ratios.
  console.log('')
  for (const result of results) {
    if (!result.label.startsWith('on / off') || !result.cpu) continue
    const time = (1 / result.ratio - 1) * 100
    const cpu = (1 / result.cpu.ratio - 1) * 100
    console.log(
      `- ${result.label}: session management costs ${time.toFixed(1)} % more time, ${cpu.toFixed(1)} % more CPU`,
    )
    ratios[`${result.label}, CPU`] = result.cpu.ratio
  }
  return ratios
}
