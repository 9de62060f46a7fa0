/**
 * What a TOTP second factor costs a credentials sign-in: the same sign-in (`GET /csrf` + `POST /callback/credentials`,
 * JWT sessions, the memory adapter) for a user without a factor, and for a user with an enrolled authenticator app,
 * whose sign-in stops at the challenge and is finished with a code (`POST /second-factor`). Both sides are Authchart:
 * the second column is the sign-in without a factor. A code is usable once per 30-second step, so each sign-in is a
 * user of its own, made (and for the TOTP side enrolled) before it is timed; the code is made then too, as the
 * user's authenticator app would.
 */
import { randomUUID } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import { MemoryAdapter } from '../adapters/memory.js'
import { sealTotpSecret } from '../src/factors/secret-seal.js'
import { Auth } from '../src/index.js'
import Credentials from '../src/providers/credentials.js'
import type { AuthConfig } from '../src/types/index.js'
import { origin, secret, type Handler } from './core.bench.js'
import { compare, Jar, printTable, runOptions, type Side } from './measure.js'

/** The memory adapter, whose factor methods are all there. */
type Adapter = ReturnType<typeof MemoryAdapter>

interface Prepared {
  email: string
  /** The authenticator app's code now (TOTP side only). */
  code?: string
}

function post(handler: Handler, path: string, jar: Jar, form: Record<string, string>): Promise<Response> {
  return handler(
    new Request(`${origin}${path}`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    }),
  )
}

async function csrfToken(handler: Handler, jar: Jar): Promise<string> {
  const response = await handler(new Request(`${origin}/auth/csrf`, { headers: { cookie: jar.header() } }))
  jar.take(response)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

function expectAt(response: Response, location: string, label: string): void {
  if (response.headers.get('location') !== location)
    throw new Error(
      `${label}: expected a redirect to ${location}, got ${response.status} ${response.headers.get('location')}`,
    )
}

/** A site whose credentials provider signs in any user the adapter knows by e-mail address. */
function site(adapter: Adapter): Handler {
  const config: AuthConfig = {
    secret,
    trustHost: true,
    basePath: '/auth',
    adapter,
    session: { strategy: 'jwt' },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email }) => (typeof email === 'string' ? adapter.getUserByEmail(email) : null),
      }),
    ],
  }
  return (request) => Auth(request, config)
}

/** One sign-in's side: a fresh user (enrolled when `totp`), then the sign-in, timed. */
function side(adapter: Adapter, totp: boolean): Side<Prepared> {
  const handler = site(adapter)
  return {
    prepare: async () => {
      const email = `${randomUUID()}@example.com`
      const user = await adapter.createUser({ id: '', email, emailVerified: null, name: 'Bench User' })
      if (!totp) return { email }
      const key = new Secret({ size: 20 }).base32
      const factorId = randomUUID()
      await adapter.createFactor({
        id: factorId,
        userId: user.id,
        type: 'totp',
        secret: sealTotpSecret([secret], { userId: user.id, factorId }, key),
        lastUsedStep: null,
        label: null,
        createdAt: new Date(),
      })
      return { email, code: new TOTP({ secret: Secret.fromBase32(key) }).generate() }
    },
    run: async ({ email, code }) => {
      const jar = new Jar()
      const csrf = await csrfToken(handler, jar)
      const first = await post(handler, '/auth/callback/credentials', jar, { email, password: 'x', csrfToken: csrf })
      jar.take(first)
      if (code === undefined) expectAt(first, `${origin}/`, 'without a factor')
      else {
        expectAt(first, `${origin}/auth/second-factor`, 'password step')
        const second = await post(handler, '/auth/second-factor', jar, { factor: 'otp', code, csrfToken: csrf })
        jar.take(second)
        expectAt(second, `${origin}/`, 'code step')
      }
      if (!jar.cookies.has('authjs.session-token')) throw new Error('the sign-in issued no session')
    },
  }
}

/** Runs the suite; returns the ratio by case. */
export async function runSecondFactorBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  const result = await compare(
    'credentials sign-in with TOTP (password step + code step) / without a factor',
    side(MemoryAdapter(), true),
    side(MemoryAdapter(), false),
    run,
  )
  return printTable('Second factor: a credentials sign-in with TOTP and without', [result], run, [
    'with TOTP',
    'without a factor',
  ])
}
