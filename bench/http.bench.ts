/**
 * `GET /session` with a valid session cookie over HTTP: autocannon (50 connections, keep-alive) against a server
 * process per library and server kind (bench/http-server.ts). The load generator runs in this process, the server
 * in its own, so each has one of the machine's cores (on a 2-core machine the figures are a floor, not a ceiling).
 * Rounds are interleaved as in the in-process suites: Authchart, @auth/core, @auth/core, Authchart, ...
 *
 * Two workloads: one signed-in browser's cookie jar on every request, and 20,000 distinct users' session cookies
 * taken in turn across all connections (no cookie comes back before the 19,999 others have), as a real site sees
 * them. Each library's cookies are sealed by its own `encode`, with the secret and cookie name the server uses.
 */
import { randomUUID } from 'node:crypto'
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { encode as authjsEncode } from '@auth/core/jwt'
import autocannon from 'autocannon'
import { encode } from '../src/jwt.js'
import { benchSecret, sessionCookieName } from './http-config.js'
import { Jar, loadNote, median } from './measure.js'

/** Distinct users in the many-users workload: each cookie comes back only after 19,999 others. */
const manyUsers = 20_000

interface Server {
  label: string
  child: ChildProcess
  origin: string
  cookie: string
}

interface Sample {
  rps: number
  p50: number
  p99: number
}

async function start(library: string, kind: string, label: string): Promise<Server> {
  const child = fork(fileURLToPath(new URL('./http-server.js', import.meta.url)), [library, kind], {
    execArgv: [],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port))
    child.once('exit', (code) => reject(new Error(`${label} exited (${code})`)))
  })
  const origin = `http://127.0.0.1:${port}`
  // Sign in over HTTP, as a browser would, and keep every cookie it was given.
  const jar = new Jar()
  const csrf = await fetch(`${origin}/auth/csrf`)
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signIn = await fetch(`${origin}/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'bench', password: 'pw', csrfToken }).toString(),
  })
  jar.take(signIn)
  const cookie = jar.header()
  const session = (await (await fetch(`${origin}/auth/session`, { headers: { cookie } })).json()) as {
    user?: { email?: string }
  } | null
  if (session?.user?.email !== 'bench@example.com') throw new Error(`${label}: no session after signing in`)
  return { label, child, origin, cookie }
}

/** The claims a credentials sign-in leaves in the token, for a user of its own. */
const claimsOf = (i: number) => ({ name: `User ${i}`, email: `user${i}@example.com`, picture: null, sub: randomUUID() })

/** The many-users workload's session cookies, sealed by each library's own `encode`. */
async function manyUsersCookies(library: 'authchart' | 'authjs'): Promise<string[]> {
  const seal = library === 'authchart' ? encode : authjsEncode
  const cookies: string[] = []
  for (let i = 0; i < manyUsers; i++) {
    const token = await seal({ token: claimsOf(i), secret: benchSecret, salt: sessionCookieName })
    cookies.push(`${sessionCookieName}=${token}`)
  }
  return cookies
}

/** Which cookies the load sends: the one browser's jar on every request, or the many users' cookies in turn. */
type Workload = { kind: 'one-browser' } | { kind: 'many-users'; cookies: string[] }

async function load(server: Server, seconds: number, workload: Workload): Promise<Sample> {
  let next = 0
  const result = await autocannon({
    url: `${server.origin}/auth/session`,
    connections: 50,
    duration: seconds,
    ...(workload.kind === 'one-browser'
      ? { headers: { cookie: server.cookie } }
      : {
          // One counter over every connection: the cookies are taken in turn across the whole load.
          requests: [
            {
              method: 'GET' as const,
              path: '/auth/session',
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                headers: { ...request.headers, cookie: workload.cookies[next++ % workload.cookies.length] },
              }),
            },
          ],
        }),
  })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99 }
}

/** Runs the HTTP benchmark; returns the req/s ratios by server kind and workload. */
export async function runHttpBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const rounds = options.quick ? 2 : 5
  const seconds = options.quick ? 2 : 4
  const kinds: Array<[string, string]> = [
    ['node', 'node:http'],
    ['express', 'Express 5'],
  ]
  const oursCookies = await manyUsersCookies('authchart')
  const theirsCookies = await manyUsersCookies('authjs')
  const workloads: Array<[string, (server: Server, ours: Server) => Workload]> = [
    ['valid session cookie, one browser', () => ({ kind: 'one-browser' })],
    [
      `${manyUsers.toLocaleString('en')} distinct users' cookies in turn`,
      (server, ours) => ({ kind: 'many-users', cookies: server === ours ? oursCookies : theirsCookies }),
    ],
  ]
  const servers: Server[] = []
  const ratios: Record<string, number> = {}
  const rows = new Map<string, string[]>(workloads.map(([name]) => [name, []]))
  try {
    for (const [kind, kindLabel] of kinds) {
      const ours = await start('authchart', kind, `Authchart on ${kindLabel}`)
      const theirs = await start('authjs', kind, `@auth/core on ${kindLabel}`)
      servers.push(ours, theirs)
      for (const [workloadName, workloadOf] of workloads) {
        const oursLoad = workloadOf(ours, ours)
        const theirsLoad = workloadOf(theirs, ours)
        await load(ours, options.quick ? 1 : 3, oursLoad)
        await load(theirs, options.quick ? 1 : 3, theirsLoad)
        const samples = { ours: [] as Sample[], theirs: [] as Sample[] }
        const pairRatios: number[] = []
        for (let round = 0; round < rounds; round++) {
          // Alternating which goes first, so a burst of load from elsewhere lands on both.
          const oursFirst = round % 2 === 0
          const first = oursFirst ? await load(ours, seconds, oursLoad) : await load(theirs, seconds, theirsLoad)
          const second = oursFirst ? await load(theirs, seconds, theirsLoad) : await load(ours, seconds, oursLoad)
          const a = oursFirst ? first : second
          const b = oursFirst ? second : first
          samples.ours.push(a)
          samples.theirs.push(b)
          pairRatios.push(a.rps / b.rps)
        }
        const summary = (list: Sample[]) => ({
          rps: median(list.map((s) => s.rps)),
          p50: median(list.map((s) => s.p50)),
          p99: median(list.map((s) => s.p99)),
        })
        const a = summary(samples.ours)
        const b = summary(samples.theirs)
        const ratio = median(pairRatios)
        ratios[workloadName === workloads[0][0] ? kindLabel : `${kindLabel}, ${workloadName}`] = ratio
        rows
          .get(workloadName)
          ?.push(
            `| ${kindLabel} | ${Math.round(a.rps).toLocaleString('en')} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms | ${Math.round(b.rps).toLocaleString('en')} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms | **${ratio.toFixed(1)}×** |`,
          )
      }
    }
  } finally {
    for (const server of servers) server.child.kill()
  }
  for (const [workloadName] of workloads) {
    console.log(`\n## GET /session over HTTP (autocannon, 50 connections, ${workloadName})`)
    console.log(`\n${rounds} interleaved rounds of ${seconds} s per server after a warm-up run each; ${loadNote()}\n`)
    console.log('| server | Authchart | @auth/core | req/s ratio (median of rounds) |')
    console.log('|---|---:|---:|---:|')
    for (const row of rows.get(workloadName) ?? []) console.log(row)
  }
  return ratios
}
