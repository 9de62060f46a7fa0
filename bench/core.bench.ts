/**
 * The core actions, Authchart against @auth/core in one process with the same config: the session check with a valid
 * JWT (the hot path: every page view of every user), GET /csrf, GET /providers, and a credentials sign-in.
 */
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { Auth } from '../src/index.js'
import Credentials from '../src/providers/credentials.js'
import { measure, printComparison } from './measure.js'

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const user = { id: 'u-1', name: 'Bench User', email: 'bench@example.com' }
const authorize = async (c: Partial<Record<string, unknown>>) =>
  c.username === 'bench' && c.password === 'pw' ? user : null

type Handler = (request: Request) => Promise<Response>

function setCookies(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

async function signInCookies(handler: Handler): Promise<{ session: string; csrf: string; csrfToken: string }> {
  const csrfResponse = await handler(new Request(`${origin}/auth/csrf`))
  const csrf = setCookies(csrfResponse)
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
  const response = await handler(
    new Request(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: csrf, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'bench', password: 'pw', csrfToken }).toString(),
    }),
  )
  return { session: setCookies(response), csrf, csrfToken }
}

/** Runs the core benchmark and returns the ratios (Authchart / @auth/core) per case. */
export async function runCoreBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  // One config object per library, built once, as an app would.
  const ours = {
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
    secret,
    trustHost: true,
  }
  const theirs = {
    providers: [AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize })],
    secret,
    trustHost: true,
    basePath: '/auth',
  }
  const oursHandler: Handler = (r) => Auth(r, ours)
  const theirsHandler: Handler = (r) => AuthJs(r, theirs)
  const oursCookies = await signInCookies(oursHandler)
  const theirsCookies = await signInCookies(theirsHandler)
  const opsPerRound = options.quick ? 200 : 1000
  const rounds = options.quick ? 3 : 7

  const cases: Array<[string, (h: Handler, c: typeof oursCookies) => Promise<unknown>]> = [
    [
      'GET /session (valid JWT)',
      async (h, c) => (await h(new Request(`${origin}/auth/session`, { headers: { cookie: c.session } }))).text(),
    ],
    ['GET /csrf', async (h) => (await h(new Request(`${origin}/auth/csrf`))).text()],
    ['GET /providers', async (h) => (await h(new Request(`${origin}/auth/providers`))).text()],
    [
      'POST /callback/credentials',
      async (h, c) =>
        (
          await h(
            new Request(`${origin}/auth/callback/credentials`, {
              method: 'POST',
              headers: { cookie: c.csrf, 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ username: 'bench', password: 'pw', csrfToken: c.csrfToken }).toString(),
            }),
          )
        ).text(),
    ],
  ]
  const rows = []
  for (const [label, run] of cases) {
    const theirsResult = await measure(`@auth/core ${label}`, () => run(theirsHandler, theirsCookies), {
      opsPerRound,
      rounds,
    })
    const oursResult = await measure(`authchart ${label}`, () => run(oursHandler, oursCookies), { opsPerRound, rounds })
    rows.push({ label, ours: oursResult, theirs: theirsResult })
  }
  return printComparison('Core actions (in-process, sequential, median of rounds)', rows)
}
