/**
 * `npm run bench:outside`: the independent harness of issue #37, kept in the repository. Plain JavaScript in a plain
 * `node` process; it shares no code with bench/measure.ts or the other suites and imports only the built library
 * (`dist/`, from `npm run build`, or `--lib dist-bench` for the tree `npm run bench` compiles) and `@auth/core`.
 *
 * The same config for both libraries (secret, `trustHost`, base path, a credentials provider, JWT sessions with
 * `updateAge: 0`), both warmed, then measured in interleaved rounds (Authchart, @auth/core, @auth/core, Authchart,
 * ...), each round a fixed time of one library; the figures are medians over the rounds, the ratio the median of the
 * per-round ratios, and the machine's load is printed with every case.
 *
 * Cases, in process (one operation builds the web `Request`, calls `Auth()` and reads the whole `Response` body):
 *   jar        session check, one browser's jar (session, CSRF and callback-URL cookies of a sign-in) resent as it is
 *   users      session check, 20,000 distinct users' session cookies (each library's own `encode`) taken in turn
 *   chain      session check, each request sending the session cookie the previous answer set
 *   no-cookie  session check without a cookie;  csrf: GET /csrf;  providers: GET /providers
 *   sign-in    credentials sign-in: GET /csrf, then POST /callback/credentials with its token and cookie
 * Over HTTP (each library behind node:http in a child process of its own: Authchart's `toNodeHandler`, @auth/core
 * behind the few lines of glue an app writes for it; this process is the client, 50 keep-alive connections on bare
 * sockets, one request at a time on each; requests/s and p99 latency):
 *   http-jar   GET /session with one browser's jar on every request
 *   http-users GET /session with 20,000 distinct users' cookies in turn over all connections
 *
 *   node bench/outside-harness.mjs [--lib dist|dist-bench] [--only jar,users,...] [--rounds N] [--round-ms M]
 *     [--warmup-ms W] [--users U] [--quick]
 */
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { Agent, createServer, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Auth as AuthJs } from '@auth/core'
import { encode as authjsEncode } from '@auth/core/jwt'
import AuthJsCredentials from '@auth/core/providers/credentials'

const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const quick = args.includes('--quick')
const lib = option('--lib', 'dist')
const rounds = Number(option('--rounds', quick ? 3 : 21))
const roundMs = Number(option('--round-ms', quick ? 100 : 200))
const warmupMs = Number(option('--warmup-ms', quick ? 1000 : 1500))
const users = Number(option('--users', 20_000))
const httpRounds = Number(option('--http-rounds', quick ? 1 : 5))
const httpRoundMs = Number(option('--http-round-ms', quick ? 1000 : 4000))
const connections = 50

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const libRoot = join(root, lib === 'dist-bench' ? 'dist-bench' : 'dist', 'src')
if (!existsSync(join(libRoot, 'index.js'))) {
  console.error(`outside harness: ${libRoot}/index.js is missing; run \`npm run build\` (or \`--lib dist-bench\`)`)
  process.exit(1)
}
const load = async (path) => import(pathToFileURL(join(libRoot, path)).href)
const { Auth } = await load('index.js')
const { encode } = await load('jwt.js')
const { default: Credentials } = await load('providers/credentials.js')
const { toNodeHandler } = await load('frameworks/node.js')

// ---- the one config, for both ---------------------------------------------------------------------------------

const origin = 'http://localhost:3000'
const secret = 'outside-harness-secret-outside-harness-42'
const cookieName = 'authjs.session-token'
const user = { id: 'u-1', name: 'Harness User', email: 'harness@example.com' }
const authorize = async (c) => (c.username === 'harness' && c.password === 'pw' ? user : null)
const credentialFields = { username: {}, password: {} }
const shape = { secret, trustHost: true, basePath: '/auth', session: { strategy: 'jwt', updateAge: 0 } }
const configs = {
  Authchart: { ...shape, providers: [Credentials({ credentials: credentialFields, authorize })] },
  '@auth/core': { ...shape, providers: [AuthJsCredentials({ credentials: credentialFields, authorize })] },
}
const handlers = {
  Authchart: (request) => Auth(request, configs.Authchart),
  '@auth/core': (request) => AuthJs(request, configs['@auth/core']),
}
const encoders = { Authchart: encode, '@auth/core': authjsEncode }
const libraries = ['Authchart', '@auth/core']

// ---- a browser's cookie jar -----------------------------------------------------------------------------------

function takeCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';', 1)[0]
    const eq = pair.indexOf('=')
    const name = pair.slice(0, eq)
    if (/;\s*max-age=0/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name)
    else jar.set(name, pair.slice(eq + 1))
  }
}
const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')

const get = (path, cookie) => new Request(`${origin}/auth${path}`, { headers: cookie ? { cookie } : {} })

/** A credentials sign-in as a browser does it; returns the jar it leaves (session, CSRF, callback URL). */
async function signIn(handler) {
  const jar = new Map()
  const csrfResponse = await handler(get('/csrf'))
  takeCookies(jar, csrfResponse)
  const { csrfToken } = await csrfResponse.json()
  const response = await handler(
    new Request(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, username: 'harness', password: 'pw', callbackUrl: origin }),
    }),
  )
  await response.text()
  takeCookies(jar, response)
  if (!jar.has(cookieName)) throw new Error(`outside harness: the sign-in set no session cookie (${response.status})`)
  return jar
}

// ---- interleaved rounds ---------------------------------------------------------------------------------------

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const loadText = () => loadavg()[0].toFixed(2)

/** One library's operations for `millis` of their own time: the rate and the CPU µs per operation. */
async function roundOf(op, millis) {
  const budget = BigInt(Math.round(millis * 1e6))
  let spent = 0n
  let ops = 0
  const cpu = process.cpuUsage()
  while (spent < budget) {
    const start = process.hrtime.bigint()
    await op()
    spent += process.hrtime.bigint() - start
    ops++
  }
  const used = process.cpuUsage(cpu)
  return { rate: ops / (Number(spent) / 1e9), cpu: (used.user + used.system) / ops }
}

const results = []

/** Warms both, then measures `rounds` interleaved round pairs; prints and keeps one row. */
async function inProcess(name, ops) {
  for (let i = 0; i < 4; i++) for (const library of libraries) await roundOf(ops[library], warmupMs / 4)
  const startLoad = loadText()
  const measured = { Authchart: [], '@auth/core': [] }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? libraries : [...libraries].reverse()
    for (const library of order) measured[library].push(await roundOf(ops[library], roundMs))
  }
  const ours = measured.Authchart
  const theirs = measured['@auth/core']
  const row = {
    name,
    ours: median(ours.map((r) => r.rate)),
    theirs: median(theirs.map((r) => r.rate)),
    ratio: median(ours.map((r, i) => r.rate / theirs[i].rate)),
    cpu: [median(ours.map((r) => r.cpu)), median(theirs.map((r) => r.cpu))],
    load: `${startLoad} → ${loadText()}`,
  }
  results.push(row)
  console.log(
    `${name}: Authchart ${Math.round(row.ours)}/s, @auth/core ${Math.round(row.theirs)}/s, ratio ${row.ratio.toFixed(1)}x ` +
      `(CPU µs/op ${row.cpu[0].toFixed(1)} / ${row.cpu[1].toFixed(1)}); load ${row.load}`,
  )
}

// ---- the in-process cases -------------------------------------------------------------------------------------

/** The operation every session case times: the request built, `Auth()` called, the whole body read. */
const check = (library, cookie) => async () => (await handlers[library](get('/session', cookie))).text()

async function sessionTokens(library, count) {
  const tokens = []
  for (let i = 0; i < count; i++) {
    const token = { name: `User ${i}`, email: `user${i}@example.com`, picture: null, sub: randomUUID() }
    tokens.push(`${cookieName}=${await encoders[library]({ token, secret, salt: cookieName })}`)
  }
  return tokens
}

const cases = {
  async jar() {
    const ops = {}
    for (const library of libraries) {
      const header = cookieHeader(await signIn(handlers[library]))
      ops[library] = check(library, header)
      if (!(await ops[library]()).includes(user.email)) throw new Error(`jar: ${library} found no session`)
    }
    await inProcess('session check, one jar repeated', ops)
  },
  async users() {
    const ops = {}
    for (const library of libraries) {
      const cookies = await sessionTokens(library, users)
      let next = 0
      ops[library] = () => check(library, cookies[next++ % cookies.length])()
      if (!(await check(library, cookies[0])()).includes('user0@example.com'))
        throw new Error(`users: ${library} found no session`)
    }
    await inProcess(`session check, ${users.toLocaleString('en')} distinct users in turn`, ops)
  },
  async chain() {
    const ops = {}
    for (const library of libraries) {
      const jar = await signIn(handlers[library])
      ops[library] = async () => {
        const response = await handlers[library](get('/session', cookieHeader(jar)))
        takeCookies(jar, response)
        return response.text()
      }
      if (!(await ops[library]()).includes(user.email)) throw new Error(`chain: ${library} found no session`)
    }
    await inProcess('session check, each request sends the cookie the previous one set', ops)
  },
  async 'no-cookie'() {
    await inProcess('session check, no cookie', { Authchart: check('Authchart'), '@auth/core': check('@auth/core') })
  },
  async csrf() {
    const op = (library) => async () => (await handlers[library](get('/csrf'))).text()
    await inProcess('GET /csrf', { Authchart: op('Authchart'), '@auth/core': op('@auth/core') })
  },
  async providers() {
    const op = (library) => async () => (await handlers[library](get('/providers'))).text()
    await inProcess('GET /providers', { Authchart: op('Authchart'), '@auth/core': op('@auth/core') })
  },
  async 'sign-in'() {
    const op = (library) => async () => {
      const jar = await signIn(handlers[library])
      return jar.size
    }
    await inProcess('credentials sign-in (GET /csrf + POST /callback/credentials)', {
      Authchart: op('Authchart'),
      '@auth/core': op('@auth/core'),
    })
  },
  'http-jar': () => overHttp('one jar', async (library, port) => [cookieHeader(await signInOverHttp(port))]),
  'http-users': () =>
    overHttp(`${users.toLocaleString('en')} distinct users`, (library) => sessionTokens(library, users)),
}

// ---- over HTTP: node:http servers in child processes, this process the client --------------------------------

/** node:http → web `Request` → `Auth()` → web `Response` → node:http: the glue any app writes for @auth/core. */
function webGlue(handler) {
  return async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    const response = await handler(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }),
    )
    const answer = Buffer.from(await response.arrayBuffer())
    const out = ['content-length', String(answer.length)]
    response.headers.forEach((value, name) => name !== 'set-cookie' && out.push(name, value))
    for (const line of response.headers.getSetCookie()) out.push('set-cookie', line)
    res.writeHead(response.status, out)
    res.end(answer)
  }
}

/** The server side, when this script runs as a child: Authchart's own Node binding, or the glue for @auth/core. */
function serve(library) {
  const listener =
    library === 'Authchart' ? toNodeHandler(configs.Authchart) : webGlue((request) => AuthJs(request, configs[library]))
  const server = createServer((req, res) => void listener(req, res))
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
  process.on('disconnect', () => process.exit(0))
}

function startServer(library) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', library, '--lib', lib], {
    env: { ...process.env, NODE_ENV: 'production' },
  })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: message.port }))
    child.once('exit', (code) => reject(new Error(`outside harness: the ${library} server exited (${code})`)))
  })
}

function send(agent, port, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

function takeNodeCookies(jar, headers) {
  for (const line of headers['set-cookie'] ?? []) {
    const pair = line.split(';', 1)[0]
    const eq = pair.indexOf('=')
    if (/;\s*max-age=0/i.test(line)) jar.delete(pair.slice(0, eq))
    else jar.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
}

async function signInOverHttp(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const jar = new Map()
  const csrf = await send(agent, port, 'GET', '/auth/csrf', { host: 'localhost:3000' })
  takeNodeCookies(jar, csrf.headers)
  const { csrfToken } = JSON.parse(csrf.body.toString())
  const body = new URLSearchParams({ csrfToken, username: 'harness', password: 'pw', callbackUrl: origin }).toString()
  const answer = await send(
    agent,
    port,
    'POST',
    '/auth/callback/credentials',
    { host: 'localhost:3000', cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded' },
    body,
  )
  takeNodeCookies(jar, answer.headers)
  agent.destroy()
  if (!jar.has(cookieName))
    throw new Error(`outside harness: the HTTP sign-in set no session cookie (${answer.status})`)
  return jar
}

/**
 * One keep-alive connection on a bare socket, sending one request at a time: lighter than node:http's client, so the
 * client (this process) takes less of the machine from the servers. Answers must carry `Content-Length` (both
 * servers' answers do).
 */
function connection(port) {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true })
  let pending
  let buffered = Buffer.alloc(0)
  socket.on('data', (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk
    const headEnd = buffered.indexOf('\r\n\r\n')
    if (headEnd === -1 || !pending) return
    const head = buffered.subarray(0, headEnd).toString('latin1')
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)
    if (!length) return pending.reject(new Error('outside harness: an answer without Content-Length'))
    const end = headEnd + 4 + Number(length[1])
    if (buffered.length < end) return
    const answered = pending
    pending = undefined
    const status = Number(head.slice(9, 12))
    const bodyLength = end - headEnd - 4
    buffered = buffered.subarray(end)
    answered.resolve(status === 200 && bodyLength > 20)
  })
  socket.on('error', (err) => pending?.reject(err))
  return {
    ready: new Promise((resolve) => socket.once('connect', resolve)),
    send: (text) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject }
        socket.write(text)
      }),
    close: () => socket.destroy(),
  }
}

/** `connections` keep-alive connections sending GET /session for `millis`; requests/s and the p99 latency. */
async function loadFor(port, cookies, millis) {
  const open = Array.from({ length: connections }, () => connection(port))
  await Promise.all(open.map((c) => c.ready))
  const requests = cookies.map(
    (cookie) => `GET /auth/session HTTP/1.1\r\nhost: localhost:3000\r\ncookie: ${cookie}\r\n\r\n`,
  )
  const latencies = []
  let next = 0
  let failed = 0
  const end = Date.now() + millis
  const start = process.hrtime.bigint()
  const worker = async (c) => {
    while (Date.now() < end) {
      const sent = process.hrtime.bigint()
      const ok = await c.send(requests[next++ % requests.length])
      latencies.push(Number(process.hrtime.bigint() - sent) / 1e6)
      if (!ok) failed++
    }
  }
  await Promise.all(open.map(worker))
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  for (const c of open) c.close()
  latencies.sort((a, b) => a - b)
  return { rate: latencies.length / seconds, p99: latencies[Math.floor(latencies.length * 0.99)], failed }
}

async function overHttp(label, cookiesOf) {
  const servers = {}
  for (const library of libraries) servers[library] = await startServer(library)
  try {
    const cookies = {}
    for (const library of libraries) cookies[library] = await cookiesOf(library, servers[library].port)
    for (const library of libraries) await loadFor(servers[library].port, cookies[library], httpRoundMs / 2)
    const startLoad = loadText()
    const measured = { Authchart: [], '@auth/core': [] }
    for (let round = 0; round < httpRounds; round++) {
      const order = round % 2 === 0 ? libraries : [...libraries].reverse()
      for (const library of order)
        measured[library].push(await loadFor(servers[library].port, cookies[library], httpRoundMs))
    }
    const row = {
      name: `GET /session over node:http, ${connections} connections, ${label}`,
      ours: median(measured.Authchart.map((r) => r.rate)),
      theirs: median(measured['@auth/core'].map((r) => r.rate)),
      ratio: median(measured.Authchart.map((r, i) => r.rate / measured['@auth/core'][i].rate)),
      p99: [median(measured.Authchart.map((r) => r.p99)), median(measured['@auth/core'].map((r) => r.p99))],
      failed: [...measured.Authchart, ...measured['@auth/core']].reduce((sum, r) => sum + r.failed, 0),
      load: `${startLoad} → ${loadText()}`,
    }
    results.push(row)
    console.log(
      `${row.name}: Authchart ${Math.round(row.ours)} req/s (p99 ${row.p99[0].toFixed(1)} ms), @auth/core ` +
        `${Math.round(row.theirs)} req/s (p99 ${row.p99[1].toFixed(1)} ms), ratio ${row.ratio.toFixed(1)}x` +
        `${row.failed ? `, ${row.failed} failed answers` : ''}; load ${row.load}`,
    )
  } finally {
    for (const { child } of Object.values(servers)) child.kill()
  }
}

// ---- main -----------------------------------------------------------------------------------------------------

if (args.includes('--serve')) {
  serve(option('--serve'))
} else {
  if (process.env.NODE_ENV !== 'production') console.warn('outside harness: NODE_ENV is not "production"')
  const only = option('--only')?.split(',')
  const chosen = only ?? Object.keys(cases)
  for (const name of chosen)
    if (!cases[name]) throw new Error(`unknown case "${name}"; one of: ${Object.keys(cases).join(', ')}`)
  console.log(
    `outside harness: node ${process.version}, ${lib}/, ${rounds} round pairs of ${roundMs} ms after ${warmupMs} ms of ` +
      `warm-up (HTTP: ${httpRounds} of ${httpRoundMs} ms), load ${loadText()}\n`,
  )
  for (const name of chosen) await cases[name]()
  console.log('\n| case | Authchart | @auth/core | ratio (median of rounds) | load |')
  console.log('|---|---:|---:|---:|---|')
  for (const row of results) {
    const unit = row.p99 ? ' req/s' : '/s'
    const extra = (i) => (row.p99 ? `, p99 ${row.p99[i].toFixed(1)} ms` : `, ${row.cpu[i].toFixed(1)} CPU µs`)
    console.log(
      `| ${row.name} | ${Math.round(row.ours).toLocaleString('en')}${unit}${extra(0)} | ` +
        `${Math.round(row.theirs).toLocaleString('en')}${unit}${extra(1)} | **${row.ratio.toFixed(1)}×** | ${row.load} |`,
    )
  }
}
