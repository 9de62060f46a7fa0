/**
 * The Next.js binding's parts that run without a Next.js server: the configuration (next-auth's environment names and
 * the `/api/auth` base path), the Route Handlers (and their cross-site refusal, logged), and `auth` as Middleware and
 * as a wrapper, over a real credentials sign-in through the handlers, with Next's own `NextRequest`. `auth()` in a
 * Server Component and the Server Actions need Next's request scope (`headers()`, `cookies()`): the real app checks
 * them (next-app.test.ts).
 */
import { NextRequest } from 'next/server.js'
import { afterEach, describe, expect, it } from 'vitest'
import { InvalidConfig } from '../../../src/errors.js'
import NextAuth, { type NextAuthConfig, type NextAuthRequest } from '../../../src/frameworks/next/index.js'
import { prepareNextConfig } from '../../../src/frameworks/next/config.js'
import Credentials from '../../../src/providers/credentials.js'
import GitHub from '../../../src/providers/github.js'
import type { WarningCode } from '../../../src/types/logger.js'
import { CookieJar } from '../support/fixture-app.js'

const origin = 'http://app.test'
const secret = 'next-binding-secret-0123456789abcdef0123'
const alice = { id: 'alice', name: 'Alice', email: 'alice@example.test' }

function config(extra: Partial<NextAuthConfig> = {}, warnings: WarningCode[] = []): NextAuthConfig {
  return {
    secret,
    url: origin,
    logger: { warn: (code) => warnings.push(code), error: () => undefined },
    providers: [
      Credentials({
        credentials: { password: { type: 'password' } },
        authorize: async (input) => (input.password === 'wonderland' ? alice : null),
      }),
    ],
    ...extra,
  }
}

function request(
  path: string,
  jar?: CookieJar,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const headers = new Headers(init.headers)
  if (jar && jar.cookies.size > 0) headers.set('cookie', jar.header())
  return new NextRequest(`${origin}${path}`, { method: init.method ?? 'GET', headers, body: init.body })
}

/**
 * Signs Alice in through the Route Handlers as a browser would (its requests made by `build`), asking to come back to
 * `callbackUrl`; returns her cookies and where the sign-in sent her.
 */
async function signedIn(
  handlers: ReturnType<typeof NextAuth>['handlers'],
  build: typeof request = request,
  callbackUrl = `${origin}/`,
): Promise<{ jar: CookieJar; location: string | null }> {
  const jar = new CookieJar()
  const csrf = await handlers.GET(build('/api/auth/csrf', jar))
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const answer = await handlers.POST(
    build('/api/auth/callback/credentials', jar, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ csrfToken, password: 'wonderland', callbackUrl }).toString(),
    }),
  )
  expect(answer.status).toBe(302)
  jar.take(answer)
  return { jar, location: answer.headers.get('location') }
}

afterEach(() => {
  delete process.env.NEXT_RUNTIME
})

describe('NextAuth configuration', () => {
  it("defaults the base path to /api/auth, and takes AUTH_URL's path when it names one", () => {
    expect(prepareNextConfig(config({ url: undefined }), {}).basePath).toBe('/api/auth')
    expect(prepareNextConfig(config({ url: undefined }), { AUTH_URL: 'https://app.test/auth/' }).basePath).toBe('/auth')
    expect(prepareNextConfig(config({ basePath: '/custom/' }), {}).basePath).toBe('/custom')
  })

  it("reads AUTH_* and, where they are unset, next-auth's NEXTAUTH_URL and NEXTAUTH_SECRET", () => {
    const older = prepareNextConfig(
      { providers: [GitHub] },
      {
        NEXTAUTH_URL: 'https://old.test',
        NEXTAUTH_SECRET: 'an-older-secret-0123456789abcdef0123',
        AUTH_GITHUB_ID: 'gh-id',
        AUTH_GITHUB_SECRET: 'gh-secret',
      },
    )
    expect([older.url, older.secret, older.basePath]).toEqual([
      'https://old.test',
      ['an-older-secret-0123456789abcdef0123'],
      '/api/auth',
    ])
    expect(older.providers?.[0]).toMatchObject({ id: 'github', clientId: 'gh-id', clientSecret: 'gh-secret' })
    const newer = prepareNextConfig(
      { providers: [], secret },
      { AUTH_URL: 'https://new.test', NEXTAUTH_URL: 'https://old.test' },
    )
    expect(newer.url).toBe('https://new.test')
  })

  it('refuses what is no configuration, and `raw`, at NextAuth() time', () => {
    expect(() => NextAuth('nope' as never)).toThrow(InvalidConfig)
    expect(() => NextAuth({ providers: [], raw: Symbol('raw') } as never)).toThrow(/remove `raw`/)
  })
})

describe('the Route Handlers', () => {
  it('answer the auth endpoints under /api/auth', async () => {
    const { handlers } = NextAuth(config())
    const providers = await handlers.GET(request('/api/auth/providers'))
    expect(providers.status).toBe(200)
    expect(await providers.json()).toMatchObject({ credentials: { id: 'credentials', type: 'credentials' } })
    expect((await handlers.GET(request('/elsewhere/providers'))).status).toBe(404)
  })

  it('refuse a cross-site POST before Auth() runs, logged as refused:csrf', async () => {
    const warnings: WarningCode[] = []
    const { handlers } = NextAuth(config({}, warnings))
    const forged = await handlers.POST(
      request('/api/auth/callback/credentials', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
        body: 'password=wonderland',
      }),
    )
    expect(forged.status).toBe(403)
    expect(warnings).toEqual(['refused:csrf'])
  })

  it("take the site's origin from the Host the browser reached (trustHost, no url), not from the URL Next names", async () => {
    const { handlers } = NextAuth(config({ url: undefined, trustHost: true }))
    // `next start` hands a Route Handler a URL with its own hostname, whatever the Host.
    const atLocalhost: typeof request = (path, jar, init = {}) => {
      const headers = new Headers({ ...init.headers, host: 'app.test' })
      if (jar && jar.cookies.size > 0) headers.set('cookie', jar.header())
      return new NextRequest(`http://localhost:3000${path}`, { method: init.method ?? 'GET', headers, body: init.body })
    }
    const { location } = await signedIn(handlers, atLocalhost, `${origin}/account`)
    expect(location).toBe(`${origin}/account`)
  })

  it('sign a browser in with credentials (the session cookie set)', async () => {
    const { handlers } = NextAuth(config())
    const { jar } = await signedIn(handlers)
    const session = await handlers.GET(request('/api/auth/session', jar))
    expect(await session.json()).toMatchObject({ user: { name: 'Alice' } })
  })
})

describe('auth as Middleware', () => {
  const authorized: NonNullable<NextAuthConfig['callbacks']>['authorized'] = ({ auth }) => Boolean(auth)

  it('redirects to the sign-in page with callbackUrl when `authorized` says no', async () => {
    const { auth } = NextAuth(config({ callbacks: { authorized } }))
    const answer = await auth(request('/dashboard?tab=1'))
    expect(answer.status).toBe(307)
    const location = new URL(answer.headers.get('location') ?? '')
    expect(location.pathname).toBe('/api/auth/signin')
    expect(location.searchParams.get('callbackUrl')).toBe(`${origin}/dashboard?tab=1`)
  })

  it('sends to pages.signIn, and never redirects the sign-in page or the auth endpoints themselves', async () => {
    const { auth } = NextAuth(config({ callbacks: { authorized }, pages: { signIn: '/login' } }))
    expect(new URL((await auth(request('/dashboard'))).headers.get('location') ?? '').pathname).toBe('/login')
    expect((await auth(request('/login'))).headers.get('x-middleware-next')).toBe('1')
    expect((await auth(request('/api/auth/providers'))).headers.get('x-middleware-next')).toBe('1')
  })

  it('lets a signed-in request go on, `authorized` seeing its session', async () => {
    const seen: unknown[] = []
    const { auth, handlers } = NextAuth(
      config({
        callbacks: {
          authorized: ({ auth: session }) => {
            seen.push(session?.user?.name)
            return Boolean(session)
          },
        },
      }),
    )
    const { jar } = await signedIn(handlers)
    const answer = await auth(request('/dashboard', jar))
    expect(answer.headers.get('x-middleware-next')).toBe('1')
    expect(seen).toEqual(['Alice'])
  })

  it('answers with the Response `authorized` returns', async () => {
    const { auth } = NextAuth(config({ callbacks: { authorized: () => new Response('teapot', { status: 418 }) } }))
    expect((await auth(request('/anything'))).status).toBe(418)
  })
})

describe('auth(fn) wrapping a Middleware or a Route Handler', () => {
  it('puts the session on request.auth', async () => {
    const { auth, handlers } = NextAuth(config())
    const handler = auth((req: NextAuthRequest) => Response.json({ name: req.auth?.user?.name ?? null }))
    const { jar } = await signedIn(handlers)
    const context = { params: Promise.resolve({}) }
    expect(await (await handler(request('/api/me', jar), context)).json()).toEqual({ name: 'Alice' })
    expect(await (await handler(request('/api/me'), context)).json()).toEqual({ name: null })
  })

  it('builds a lazy configuration from the request it runs for', async () => {
    const paths: string[] = []
    const options = config()
    const { auth } = NextAuth((req) => {
      if (req) paths.push(req.nextUrl.pathname)
      return options
    })
    await auth(request('/first'))
    expect(paths).toEqual(['/first'])
  })
})

describe('the Edge runtime', () => {
  it('is refused with the fix named, not with a missing module', async () => {
    const { handlers, auth } = NextAuth(config())
    process.env.NEXT_RUNTIME = 'edge'
    await expect(handlers.GET(request('/api/auth/session'))).rejects.toThrow(/runtime = "nodejs"/)
    await expect(auth(request('/dashboard'))).rejects.toThrow(/Node\.js runtime/)
  })
})
