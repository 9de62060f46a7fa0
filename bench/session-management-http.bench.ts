/**
 * What session management costs a server: `GET /session` over HTTP on Authchart's Node binding (`toNodeHandler`,
 * which builds no web `Request` or `Response` for a session check), with `RedisSessionStore` and without it: two
 * servers with the same config in one process of their own (bench/http-server.ts `managed-and-plain`), autocannon
 * with 50 keep-alive connections in this one. One process, because two processes' own speeds differed by up to
 * 45 % for a whole run (node placement, code layout), far more than what is measured.
 *
 * Every request sends the next of its server's cookies, each a distinct user's (signed in at some time in the last 30
 * days, so every check of the managed server writes its record: the one-check shape of
 * bench/session-management.bench.ts); no cookie is sent twice, and the run fails rather than reuse one. The figure is
 * the process's own CPU time per request (it reports `process.cpuUsage()`) over a round of one server, in interleaved
 * rounds: the managed server's record writes, its Redis client and its socket included, Redis's own work not. Each
 * round's CPU is read after the record writes sent behind its answers have gone, so "on" pays all of its own.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { encode } from '../src/jwt.js'
import { benchSecret, sessionCookieName } from './http-config.js'
import { formatRatio, loadNote, median } from './measure.js'
import { siteUserClaims } from './site-users.js'

/** Requests per second a server is sized for: the cookies minted per server cover a run at this rate. */
const sizedFor = 30_000

interface Server {
  label: string
  child: ChildProcess
  port: number
  cookies: string[]
  next: number
}

/** Longer than a record batch waits to be sent (50 ms) and its round trip: a round's CPU includes its writes. */
const settleMs = 150

interface Sample {
  rps: number
  p99: number
  /** CPU microseconds of the server per request. */
  cpu: number
}

/** Distinct users' session cookies, sealed as a sign-in seals them (with the session id claim when managed). */
async function cookiesOf(label: string, managed: boolean, count: number): Promise<string[]> {
  const now = Date.now()
  const cookies: string[] = []
  for (let i = 0; i < count; i++) {
    const token = siteUserClaims(label, i, managed, now)
    cookies.push(`${sessionCookieName}=${await encode({ token, secret: benchSecret, salt: sessionCookieName })}`)
  }
  return cookies
}

/** The two servers, managed (`on`) and plain (`off`), in one process. */
async function start(onCookies: string[], offCookies: string[]): Promise<{ on: Server; off: Server }> {
  const child = fork(
    fileURLToPath(new URL('./http-server.js', import.meta.url)),
    ['authchart', 'node', 'managed-and-plain'],
    { execArgv: [], env: { ...process.env, NODE_ENV: 'production' } },
  )
  const ports = await new Promise<{ port: number; plainPort: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; plainPort: number }))
    child.once('exit', (code) => reject(new Error(`the servers exited (${code})`)))
  })
  return {
    on: { label: 'on', child, port: ports.port, cookies: onCookies, next: 0 },
    off: { label: 'off', child, port: ports.plainPort, cookies: offCookies, next: 0 },
  }
}

/** The server's CPU time so far, in microseconds. */
function cpuOf(server: Server): Promise<number> {
  return new Promise((resolve) => {
    const answer = (m: unknown) => {
      const cpu = (m as { cpu?: { user: number; system: number } }).cpu
      if (!cpu) return
      server.child.off('message', answer)
      resolve(cpu.user + cpu.system)
    }
    server.child.on('message', answer)
    server.child.send('cpu')
  })
}

async function load(server: Server, seconds: number): Promise<Sample> {
  let exhausted = false
  const before = await cpuOf(server)
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/auth/session`,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'GET' as const,
        path: '/auth/session',
        setupRequest: (request: autocannon.Request) => {
          const cookie = server.cookies[server.next++]
          if (cookie === undefined) exhausted = true
          return { ...request, headers: { ...request.headers, cookie: cookie ?? '' } }
        },
      },
    ],
  })
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  const after = await cpuOf(server)
  if (exhausted) throw new Error(`${server.label}: more requests than minted users; raise sizedFor`)
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return {
    rps: result.requests.total / seconds,
    p99: result.latency.p99,
    cpu: (after - before) / result.requests.total,
  }
}

/** Runs the suite; returns the CPU ratio (off / on, below 1) per request. */
export async function runSessionManagementHttpBench(
  options: { quick?: boolean } = {},
): Promise<Record<string, number>> {
  const rounds = options.quick ? 2 : 7
  const seconds = options.quick ? 1 : 2
  const warmup = 1
  const count = (rounds * seconds + warmup) * sizedFor
  let child: ChildProcess | undefined
  try {
    const { on, off } = await start(await cookiesOf('on', true, count), await cookiesOf('off', false, count))
    child = on.child
    await load(on, warmup)
    await load(off, warmup)
    const samples = { on: [] as Sample[], off: [] as Sample[] }
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a burst of load from elsewhere lands on both.
      const order = round % 2 === 0 ? [on, off] : [off, on]
      for (const server of order) (server === on ? samples.on : samples.off).push(await load(server, seconds))
    }
    const costs = samples.on.map((sample, i) => (sample.cpu / (samples.off[i]?.cpu ?? sample.cpu) - 1) * 100)
    const fewer = samples.on.map((sample, i) => ((samples.off[i]?.rps ?? sample.rps) / sample.rps - 1) * 100)
    const row = (list: Sample[]) =>
      `${Math.round(median(list.map((s) => s.rps))).toLocaleString('en')} req/s, p99 ${median(list.map((s) => s.p99))} ms, ${median(list.map((s) => s.cpu)).toFixed(1)} CPU µs/request`
    console.log('\n## Session management on a server (GET /session over HTTP, the Node binding, distinct users)')
    console.log(
      `\n${rounds} interleaved rounds of ${seconds} s per server (both in one process) after ${warmup} s of warm-up ` +
        'each, 50 connections, ' +
        `every request a new user's cookie (every check of "on" writes its record); ${loadNote()}\n`,
    )
    console.log('| server | median of rounds |')
    console.log('|---|---:|')
    console.log(`| with session management (\`RedisSessionStore\`) | ${row(samples.on)} |`)
    console.log(`| without | ${row(samples.off)} |`)
    console.log(
      `\n- more server CPU per request with session management, per round: ${costs.map((c) => `${c.toFixed(1)} %`).join(', ')}; median **${median(costs).toFixed(1)} %**`,
    )
    console.log(
      `- fewer requests per second, per round: ${fewer.map((c) => `${c.toFixed(1)} %`).join(', ')}; median ${median(fewer).toFixed(1)} %`,
    )
    const ratio = median(samples.off.map((sample, i) => sample.cpu / (samples.on[i]?.cpu ?? sample.cpu)))
    console.log(`- CPU per request, off / on: ${formatRatio(ratio)}`)
    return { 'on / off over HTTP (Node binding), CPU per request': ratio }
  } finally {
    child?.disconnect()
  }
}
