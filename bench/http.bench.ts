/**
 * `GET /session` with a valid session cookie over HTTP: autocannon (50 connections, keep-alive) against a server
 * process per library and server kind (bench/http-server.ts). The load generator runs in this process, the server
 * in its own, so each has one of the machine's cores (on a 2-core machine the figures are a floor, not a ceiling).
 * Rounds are interleaved as in the in-process suites: Authchart, @auth/core, @auth/core, Authchart, ...
 */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { Jar, loadNote } from './measure.js'

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

async function load(server: Server, seconds: number): Promise<Sample> {
  const result = await autocannon({
    url: `${server.origin}/auth/session`,
    connections: 50,
    duration: seconds,
    headers: { cookie: server.cookie },
  })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99 }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Runs the HTTP benchmark; returns the req/s ratios by server kind. */
export async function runHttpBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const rounds = options.quick ? 2 : 5
  const seconds = options.quick ? 2 : 4
  const kinds: Array<[string, string]> = [
    ['node', 'node:http'],
    ['express', 'Express 5'],
  ]
  const servers: Server[] = []
  const ratios: Record<string, number> = {}
  const rows: string[] = []
  try {
    for (const [kind, kindLabel] of kinds) {
      const ours = await start('authchart', kind, `Authchart on ${kindLabel}`)
      const theirs = await start('authjs', kind, `@auth/core on ${kindLabel}`)
      servers.push(ours, theirs)
      await load(ours, options.quick ? 1 : 3)
      await load(theirs, options.quick ? 1 : 3)
      const samples = new Map<Server, Sample[]>([
        [ours, []],
        [theirs, []],
      ])
      const pairRatios: number[] = []
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [ours, theirs] : [theirs, ours]
        const [first, second] = [await load(order[0], seconds), await load(order[1], seconds)]
        const a = order[0] === ours ? first : second
        const b = order[0] === ours ? second : first
        samples.get(ours)!.push(a)
        samples.get(theirs)!.push(b)
        pairRatios.push(a.rps / b.rps)
      }
      const summary = (server: Server) => {
        const list = samples.get(server)!
        return {
          rps: median(list.map((s) => s.rps)),
          p50: median(list.map((s) => s.p50)),
          p99: median(list.map((s) => s.p99)),
        }
      }
      const a = summary(ours)
      const b = summary(theirs)
      ratios[kindLabel] = median(pairRatios)
      rows.push(
        `| ${kindLabel} | ${Math.round(a.rps).toLocaleString('en')} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms | ${Math.round(b.rps).toLocaleString('en')} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms | **${median(pairRatios).toFixed(1)}×** |`,
      )
    }
  } finally {
    for (const server of servers) server.child.kill()
  }
  console.log('\n## GET /session over HTTP (autocannon, 50 connections, valid session cookie)')
  console.log(`\n${rounds} interleaved rounds of ${seconds} s per server after a warm-up run each; ${loadNote()}\n`)
  console.log('| server | Authchart | @auth/core | req/s ratio (median of rounds) |')
  console.log('|---|---:|---:|---:|')
  for (const row of rows) console.log(row)
  return ratios
}
