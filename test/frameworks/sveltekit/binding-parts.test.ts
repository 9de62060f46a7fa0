/**
 * The SvelteKit binding's own parts, without a SvelteKit server: configuration checks, environment sources, the
 * same-origin rule of the form actions, and the copying of Set-Cookie lines onto SvelteKit's cookie API. The whole
 * binding in real SvelteKit apps is tested in sveltekit-apps.test.ts.
 */
import type { Action, Handle, RequestEvent } from '@sveltejs/kit'
import { describe, expect, it } from 'vitest'
import { InvalidConfig } from '../../../src/errors.js'
import { encode } from '../../../src/jwt.js'
import Credentials from '../../../src/providers/credentials.js'
import { SvelteKitAuth, isSameOrigin, type SvelteKitAuthConfig } from '../../../src/frameworks/sveltekit/index.js'
import { configResolver } from '../../../src/frameworks/sveltekit/config.js'
import { environmentOf } from '../../../src/frameworks/sveltekit/env.js'
import {
  forwardCookies,
  mergeCookieHeader,
  parseSetCookie,
  type CookieOptions,
} from '../../../src/frameworks/shared/set-cookie.js'

/** The parts of a request event the configuration resolver reads. */
function eventWith(platform?: unknown): RequestEvent {
  const partial: Partial<RequestEvent> = { platform: platform as RequestEvent['platform'] }
  return partial as RequestEvent
}

const credentials = () => Credentials({ credentials: {}, authorize: async () => null })

describe('SvelteKitAuth configuration', () => {
  it("returns a hook and actions that fit SvelteKit's own types (checked by the typecheck)", () => {
    const { handle, signIn, signOut }: { handle: Handle; signIn: Action; signOut: Action } = SvelteKitAuth({
      providers: [credentials()],
    })
    expect([typeof handle, typeof signIn, typeof signOut]).toEqual(['function', 'function', 'function'])
  })

  it('refuses at once what cannot be a configuration; `providers` is optional, as in Auth.js (#32)', () => {
    expect(typeof SvelteKitAuth({}).handle).toBe('function')
    for (const notConfig of [null, [], 'config', { providers: 'github' }])
      expect(() => SvelteKitAuth(notConfig as unknown as SvelteKitAuthConfig)).toThrow(InvalidConfig)
    expect(() => SvelteKitAuth({ providers: [], raw: Symbol('raw') } as SvelteKitAuthConfig)).toThrow(/raw/)
  })

  it('refuses, on the request, a lazy configuration that returns none', async () => {
    const resolve = configResolver(async () => null as unknown as SvelteKitAuthConfig, {})
    await expect(resolve(eventWith())).rejects.toThrow(InvalidConfig)
    await expect(configResolver(async () => ({}), { env: { AUTH_SECRET: 's' } })(eventWith())).resolves.toMatchObject({
      basePath: '/auth',
    })
  })

  it('applies environment defaults once per configuration object, from the given env with platform env on top', async () => {
    const config: SvelteKitAuthConfig = { providers: [credentials()] }
    const env: Record<string, string | undefined> = { AUTH_SECRET: 'from-env', AUTH_TRUST_HOST: 'false' }
    const resolve = configResolver(async () => config, { env })
    const resolved = await resolve(eventWith({ env: { AUTH_SECRET: 'from-platform' } }))
    expect(resolved).toBe(config)
    expect(config.secret).toEqual(['from-platform'])
    expect(config.trustHost).toBe(false)
    env.AUTH_TRUST_HOST = 'true'
    await resolve(eventWith())
    // Already prepared: a later request does not apply the environment again.
    expect(config.trustHost).toBe(false)
  })

  it('a built app (no NODE_ENV) that trusts any Host by default says so once; dev, production, AUTH_URL do not', async () => {
    const warned: string[] = []
    const logger = { warn: (code: string) => void warned.push(code) }
    const lazy = configResolver(() => ({ providers: [credentials()], logger }), { env: { AUTH_SECRET: 's' } })
    await lazy(eventWith())
    await lazy(eventWith())
    expect(warned).toEqual(['sveltekit-trusts-any-host'])
    for (const env of [
      { NODE_ENV: 'production' },
      { NODE_ENV: 'development' },
      { AUTH_URL: 'https://app.test' },
      { AUTH_TRUST_HOST: 'true' },
    ]) {
      warned.length = 0
      await configResolver({ providers: [credentials()], logger }, { env: { AUTH_SECRET: 's', ...env } })(eventWith())
      expect(warned, JSON.stringify(env)).toEqual([])
    }
    warned.length = 0
    await configResolver({ providers: [credentials()], logger, trustHost: true }, { env: {} })(eventWith())
    expect(warned).toEqual([])
  })

  it('resolves the configuration once per request event', async () => {
    let calls = 0
    const resolve = configResolver(
      async () => {
        calls += 1
        return { providers: [credentials()] }
      },
      { env: {} },
    )
    const event = eventWith()
    await Promise.all([resolve(event), resolve(event), resolve(event)])
    expect(calls).toBe(1)
    await resolve(eventWith())
    expect(calls).toBe(2)
  })

  it('AUTH_TRUST_HOST=true is honoured with NODE_ENV=production', async () => {
    const config: SvelteKitAuthConfig = { providers: [credentials()] }
    await configResolver(config, { env: { NODE_ENV: 'production', AUTH_TRUST_HOST: 'true', AUTH_SECRET: 's' } })(
      eventWith(),
    )
    expect(config.trustHost).toBe(true)
  })
})

describe('handle', () => {
  /** An event with what `handle` and `locals.auth()` read; cookies set on it are collected. */
  function requestEvent(url: string, set: string[] = [], cookie?: string): RequestEvent {
    const partial: Partial<RequestEvent> = {
      url: new URL(url),
      request: new Request(url, { headers: cookie ? { cookie } : {} }),
      locals: {} as App.Locals,
      platform: undefined,
      cookies: {
        get: () => undefined,
        getAll: () => [],
        set: (name: string) => void set.push(name),
        delete: () => undefined,
        serialize: () => '',
      },
    }
    return partial as RequestEvent
  }

  it('computes locals.auth() at most once per request, and answers the base path itself', async () => {
    let sessionCallbacks = 0
    const secret = 'a-secret-long-enough-for-the-tests-0123456789'
    const token = await encode({
      token: { sub: 'user-1', name: 'Ada', email: 'ada@example.test' },
      secret,
      salt: 'authjs.session-token',
    })
    const { handle } = SvelteKitAuth(
      {
        providers: [credentials()],
        secret,
        trustHost: true,
        callbacks: {
          session: ({ session }) => {
            sessionCallbacks += 1
            return session
          },
        },
      },
      { env: {} },
    )
    let resolved = 0
    const event = requestEvent('http://app.test/page', [], `authjs.session-token=${token}`)
    const response = await handle({
      event,
      resolve: async (seen) => {
        resolved += 1
        const sessions = await Promise.all([seen.locals.auth(), seen.locals.auth(), seen.locals.auth()])
        return new Response(JSON.stringify(sessions))
      },
    })
    expect(resolved).toBe(1)
    const sessions = (await response.json()) as Array<{ user?: { name?: string } } | null>
    expect(sessions.map((session) => session?.user?.name)).toEqual(['Ada', 'Ada', 'Ada'])
    expect(sessionCallbacks).toBe(1)
    // Signed out: null.
    const anonymous = await handle({
      event: requestEvent('http://app.test/page'),
      resolve: async (seen) => new Response(JSON.stringify(await seen.locals.auth())),
    })
    expect(await anonymous.json()).toBeNull()
    const csrf = await handle({
      event: requestEvent('http://app.test/auth/csrf'),
      resolve: async () => new Response('app'),
    })
    expect(await csrf.json()).toHaveProperty('csrfToken')
    // `/authors` is not under `/auth`.
    const other = await handle({
      event: requestEvent('http://app.test/authors'),
      resolve: async () => new Response('app'),
    })
    expect(await other.text()).toBe('app')
  })
})

describe('environment sources', () => {
  it('lays string values of platform env over the given env and ignores other values', () => {
    const env = environmentOf({ A: '1', B: '2' }, { env: { B: 'platform', C: 3, D: 'd' } })
    expect(env).toEqual({ A: '1', B: 'platform', D: 'd' })
  })
  it('uses the given env as it is when the platform has none', () => {
    const given = { A: '1' }
    expect(environmentOf(given, undefined)).toBe(given)
    expect(environmentOf(given, { env: null })).toBe(given)
  })
})

describe('same-origin rule of the form actions', () => {
  const post = (headers: Record<string, string>) => new Request('http://app.test/signin', { method: 'POST', headers })
  it('accepts the app origin and refuses any other', () => {
    expect(isSameOrigin(post({ origin: 'http://app.test' }), 'http://app.test')).toBe(true)
    expect(isSameOrigin(post({ origin: 'http://evil.test' }), 'http://app.test')).toBe(false)
    expect(isSameOrigin(post({ origin: 'https://app.test' }), 'http://app.test')).toBe(false)
    expect(isSameOrigin(post({ origin: 'null' }), 'http://app.test')).toBe(false)
  })
  it('without Origin, believes only Fetch Metadata that says same-origin', () => {
    expect(isSameOrigin(post({ 'sec-fetch-site': 'same-origin' }), 'http://app.test')).toBe(true)
    expect(isSameOrigin(post({ 'sec-fetch-site': 'same-site' }), 'http://app.test')).toBe(false)
    expect(isSameOrigin(post({}), 'http://app.test')).toBe(false)
  })
})

describe('Set-Cookie onto SvelteKit cookies', () => {
  it('keeps every attribute the core chose', () => {
    const parsed = parseSetCookie(
      'authjs.session-token=a.b.c; Path=/; Expires=Thu, 24 Dec 2026 21:01:20 GMT; Max-Age=60; HttpOnly; Secure; SameSite=Lax; Domain=app.test',
    )
    expect(parsed).toEqual({
      name: 'authjs.session-token',
      value: 'a.b.c',
      options: {
        path: '/',
        expires: new Date('Thu, 24 Dec 2026 21:01:20 GMT'),
        maxAge: 60,
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
        domain: 'app.test',
      },
    })
  })
  it('decodes the value once (SvelteKit encodes it again) and rejects a line without a name', () => {
    expect(parseSetCookie('authjs.csrf-token=a%7Cb; Path=/')?.value).toBe('a|b')
    expect(parseSetCookie('=nameless; Path=/')).toBeNull()
    expect(parseSetCookie('garbage')).toBeNull()
  })
  it('forwards each cookie of a response, and a follow-up request sees them', () => {
    const response = new Response(null, {
      headers: [
        ['set-cookie', 'a=1; Path=/'],
        ['set-cookie', 'b=x%7Cy; Path=/; HttpOnly'],
        ['set-cookie', 'old=; Path=/; Max-Age=0'],
      ],
    })
    const set: Array<[string, string, CookieOptions]> = []
    forwardCookies(response, { set: (name, value, options) => set.push([name, value, options]) })
    expect(set.map(([name, value]) => `${name}=${value}`)).toEqual(['a=1', 'b=x|y', 'old='])
    expect(mergeCookieHeader('old=gone; keep=me', response)).toBe('keep=me; a=1; b=x%7Cy')
  })
})
