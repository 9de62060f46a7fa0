/**
 * The one session reader (src/frameworks/shared/session-reader.ts) seen through every server binding: the same
 * request, or the same failure, gives the same answer from Express's `getSession`, SvelteKit's `locals.auth()`,
 * SolidStart's `getSession` and Qwik's `sessionOf`. Express runs as a real server; the other three are called with
 * the members of their request events the bindings read (their full apps are tested under test/frameworks/<name>/).
 */
import type { AddressInfo } from 'node:net'
import type { RequestEvent } from '@sveltejs/kit'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { AuthError } from '../../src/errors.js'
import { getSession as expressSession } from '../../src/frameworks/express.js'
import { prepare, sessionOf } from '../../src/frameworks/qwik/server.js'
import { asJsonValue } from '../../src/frameworks/shared/session-reader.js'
import { getSession as solidSession } from '../../src/frameworks/solid-start/index.js'
import { SvelteKitAuth } from '../../src/frameworks/sveltekit/index.js'
import { encode } from '../../src/jwt.js'
import Credentials from '../../src/providers/credentials.js'
import type { AuthConfig } from '../../src/types/index.js'

const secret = 'session-reader-secret-0123456789abcdef'

/** What a binding answered: the session's user and the app's own field, or the type of the error it threw. */
type Answer = { session: unknown } | { error: string }

type Binding = (config: AuthConfig, headers: Record<string, string>) => Promise<Answer>

function failed(error: unknown): Answer {
  return { error: error instanceof AuthError ? error.type : `not an AuthError: ${String(error)}` }
}

/** Keeps what the test compares: `expires` is computed from the clock, so only its form is kept. */
function comparable(session: unknown): unknown {
  if (typeof session !== 'object' || session === null) return session
  const { expires, ...rest } = session as Record<string, unknown>
  return { ...rest, expires: typeof expires }
}

const bindings: Record<string, Binding> = {
  async express(config, headers) {
    const app = express()
    app.get('/page', async (req, res) => {
      try {
        res.json({ session: comparable(await expressSession(req, config)) })
      } catch (error) {
        res.json(failed(error))
      }
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/page`, { headers })
      return (await response.json()) as Answer
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  },
  async sveltekit(config, headers) {
    const url = 'http://app.test/page'
    const partial: Partial<RequestEvent> = {
      url: new URL(url),
      request: new Request(url, { headers }),
      locals: {} as App.Locals,
      platform: undefined,
      getClientAddress: () => '192.0.2.1',
      cookies: {
        get: () => undefined,
        getAll: () => [],
        set: () => undefined,
        delete: () => undefined,
        serialize: () => '',
      },
    }
    const { handle } = SvelteKitAuth(config, { env: {} })
    let answer: Answer = { error: 'locals.auth() was not called' }
    await handle({
      event: partial as RequestEvent,
      resolve: async (event) => {
        try {
          answer = { session: comparable(await event.locals.auth()) }
        } catch (error) {
          answer = failed(error)
        }
        return new Response('page')
      },
    })
    return answer
  },
  async solidStart(config, headers) {
    try {
      return { session: comparable(await solidSession(new Request('http://app.test/page', { headers }), config)) }
    } catch (error) {
      return failed(error)
    }
  },
  async qwik(config, headers) {
    const url = 'http://app.test/page'
    const event = {
      request: new Request(url, { headers }),
      url: new URL(url),
      sharedMap: new Map<string, unknown>(),
      cookie: { set: () => undefined },
      clientConn: { ip: '192.0.2.1' },
    }
    try {
      return { session: comparable(await sessionOf(event, prepare(config))) }
    } catch (error) {
      return failed(error)
    }
  },
}

/** A fresh configuration for each binding (each prepares its own object). */
function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    // The refusals (a forged cookie, a store down) are logged by the core; their logging is tested elsewhere.
    logger: { error: () => undefined },
    providers: [Credentials({ credentials: {}, authorize: async () => null })],
    callbacks: {
      // A Date in the session reaches the app as the browser's `/session` shows it: ISO text.
      session: ({ session }) => ({ ...session, checkedAt: new Date(0) }),
    },
    ...extra,
  }
}

/** A session cookie for `name` under the cookie name `cookieName` (its JWE salt). */
async function sessionCookie(cookieName: string, name: string): Promise<string> {
  const token = await encode({ token: { sub: name, name, email: `${name}@example.test` }, secret, salt: cookieName })
  return `${cookieName}=${token}`
}

/** The answers of every binding to one request, by binding name. */
async function throughEveryBinding(
  makeConfig: () => AuthConfig,
  headers: Record<string, string>,
): Promise<Record<string, Answer>> {
  const answers: Record<string, Answer> = {}
  for (const [name, binding] of Object.entries(bindings)) answers[name] = await binding(makeConfig(), headers)
  return answers
}

function everyBinding(answer: Answer): Record<string, Answer> {
  return Object.fromEntries(Object.keys(bindings).map((name) => [name, answer]))
}

function sessionOfUser(name: string): Answer {
  return {
    session: {
      user: { name, email: `${name}@example.test` },
      checkedAt: new Date(0).toISOString(),
      expires: 'string',
    },
  }
}

describe('one session reader behind every binding', () => {
  it('a database (adapter) that cannot be reached is AdapterError, named after it (503: retry), from every binding', async () => {
    const adapter = {
      ...MemoryAdapter(),
      getSessionAndUser: async () => {
        throw new Error('connection refused')
      },
    }
    const answers = await throughEveryBinding(() => config({ adapter, session: { strategy: 'database' } }), {
      cookie: 'authjs.session-token=some-database-session',
    })
    expect(answers).toEqual(everyBinding({ error: 'AdapterError' }))
  })

  it('X-Forwarded-Proto / -Host do not choose the origin: a plain-HTTP request reads the plain cookie everywhere', async () => {
    const headers = {
      cookie: `${await sessionCookie('__Secure-authjs.session-token', 'forwarded')}; ${await sessionCookie('authjs.session-token', 'plain')}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-for': '203.0.113.9',
    }
    expect(await throughEveryBinding(() => config(), headers)).toEqual(everyBinding(sessionOfUser('plain')))
  })

  it('the configured url decides the origin, whatever the request or its forwarded headers say', async () => {
    const headers = {
      cookie: `${await sessionCookie('__Secure-authjs.session-token', 'configured')}; ${await sessionCookie('authjs.session-token', 'plain')}`,
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'evil.example',
    }
    expect(await throughEveryBinding(() => config({ url: 'https://app.example' }), headers)).toEqual(
      everyBinding(sessionOfUser('configured')),
    )
  })

  it('signed out is null from every binding, and a forged cookie is no session', async () => {
    expect(await throughEveryBinding(() => config(), {})).toEqual(everyBinding({ session: null }))
    expect(await throughEveryBinding(() => config(), { cookie: 'authjs.session-token=forged' })).toEqual(
      everyBinding({ session: null }),
    )
  })

  it('hands the app what a JSON round trip of the session would, without writing JSON', () => {
    const value = {
      at: new Date(0),
      skipped: undefined,
      call: () => 1,
      list: [1, undefined, () => 2, Number.NaN, new Date(1000)],
      nested: { boxed: Object('text') as unknown, infinite: Number.POSITIVE_INFINITY, own: { toJSON: () => 'own' } },
      map: new Map([['a', 1]]),
    }
    expect(asJsonValue(value)).toEqual(JSON.parse(JSON.stringify(value)))
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(() => asJsonValue(cycle)).toThrow(TypeError)
    expect(() => asJsonValue({ big: 1n })).toThrow(TypeError)
  })
})
