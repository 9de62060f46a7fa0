/**
 * Finding 4 of the limits review, per binding: each learns the client's address from its host (never a header) and
 * hands it to `Auth()`, for the hook and for the form actions that post to `Auth()` on a browser's behalf. Five wrong
 * guesses under five usernames from one address reach `authorize` three times (maxClientFailures 3); a guess from
 * another address still does. In-process, with the members of each framework's request event the binding reads.
 */
import type { RequestEvent } from '@sveltejs/kit'
import { describe, expect, it } from 'vitest'
import {
  answerAuthRequest,
  prepare,
  signIn as qwikSignIn,
  type AuthRequestEvent,
} from '../../src/frameworks/qwik/server.js'
import { createHandlers } from '../../src/frameworks/solid-start/handlers.js'
import { SvelteKitAuth } from '../../src/frameworks/sveltekit/index.js'
import Credentials from '../../src/providers/credentials.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar } from '../support/auth-harness.js'

const origin = 'http://app.test'

function limited() {
  const calls = { authorize: 0 }
  const config: AuthConfig = {
    secret: 'binding-client-address-secret-0123456789ab',
    trustHost: true,
    logger: { warn: () => undefined, error: () => undefined },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: 'password' } },
        bruteForce: { maxFailures: 100, maxClientFailures: 3 },
        authorize: () => {
          calls.authorize += 1
          return null
        },
      }),
    ],
  }
  return { config, calls }
}

/** A binding as a function of a web `Request` and the client's address: its answer and the cookies it set. */
type Binding = (request: Request, address: string) => Promise<Response>

let forged = 0

/**
 * A wrong guess as a browser makes it through `binding`: the CSRF token first, then the credentials post, each with
 * a new X-Forwarded-For, which no binding may take for the client.
 */
async function guess(binding: Binding, username: string, address: string): Promise<void> {
  const jar = new CookieJar()
  const forwardedFor = () => `198.51.100.${(forged += 1) % 250}`
  const csrf = await binding(
    new Request(`${origin}/auth/csrf`, { headers: { 'x-forwarded-for': forwardedFor() } }),
    address,
  )
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const post = new Request(`${origin}/auth/callback/credentials`, {
    method: 'POST',
    headers: {
      origin,
      cookie: jar.header(),
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': forwardedFor(),
    },
    body: new URLSearchParams({ username, password: 'guess', csrfToken }),
  })
  await binding(post, address)
}

/** Five guesses from one address, then one from another. */
async function expectPerClientLimit(binding: Binding, calls: { authorize: number }): Promise<void> {
  for (let i = 0; i < 5; i++) await guess(binding, `user-${i}`, '203.0.113.9')
  expect(calls.authorize).toBe(3)
  await guess(binding, 'user-x', '203.0.113.10')
  expect(calls.authorize).toBe(4)
}

/** A Qwik City request event: what the binding reads, `clientConn.ip` among it; cookies set go back as Set-Cookie. */
function qwikEvent(request: Request, address: string, setCookies: string[]): AuthRequestEvent {
  return {
    request,
    url: new URL(request.url),
    sharedMap: new Map(),
    cookie: { set: (name, value) => void setCookies.push(`${name}=${value}; Path=/`) },
    clientConn: { ip: address },
  }
}

describe('Qwik learns the client from clientConn.ip', () => {
  it('in the request hook', async () => {
    const { config, calls } = limited()
    const qwikConfig = prepare(config)
    await expectPerClientLimit(async (request, address) => {
      const setCookies: string[] = []
      const response = await answerAuthRequest(qwikEvent(request, address, setCookies), qwikConfig)
      const headers = new Headers(response?.headers)
      for (const line of setCookies) headers.append('set-cookie', line)
      return new Response(await response?.text(), { status: response?.status, headers })
    }, calls)
  })

  it('in the sign-in action, which posts to Auth() for the browser', async () => {
    const { config, calls } = limited()
    const qwikConfig = prepare(config)
    const act = async (username: string, address: string) => {
      const request = new Request(`${origin}/login`, {
        method: 'POST',
        headers: { origin, 'x-forwarded-for': `198.51.100.${(forged += 1) % 250}` },
      })
      const outcome = await qwikSignIn(qwikEvent(request, address, []), qwikConfig, {
        providerId: 'credentials',
        redirectTo: undefined,
        authorizationParams: new URLSearchParams(),
        fields: [
          ['username', username],
          ['password', 'guess'],
        ],
      })
      expect(outcome).toHaveProperty('url')
    }
    for (let i = 0; i < 5; i++) await act(`user-${i}`, '2001:db8:1:2::5')
    expect(calls.authorize).toBe(3)
    // The same /64 is the same client; another /64 is not.
    await act('user-y', '2001:db8:1:2::6')
    expect(calls.authorize).toBe(3)
    await act('user-x', '2001:db8:1:3::5')
    expect(calls.authorize).toBe(4)
  })

  it('an adapter whose clientConn throws leaves the client unknown, and the request is still answered', async () => {
    const { config } = limited()
    const request = new Request(`${origin}/auth/csrf`)
    const event: AuthRequestEvent = {
      request,
      url: new URL(request.url),
      sharedMap: new Map(),
      cookie: { set: () => undefined },
      get clientConn(): { ip?: string } {
        throw new Error('getClientConn is not available during static generation')
      },
    }
    expect((await answerAuthRequest(event, prepare(config)))?.status).toBe(200)
  })
})

/** A SvelteKit request event: what the hook and the actions read, `getClientAddress()` among it. */
function kitEvent(request: Request, address: string, setCookies: string[]): RequestEvent {
  const partial: Partial<RequestEvent> = {
    request,
    url: new URL(request.url),
    locals: {} as App.Locals,
    platform: undefined,
    getClientAddress: () => address,
    cookies: {
      get: () => undefined,
      getAll: () => [],
      set: (name: string, value: string) => void setCookies.push(`${name}=${value}; Path=/`),
      delete: () => undefined,
      serialize: () => '',
    },
  }
  return partial as RequestEvent
}

describe('SvelteKit learns the client from getClientAddress()', () => {
  it('in the hook', async () => {
    const { config, calls } = limited()
    const { handle } = SvelteKitAuth(config, { env: {} })
    await expectPerClientLimit(
      (request, address) => handle({ event: kitEvent(request, address, []), resolve: () => new Response('app') }),
      calls,
    )
  })

  it('in the signIn form action, which posts to Auth() for the browser', async () => {
    const { config, calls } = limited()
    const { signIn } = SvelteKitAuth(config, { env: {} })
    const act = async (username: string, address: string) => {
      const request = new Request(`${origin}/signin`, {
        method: 'POST',
        headers: { origin, 'x-forwarded-for': `198.51.100.${(forged += 1) % 250}` },
        body: new URLSearchParams({ providerId: 'credentials', username, password: 'guess' }),
      })
      // The action ends in SvelteKit's redirect, thrown.
      await expect(signIn(kitEvent(request, address, []))).rejects.toHaveProperty('status', 303)
    }
    for (let i = 0; i < 5; i++) await act(`user-${i}`, '203.0.113.9')
    expect(calls.authorize).toBe(3)
    await act('user-x', '203.0.113.10')
    expect(calls.authorize).toBe(4)
  })
})

describe('SolidStart learns the client from the event’s clientAddress', () => {
  it('in the catch-all handlers', async () => {
    const { config, calls } = limited()
    const { GET, POST } = createHandlers(config)
    await expectPerClientLimit(async (request, clientAddress) => {
      const handler = request.method === 'POST' ? POST : GET
      return (await handler({ request, clientAddress })) ?? new Response('not served', { status: 404 })
    }, calls)
  })
})
