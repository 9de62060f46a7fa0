/**
 * The core actions, Authchart against @auth/core in one process, each library with a config object of the same
 * shape built once (as an app builds it), no debug logging. One operation builds the web `Request`, calls `Auth()`
 * and reads the whole `Response` body, for both. Session checks send every cookie the browser holds after signing in
 * (session, CSRF and callback-URL cookies), as a browser would.
 */
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { Auth } from '../src/index.js'
import Credentials from '../src/providers/credentials.js'
import { encode } from '../src/jwt.js'
import { sealCompactJwe } from '../src/session/jwe.js'
import { compare, Jar, printTable, runOptions, type CaseResult, type Side } from './measure.js'
import { metrics, trace } from '@opentelemetry/api'
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  InMemoryMetricExporter,
  AggregationTemporality,
} from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'

export const origin = 'http://localhost:3000'
export const secret = 'bench-secret-bench-secret-bench-secret-42'
const user = { id: 'u-1', name: 'Bench User', email: 'bench@example.com' }
const authorize = async (c: Partial<Record<string, unknown>>) =>
  c.username === 'bench' && c.password === 'pw' ? user : null
const credentialFields = { username: {}, password: {} }

export type Handler = (request: Request) => Promise<Response>

/** The two configs of one case: the same options; only the provider factory is each library's own. */
function configs(session?: { updateAge: number }, secrets: string | string[] = secret) {
  const shape = { secret: secrets, trustHost: true, basePath: '/auth', ...(session ? { session } : {}) }
  return {
    ours: { ...shape, providers: [Credentials({ credentials: credentialFields, authorize })] },
    theirs: { ...shape, providers: [AuthJsCredentials({ credentials: credentialFields, authorize })] },
  }
}

/** GET /csrf then POST /callback/credentials, the way a sign-in form does it; returns the browser's jar. */
async function signIn(handler: Handler, jar = new Jar()): Promise<Jar> {
  const csrf = await handler(new Request(`${origin}/auth/csrf`, { headers: { cookie: jar.header() } }))
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await handler(
    new Request(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'bench', password: 'pw', csrfToken }).toString(),
    }),
  )
  await response.text()
  if (response.status !== 302 || !response.headers.getSetCookie().some((c) => c.includes('session-token')))
    throw new Error(`credentials sign-in did not complete (${response.status} ${response.headers.get('location')})`)
  return jar.take(response)
}

/**
 * The same request with its `Request` built untimed (`prepare`): only the handler and the body read are timed. For
 * the refused / valid rows, whose cookies differ in size: on Node 20 the runtime's `new Request` checks a header value
 * character by character, and an 8 KB cookie costs it about 20 µs more than a session cookie, before any library runs.
 */
function handled(handler: Handler, path: string, cookie: string): Side<Request> {
  return {
    prepare: async () => new Request(`${origin}${path}`, { headers: { cookie } }),
    run: async (request) => (await handler(request)).text(),
  }
}

function get(handler: Handler, path: string, cookie?: string): Side {
  return {
    run: async () => {
      const response = await handler(new Request(`${origin}${path}`, cookie ? { headers: { cookie } } : undefined))
      return response.text()
    },
  }
}

/** A session check must answer with the session, or the figure measures something else. */
async function expectSession(handler: Handler, cookie: string, label: string): Promise<void> {
  const response = await handler(new Request(`${origin}/auth/session`, { headers: { cookie } }))
  const body = (await response.json()) as { user?: { email?: string } } | null
  if (body?.user?.email !== user.email) throw new Error(`${label}: the session check did not find the session`)
}

/** Runs the core cases; returns the ratios (Authchart / @auth/core) by case. */
export async function runCoreBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  const results: CaseResult[] = []
  const refusedRows: CaseResult[] = []

  const sessionCase = async (label: string, session?: { updateAge: number }) => {
    const { ours, theirs } = configs(session)
    const oursHandler: Handler = (r) => Auth(r, ours)
    const theirsHandler: Handler = (r) => AuthJs(r, theirs)
    const oursCookie = (await signIn(oursHandler)).header()
    const theirsCookie = (await signIn(theirsHandler)).header()
    await expectSession(oursHandler, oursCookie, 'Authchart')
    await expectSession(theirsHandler, theirsCookie, '@auth/core')
    results.push(
      await compare(
        label,
        get(oursHandler, '/auth/session', oursCookie),
        get(theirsHandler, '/auth/session', theirsCookie),
        run,
      ),
    )
  }
  // Both libraries re-issue a JWT session's cookie on every check by default; Authchart re-issues it at most once per
  // `updateAge` when the app sets one (Auth.js ignores the option for JWTs).
  await sessionCase('GET /session, valid JWT, cookie re-issued on every check (the default)')
  await sessionCase('GET /session, valid JWT, `updateAge: 86400` set (Authchart: no re-issue)', { updateAge: 86400 })
  {
    // A browser keeps the cookie each answer set: every check presents the token the check before it sealed.
    const { ours, theirs } = configs()
    const oursHandler: Handler = (r) => Auth(r, ours)
    const theirsHandler: Handler = (r) => AuthJs(r, theirs)
    const following = async (handler: Handler, label: string): Promise<Side> => {
      const jar = await signIn(handler)
      await expectSession(handler, jar.header(), label)
      return {
        run: async () => {
          const response = await handler(new Request(`${origin}/auth/session`, { headers: { cookie: jar.header() } }))
          jar.take(response)
          return response.text()
        },
      }
    }
    results.push(
      await compare(
        'GET /session, valid JWT, re-issued on every check, each check sends the cookie the one before it set',
        await following(oursHandler, 'Authchart'),
        await following(theirsHandler, '@auth/core'),
        run,
      ),
    )
  }

  const { ours, theirs } = configs()
  const oursHandler: Handler = (r) => Auth(r, ours)
  const theirsHandler: Handler = (r) => AuthJs(r, theirs)
  results.push(
    await compare(
      'GET /session, no cookie',
      get(oursHandler, '/auth/session'),
      get(theirsHandler, '/auth/session'),
      run,
    ),
  )
  results.push(
    await compare(
      'credentials sign-in (`GET /csrf` + `POST /callback/credentials`)',
      { run: () => signIn(oursHandler) },
      { run: () => signIn(theirsHandler) },
      run,
    ),
  )
  results.push(await compare('GET /csrf', get(oursHandler, '/auth/csrf'), get(theirsHandler, '/auth/csrf'), run))
  results.push(
    await compare('GET /providers', get(oursHandler, '/auth/providers'), get(theirsHandler, '/auth/providers'), run),
  )
  // A refused cookie must cost no more than a valid one (#37): an 8 KB session cookie that is no token of this site
  // (sealed with another key), on a site keeping four secrets for rotation. Named by a `kid` of its own, and
  // naming none (then both libraries try the newest secret only).
  {
    const rotated = [secret, `${secret}-2`, `${secret}-3`, `${secret}-4`]
    const { ours, theirs } = configs(undefined, rotated)
    const oursHandler: Handler = (r) => Auth(r, ours)
    const theirsHandler: Handler = (r) => AuthJs(r, theirs)
    const foreignKey = new Uint8Array(64).fill(7)
    // The same site's valid session cookie (sealed with the newest secret, a credentials sign-in's claims), the
    // other side of the refused / valid rows: the goal is a refused cookie costing no more than this, in one process.
    const valid = `authjs.session-token=${await encode({
      token: { name: user.name, email: user.email, sub: user.id },
      secret: rotated[0],
      salt: 'authjs.session-token',
    })}`
    await expectSession(oursHandler, valid, 'Authchart, four secrets')
    for (const [label, header] of [
      ['a foreign `kid`', { kid: 'c2l0ZS1vZi1zb21lb25lLWVsc2U' }],
      ['no `kid`', {}],
    ] as const) {
      const foreign = sealCompactJwe(JSON.stringify({ filler: 'x'.repeat(6000) }), foreignKey, 'A256CBC-HS512', header)
      const cookie = `authjs.session-token=${foreign}`
      results.push(
        await compare(
          `GET /session, refused: an 8 KB JWE of another key, ${label}, four secrets`,
          get(oursHandler, '/auth/session', cookie),
          get(theirsHandler, '/auth/session', cookie),
          run,
        ),
      )
      refusedRows.push(
        await compare(
          `refused (an 8 KB JWE of another key, ${label}) / a valid JWT, Authchart both, four secrets`,
          get(oursHandler, '/auth/session', cookie),
          get(oursHandler, '/auth/session', valid),
          run,
        ),
        await compare(
          `the same (${label}), each \`Request\` built untimed (Authchart's part alone)`,
          handled(oursHandler, '/auth/session', cookie),
          handled(oursHandler, '/auth/session', valid),
          run,
        ),
      )
    }
  }
  // Many sessions visited in turn (the count that showed, when Authchart kept a 2,048-entry memo of opened tokens, a
  // check the memo could not answer; neither library remembers tokens now). It runs last: the thousands of sessions
  // it signs in would otherwise stay in the heap while the other cases are measured.
  {
    const { ours, theirs } = configs()
    const oursHandler: Handler = (r) => Auth(r, ours)
    const theirsHandler: Handler = (r) => AuthJs(r, theirs)
    const sessions = 3048
    const oursCookies: string[] = []
    const theirsCookies: string[] = []
    for (let i = 0; i < sessions; i++) {
      oursCookies.push((await signIn(oursHandler)).header())
      theirsCookies.push((await signIn(theirsHandler)).header())
    }
    await expectSession(oursHandler, oursCookies[0], 'Authchart')
    await expectSession(theirsHandler, theirsCookies[0], '@auth/core')
    const rotating = (handler: Handler, cookies: string[]): Side => {
      let next = 0
      return {
        run: async () => {
          const cookie = cookies[next++ % cookies.length]
          const response = await handler(new Request(`${origin}/auth/session`, { headers: { cookie } }))
          return response.text()
        },
      }
    }
    results.push(
      await compare(
        `GET /session, valid JWT, re-issued on every check, ${sessions.toLocaleString('en')} sessions in turn`,
        rotating(oursHandler, oursCookies),
        rotating(theirsHandler, theirsCookies),
        run,
      ),
    )
  }

  return {
    ...printTable('Core actions (in-process, one request at a time)', results, run),
    // A ratio above 1 is a refused cookie answered faster than a valid one is.
    ...printTable('A refused session cookie against a valid one (Authchart both)', refusedRows, run, [
      'refused',
      'valid',
    ]),
  }
}

/** `npm run bench -- --only tracing`: the tracing overhead case alone (below). */
export function runTracingBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  return runTracingCase(runOptions(options.quick))
}

/**
 * The session check with an OpenTelemetry SDK registered (a tracer provider exporting in batches to an exporter that
 * drops the spans, and a meter provider), against the same check with none: the overhead an app pays for traces and
 * metrics (docs/observability.md). The global providers are switched in the untimed `prepare` step, once per round:
 * each side runs its whole round in its own state. With no SDK the check takes the path every app without one takes.
 */
export async function runTracingCase(run: ReturnType<typeof runOptions>): Promise<Record<string, number>> {
  const { ours } = configs()
  const handler: Handler = (r) => Auth(r, ours)
  const cookie = (await signIn(handler)).header()
  await expectSession(handler, cookie, 'Authchart')
  const dropping: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} }
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] })
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
        exportIntervalMillis: 60_000,
      }),
    ],
  })
  let sdkOn = false
  const sdk = (on: boolean) => async () => {
    if (sdkOn === on) return
    sdkOn = on
    if (on) {
      trace.setGlobalTracerProvider(tracerProvider)
      metrics.setGlobalMeterProvider(meterProvider)
    } else {
      trace.disable()
      metrics.disable()
    }
  }
  const check = get(handler, '/auth/session', cookie)
  const result = await compare(
    'GET /session, valid JWT: OpenTelemetry SDK registered (traces and metrics) / none',
    { prepare: sdk(true), run: () => check.run(undefined, async (work) => work()) },
    { prepare: sdk(false), run: () => check.run(undefined, async (work) => work()) },
    run,
  )
  await sdk(false)()
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
  return printTable('Tracing overhead (in-process session check)', [result], run, ['SDK on', 'no SDK'])
}
