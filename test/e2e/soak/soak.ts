/**
 * The soak of issue #38: two site processes (soak-site.ts) on one private Redis and one PostgreSQL schema, a real
 * OpenID Provider and a real SMTP server, driven by virtual users who sign in by every server-side method, check
 * their sessions from many distinct cookies and sign out, while two faults hit in the middle: Redis killed (and
 * restarted empty, like a crashed cache) and PostgreSQL stalled behind a proxy. The short run is a CI test
 * (test/e2e/soak.test.ts); the ten-minute run is `npm run soak` and its figures are in docs/operations.md.
 *
 * A virtual user behaves as a person would: when an answer says the site is down (503), they wait a moment and
 * repeat the step; when a flow cannot go on (the error page), they start the sign-in again. A sign-in that has not
 * succeeded by `lostAfterMs` past the last fault is counted lost: the soak's claim is that there are none.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { fileURLToPath } from 'node:url'
import { migrate } from '../../../adapters/sql/index.js'
import type { HttpResult } from '../../frameworks/express-http.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { startRedisServer, type PrivateRedis } from '../../support/redis-server.js'
import {
  createScratchPostgresSchema,
  postgresUrl,
  scratchName,
  type ScratchPostgresSchema,
} from '../../support/services.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../../support/smtp-sink.js'
import { confirmationFields } from '../../support/http-site.js'
import { startStallProxy, type StallProxy } from '../../support/stall-proxy.js'
import {
  callbackUrl,
  clientId,
  clientSecret,
  CookieJar,
  csrfTokenFrom,
  postSignIn,
  siteOrigin,
  startInstance,
  stopAll,
  type RunningInstance,
} from '../multi-instance/instances.js'
import { soakPassword } from './soak-users.js'

export interface SoakOptions {
  durationMs: number
  /** Virtual users signing in, checking and signing out, each in a loop. */
  signInUsers: number
  /** Workers checking sessions of the users signed in so far, one random cookie at a time. */
  checkers: number
  /** Pause between a checker's requests (ms): what keeps the check rate a real site's rather than the CPU's limit. */
  checkPauseMs: number
  /** A request not answered within this time counts as a hang. */
  hangMs: number
  /** Accounts at the OpenID Provider (each OIDC sign-in picks one). */
  opAccounts: number
  /** Prints progress lines (the long run); the CI test keeps quiet. */
  progress?: (line: string) => void
}

/** What one answer was, as the soak files it. */
export type Outcome =
  | 'ok'
  /** The documented outage answer: 503, a page or JSON, no stack. */
  | 'outage-503'
  /** The error page of a flow that cannot go on (its `error` code is kept apart in `errorCodes`). */
  | 'error-page'
  | 'hang'
  | 'stack'
  | 'server-error'
  | 'unexpected'

export interface PhaseFigures {
  requests: number
  outcomes: Partial<Record<Outcome, number>>
  /** Error codes of the error-page answers (`?error=...`). */
  errorCodes: Record<string, number>
  /** The outcomes again, per kind of request (`session check`, `oidc callback`, `sign-out`, ...). */
  bySteps: Record<string, Partial<Record<Outcome, number>>>
  p50Ms: number
  p99Ms: number
  maxMs: number
}

export interface SoakReport {
  durationMs: number
  phases: Record<Phase, PhaseFigures>
  signIns: {
    byMethod: Record<Method, number>
    firstTry: number
    afterRepeatingAStep: number
    afterStartingAgain: number
    lost: number
  }
  sessionChecks: number
  distinctSessions: number
  signOuts: number
  /** Interactions the test OpenID Provider itself failed (its answer, not the site's). */
  providerFailures: number
  /** Heap after a full collection, per instance: first sample after warm-up and last, in MB. */
  memory: Record<string, { warmMb: number; lastMb: number; maxMb: number; rssLastMb: number }>
  /** What each instance logged: error names and `warn:<code>` counts. */
  logged: Record<string, Record<string, number>>
  /** The last of each instance's error lines (name, message and cause), for failure messages. */
  errorLines: Record<string, string>
  /** Examples of answers outside the documented ones (empty when the soak holds). */
  surprises: string[]
}

export type Phase = 'before' | 'redis-down' | 'between' | 'database-stalled' | 'after'
type Method = 'credentials' | 'email' | 'oidc'
const methods: Method[] = ['credentials', 'email', 'oidc']

const secret = 'soak-secret-with-at-least-32-characters-long'
const siteScript = fileURLToPath(new URL('./soak-site.ts', import.meta.url))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Error codes a flow's error page may carry during a fault, each documented in docs/errors (Auth.js's names). */
const documentedErrorCodes: Record<string, string[]> = {
  // A link whose token was spent by a confirmation that timed out (the call could not be cancelled and finished later).
  'email confirm': ['Verification'],
  // A callback whose flow died with Redis (no persistence): the user starts again.
  'oidc callback': ['OAuthCallbackError'],
  // A sign-out whose revocation the session store could not record: this browser is signed out (the cookie is
  // cleared) and sent to the error page (docs/sessions.md, docs/adapters.md).
  'sign-out': ['Configuration'],
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]
}

/** The soak's timeline: when each fault starts and ends, as fractions of the run. */
function timeline(durationMs: number) {
  const redisDown = { from: durationMs * 0.3, to: durationMs * 0.3 + Math.min(15_000, durationMs * 0.1) }
  const stalled = { from: durationMs * 0.6, to: durationMs * 0.6 + Math.min(10_000, durationMs * 0.08) }
  return {
    redisDown,
    stalled,
    phaseAt(elapsed: number): Phase {
      if (elapsed < redisDown.from) return 'before'
      if (elapsed < redisDown.to) return 'redis-down'
      if (elapsed < stalled.from) return 'between'
      if (elapsed < stalled.to) return 'database-stalled'
      return 'after'
    },
  }
}

/** Everything the soak starts; `stop` ends it all, whatever started. */
interface Rig {
  op: RunningOidcProvider
  smtp: SmtpSink
  redis: PrivateRedis
  scratch: ScratchPostgresSchema
  proxy: StallProxy
  sites: RunningInstance[]
  stop(): Promise<void>
}

async function startRig(opAccounts: number): Promise<Rig> {
  // Undone in reverse order of starting: the sites go first (they hold the connections), the schema last.
  const cleanup: Array<() => unknown> = []
  const stop = async () => {
    for (const undo of cleanup.reverse()) await Promise.resolve(undo()).catch(() => {})
  }
  try {
    const accounts: Record<string, Record<string, unknown>> = {}
    for (let i = 0; i < opAccounts; i++) accounts[`op-${i}`] = { name: `OP user ${i}`, email: `op-${i}@soak.test` }
    const op = await startOidcProvider({
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [callbackUrl],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      accounts,
    })
    cleanup.push(() => op.close())
    const smtp = await startSmtpSink()
    cleanup.push(() => smtp.close())
    const redis = await startRedisServer()
    cleanup.push(() => redis.stop())
    const scratch = await createScratchPostgresSchema(postgresUrl())
    cleanup.push(() => scratch.drop())
    const migrator = new pg.Pool({ connectionString: scratch.url, max: 1 })
    await migrate(new Kysely<unknown>({ dialect: new PostgresDialect({ pool: migrator }) }))
    await migrator.end()
    const target = new URL(postgresUrl())
    const proxy = await startStallProxy({ host: target.hostname, port: Number(target.port || 5432) })
    cleanup.push(() => {
      proxy.resume()
      return proxy.close()
    })
    const throughProxy = new URL(scratch.url)
    throughProxy.hostname = '127.0.0.1'
    throughProxy.port = String(proxy.port)
    const common = {
      opIssuer: op.issuer,
      secret,
      store: 'redis' as const,
      redisUrl: redis.url,
      redisPrefix: `${scratchName('authchart_soak')}:`,
      script: {
        path: siteScript,
        nodeArgs: ['--expose-gc'],
        env: { AUTH_URL: `${siteOrigin}/auth`, DATABASE_URL: throughProxy.toString(), SMTP_URL: smtp.url },
      },
    }
    const sites: RunningInstance[] = []
    cleanup.push(() => stopAll(sites))
    const started = await Promise.allSettled(
      ['a', 'b'].map((name) => startInstance({ ...common, name }).then((site) => sites.push(site))),
    )
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
    return { op, smtp, redis, scratch, proxy, sites, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Runs the soak and returns its figures. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const rig = await startRig(options.opAccounts)
  try {
    return await drive(rig, options)
  } finally {
    await rig.stop()
  }
}

async function drive(rig: Rig, options: SoakOptions): Promise<SoakReport> {
  const { durationMs } = options
  const plan = timeline(durationMs)
  const started = performance.now()
  const elapsed = () => performance.now() - started
  const running = () => elapsed() < durationMs
  const latencies = new Map<string, number[]>()
  const empty = (): PhaseFigures => ({
    requests: 0,
    outcomes: {},
    errorCodes: {},
    bySteps: {},
    p50Ms: 0,
    p99Ms: 0,
    maxMs: 0,
  })
  const phases: Record<Phase, PhaseFigures> = {
    before: empty(),
    'redis-down': empty(),
    between: empty(),
    'database-stalled': empty(),
    after: empty(),
  }
  for (const phase of Object.keys(phases)) latencies.set(phase, [])
  const surprises: string[] = []
  const site = () => rig.sites[Math.floor(Math.random() * rig.sites.length)]

  /**
   * One request, timed and filed under the phase it began in. `expected` says what success looks like for this
   * step; anything else is filed by what it was. Resolves with the answer (or null for a hang).
   */
  const call = async (
    label: string,
    send: () => Promise<HttpResult>,
    expected: (result: HttpResult) => boolean,
  ): Promise<{ outcome: Outcome; result: HttpResult | null }> => {
    const phase = plan.phaseAt(elapsed())
    const figures = phases[phase]
    const begun = performance.now()
    let timer: NodeJS.Timeout | undefined
    const result = await Promise.race([
      send(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.hangMs))),
    ]).finally(() => clearTimeout(timer))
    latencies.get(phase)?.push(performance.now() - begun)
    // Filed under the phase it began in; a surprise names the phase it ended in too (one begun just before a fault).
    const endedIn = plan.phaseAt(elapsed())
    let outcome: Outcome
    if (result === null) outcome = 'hang'
    else if (/\n\s+at /.test(result.body)) outcome = 'stack'
    else if (result.status === 503) outcome = 'outage-503'
    else if (result.status >= 500) outcome = 'server-error'
    else if (expected(result)) outcome = 'ok'
    else {
      const location =
        result.status === 302 && result.headers.location ? new URL(result.headers.location, siteOrigin) : null
      const code = location?.searchParams.get('error')
      // Auth.js's two error pages: /auth/error for errors of the site, the sign-in page for a sign-in that failed.
      if (location && code && ['/auth/error', '/auth/signin'].includes(location.pathname)) {
        outcome = 'error-page'
        figures.errorCodes[code] = (figures.errorCodes[code] ?? 0) + 1
        if (!documentedErrorCodes[label]?.includes(code) && surprises.length < 20)
          surprises.push(`${phase}→${endedIn} ${label}: error=${code}`)
      } else {
        outcome = 'unexpected'
      }
    }
    if (outcome === 'hang' || outcome === 'stack' || outcome === 'server-error' || outcome === 'unexpected')
      if (surprises.length < 20)
        surprises.push(
          `${phase}→${endedIn} ${label}: ${outcome} ${result?.status ?? ''} ${result?.headers.location ?? ''} ${result?.body.slice(0, 160) ?? ''}`,
        )
    figures.requests++
    figures.outcomes[outcome] = (figures.outcomes[outcome] ?? 0) + 1
    const byStep = (figures.bySteps[label] ??= {})
    byStep[outcome] = (byStep[outcome] ?? 0) + 1
    return { outcome, result }
  }

  const isRedirectWithSession = (result: HttpResult) =>
    result.status === 302 &&
    result.cookies.some((line) => /^__Secure-authjs\.session-token|^authjs\.session-token(?:\.\d+)?=[^;]/.test(line))

  /** Signed-in cookies so far; the checkers pick from them at random, so a cookie is seen a few times, not thousands. */
  const signedIn: CookieJar[] = []
  /** Jars on their way out (signing out): a check that raced the sign-out rightly finds no session. */
  const leaving = new Set<CookieJar>()
  const signIns: SoakReport['signIns'] = {
    byMethod: { credentials: 0, email: 0, oidc: 0 },
    firstTry: 0,
    afterRepeatingAStep: 0,
    afterStartingAgain: 0,
    lost: 0,
  }
  let sessionChecks = 0
  let signOuts = 0
  let providerFailures = 0
  const lastFaultEnd = plan.stalled.to
  const lostAfterMs = 15_000

  /**
   * One step of a sign-in, repeated while the site answers 503 (as a person reloads a page that says "try again");
   * 'again' when the flow cannot go on and the person must start over.
   */
  const step = async (
    label: string,
    send: () => Promise<HttpResult>,
    expected: (r: HttpResult) => boolean,
    onOutage: 'repeat' | 'start-again' = 'repeat',
  ) => {
    let repeated = false
    for (;;) {
      const { outcome, result } = await call(label, send, expected)
      if (outcome === 'ok' && result) return { result, repeated }
      if ((outcome !== 'outage-503' && outcome !== 'hang') || onOutage === 'start-again') return 'again' as const
      repeated = true
      await sleep(500)
    }
  }

  /** One sign-in by `method` as user `n` of worker `w`; resolves with the jar once signed in, or null when lost. */
  const signIn = async (method: Method, w: number, n: number): Promise<CookieJar | null> => {
    const began = elapsed()
    let restarted = false
    let repeated = false
    for (;;) {
      if (elapsed() > Math.max(began, lastFaultEnd) + lostAfterMs) {
        signIns.lost++
        if (surprises.length < 20)
          surprises.push(`lost ${method} sign-in of ${w}/${n}, begun at ${Math.round(began)} ms`)
        return null
      }
      const jar = new CookieJar()
      const done = await attempt(method, jar, w, n)
      if (done === 'ok' || done === 'ok-repeated') {
        repeated ||= done === 'ok-repeated'
        signIns.byMethod[method]++
        if (restarted) signIns.afterStartingAgain++
        else if (repeated) signIns.afterRepeatingAStep++
        else signIns.firstTry++
        return jar
      }
      restarted = true
      await sleep(500)
    }
  }

  const attempt = async (method: Method, jar: CookieJar, w: number, n: number) => {
    let repeated = false
    const track = <T extends { repeated: boolean } | 'again'>(outcome: T) => {
      if (outcome !== 'again') repeated ||= outcome.repeated
      return outcome
    }
    const instance = site()
    const csrf = track(
      await step(
        'csrf',
        () => instance.request('/auth/csrf', { jar }),
        (r) => r.status === 200,
      ),
    )
    if (csrf === 'again') return 'again'
    const csrfToken = (JSON.parse(csrf.result.body) as { csrfToken: string }).csrfToken
    if (method === 'credentials') {
      const answer = track(
        await step(
          'credentials callback',
          () =>
            site().request('/auth/callback/credentials', {
              jar,
              form: { csrfToken, username: `cred-${w}-${n}`, password: soakPassword, callbackUrl: '/after' },
            }),
          isRedirectWithSession,
        ),
      )
      if (answer === 'again') return 'again'
    } else if (method === 'email') {
      const address = `mail-${w}-${n}-${Math.random().toString(36).slice(2, 8)}@soak.test`
      const seen = rig.smtp.messages.length
      const requested = track(
        await step(
          'email sign-in',
          () =>
            site().request('/auth/signin/nodemailer', {
              jar,
              form: { csrfToken, email: address, callbackUrl: '/after' },
            }),
          (r) => r.status === 302 && (r.headers.location ?? '').includes('/auth/verify-request'),
        ),
      )
      if (requested === 'again') return 'again'
      const mail = await mailTo(rig.smtp, address, seen)
      if (!mail) return 'again'
      const link = signInLinkOf(mail)
      const page = track(
        await step(
          'email link',
          () => site().request(`${link.pathname}${link.search}`, { jar }),
          (r) => r.status === 200,
        ),
      )
      if (page === 'again') return 'again'
      const action = (/<form action="([^"]+)"/.exec(page.result.body)?.[1] ?? '').replace(/&amp;/g, '&')
      const fields = confirmationFields(page.result.body)
      const confirmed = track(
        await step(
          'email confirm',
          () =>
            site().request(new URL(action, siteOrigin).pathname + new URL(action, siteOrigin).search, {
              jar,
              form: fields,
            }),
          isRedirectWithSession,
        ),
      )
      if (confirmed === 'again') return 'again'
    } else {
      const begun = track(
        await step(
          'oidc sign-in',
          () => postSignIn(instance, jar, csrfToken),
          (r) => r.status === 302 && (r.headers.location ?? '').startsWith(rig.op.issuer),
        ),
      )
      if (begun === 'again') return 'again'
      const authorizationUrl = begun.result.headers.location ?? ''
      // Any worker may pick any account at the provider, as people share nothing with the soak's workers: two first
      // sign-ins of one account may race, on one process or on both, and each must still sign in (issue #38 point 4;
      // a crowd of 30 is test/e2e/oauth-first-sign-in-race-postgres.test.ts).
      const account = `op-${Math.floor(Math.random() * options.opAccounts)}`
      // The test provider (oidc-provider's development store, in this process) now and then fails an interaction
      // under load; that is the fixture, not the site: counted apart, and the user starts again.
      const authorization = await rig.op.signInAs(authorizationUrl, account).catch(() => null)
      if (authorization?.mode !== 'query') {
        providerFailures++
        return 'again'
      }
      const back = `${authorization.callbackUrl.pathname}${authorization.callbackUrl.search}`
      // The callback's 503 page says the sign-in cannot be finished and links to the sign-in page: the code was spent.
      const answer = track(
        await step('oidc callback', () => site().request(back, { jar }), isRedirectWithSession, 'start-again'),
      )
      if (answer === 'again') return 'again'
    }
    return repeated ? 'ok-repeated' : 'ok'
  }

  const signInWorker = async (w: number) => {
    for (let n = 0; running(); n++) {
      const method = methods[(w + n) % methods.length]
      const jar = await signIn(method, w, n)
      if (!jar) continue
      signedIn.push(jar)
      for (let check = 0; check < 2 && running(); check++) {
        sessionChecks++
        await call(
          'session check',
          () => site().request('/auth/session', { jar }),
          (r) => r.status === 200 && r.body.includes('"user"'),
        )
      }
      if (n % 3 === 2 && running()) {
        // Out of the checkers' pool first; a check already on its way may race the sign-out and rightly find none.
        signedIn.splice(signedIn.indexOf(jar), 1)
        leaving.add(jar)
        const token = await csrfTokenFrom(site(), jar).catch(() => null)
        if (token) {
          const out = await call(
            'sign-out',
            () => site().request('/auth/signout', { jar, form: { csrfToken: token, callbackUrl: '/bye' } }),
            (r) => r.status === 302 && r.headers.location === `${siteOrigin}/bye`,
          )
          if (out.outcome === 'ok') signOuts++
        }
      }
    }
  }

  const checker = async () => {
    while (running()) {
      const jar = signedIn[Math.floor(Math.random() * signedIn.length)]
      if (jar) {
        sessionChecks++
        await call(
          'session check',
          () => site().request('/auth/session', { jar }),
          (r) => r.status === 200 && (r.body.includes('"user"') || (leaving.has(jar) && r.body === 'null')),
        )
      }
      await sleep(options.checkPauseMs)
    }
  }

  const memory: Record<string, { samples: number[]; rss: number }> = {}
  const sampleMemory = async () => {
    for (const instance of rig.sites) {
      const answer = await instance.request('/memory').catch(() => null)
      if (answer?.status !== 200) continue
      const { heapUsed, rss } = JSON.parse(answer.body) as { heapUsed: number; rss: number }
      const entry = (memory[instance.name] ??= { samples: [], rss: 0 })
      entry.samples.push(heapUsed / 1_048_576)
      entry.rss = rss / 1_048_576
    }
  }
  const sampler = async () => {
    const every = Math.max(2000, durationMs / 60)
    while (running()) {
      await sampleMemory()
      await sleep(every)
    }
  }

  const faults = async () => {
    await sleep(plan.redisDown.from - elapsed())
    options.progress?.(`${Math.round(elapsed() / 1000)} s: Redis killed`)
    await rig.redis.stop('SIGKILL')
    await sleep(plan.redisDown.to - elapsed())
    await rig.redis.restart()
    options.progress?.(`${Math.round(elapsed() / 1000)} s: Redis restarted (empty)`)
    await sleep(plan.stalled.from - elapsed())
    options.progress?.(`${Math.round(elapsed() / 1000)} s: PostgreSQL stalled`)
    rig.proxy.stall()
    await sleep(plan.stalled.to - elapsed())
    rig.proxy.resume()
    options.progress?.(`${Math.round(elapsed() / 1000)} s: PostgreSQL answering`)
  }

  const ticker = async () => {
    while (running() && options.progress) {
      await sleep(30_000)
      options.progress(
        `${Math.round(elapsed() / 1000)} s: ${signIns.firstTry + signIns.afterRepeatingAStep + signIns.afterStartingAgain} sign-ins, ${sessionChecks} checks`,
      )
    }
  }

  await Promise.all([
    faults(),
    sampler(),
    ticker(),
    ...Array.from({ length: options.signInUsers }, (_, w) => signInWorker(w)),
    ...Array.from({ length: options.checkers }, () => checker()),
  ])
  await sampleMemory()

  for (const [phase, figures] of Object.entries(phases)) {
    const sorted = (latencies.get(phase) ?? []).sort((x, y) => x - y)
    figures.p50Ms = Math.round(percentile(sorted, 50))
    figures.p99Ms = Math.round(percentile(sorted, 99))
    figures.maxMs = Math.round(sorted.at(-1) ?? 0)
  }
  const logged: Record<string, Record<string, number>> = {}
  const errorLines: Record<string, string> = {}
  for (const instance of rig.sites) {
    if (process.env.SOAK_LOG) options.progress?.(instance.log())
    errorLines[instance.name] = instance.log().slice(-3000)
    const answer = await instance.request('/logged')
    logged[instance.name] = JSON.parse(answer.body) as Record<string, number>
  }
  const memoryFigures: SoakReport['memory'] = {}
  for (const [name, { samples, rss }] of Object.entries(memory)) {
    // The first fifth of the samples is warm-up (tsx's compiled modules, the JIT, pools filling).
    const warm = samples[Math.floor(samples.length / 5)] ?? samples[0] ?? 0
    memoryFigures[name] = {
      warmMb: Math.round(warm * 10) / 10,
      lastMb: Math.round((samples.at(-1) ?? 0) * 10) / 10,
      maxMb: Math.round(Math.max(...samples) * 10) / 10,
      rssLastMb: Math.round(rss),
    }
  }
  return {
    durationMs,
    phases,
    signIns,
    sessionChecks,
    distinctSessions: signIns.firstTry + signIns.afterRepeatingAStep + signIns.afterStartingAgain,
    signOuts,
    providerFailures,
    memory: memoryFigures,
    logged,
    errorLines,
    surprises,
  }
}

/** The message sent to `address` (after `seen` messages), waiting up to 5 s; null when none came. */
async function mailTo(smtp: SmtpSink, address: string, seen: number) {
  const deadline = Date.now() + 5000
  while (Date.now() < deadline) {
    const mail = smtp.messages.slice(seen).find((message) => message.envelopeTo.includes(address))
    if (mail) return mail
    await sleep(50)
  }
  return null
}
