import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import { toWebHandler } from '../../src/frameworks/web-handler.js'
import { raw } from '../../src/index.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, testConfig } from '../support/auth-harness.js'
import { cookieNames, http, startApp, type RunningApp } from './express-http.js'

type TestConfig = ReturnType<typeof testConfig>

/** The app every case starts from: the auth middleware, a route that reads the session, and a route of the app. */
function standardApp(config: AuthConfig, extra: (app: express.Express) => void = () => {}) {
  return (app: express.Express) => {
    extra(app)
    app.use(ExpressAuth(config))
    app.get('/me', async (req, res) => {
      res.json({ session: await getSession(req, config) })
    })
    app.get('/hello', (_req, res) => {
      res.type('text').send('hello from the app')
    })
    app.get('/authors', (_req, res) => {
      res.type('text').send('the app owns /authors')
    })
  }
}

async function csrf(port: number, jar: CookieJar, headers: Record<string, string> = {}): Promise<string> {
  const result = await http(port, '/auth/csrf', { jar, headers })
  expect(result.status).toBe(200)
  return (JSON.parse(result.body) as { csrfToken: string }).csrfToken
}

describe('ExpressAuth on a real Express 5 app', () => {
  let config: TestConfig
  let app: RunningApp
  beforeAll(async () => {
    config = testConfig()
    app = await startApp(
      standardApp(config, (a) => {
        // A cookie of the app's own, set before the auth middleware runs: it must survive the auth response.
        a.use((_req, res, next) => {
          res.cookie('app-pref', 'dark')
          next()
        })
      }),
    )
  })
  afterAll(() => app.close())

  it('GET /auth/providers lists the providers with absolute URLs on the request origin', async () => {
    const result = await http(app.port, '/auth/providers')
    expect(result.status).toBe(200)
    expect(result.headers['content-type']).toMatch(/application\/json/)
    expect(JSON.parse(result.body)).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `http://127.0.0.1:${app.port}/auth/signin/credentials`,
        callbackUrl: `http://127.0.0.1:${app.port}/auth/callback/credentials`,
      },
    })
  })

  it("GET /auth/csrf answers the token and sets its cookie next to the app's own cookie", async () => {
    const jar = new CookieJar()
    const result = await http(app.port, '/auth/csrf', { jar })
    expect(JSON.parse(result.body).csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(cookieNames(result).sort()).toEqual(['app-pref', 'authjs.csrf-token'])
    expect(decodeURIComponent(jar.cookies.get('authjs.csrf-token') ?? '')).toContain('|')
  })

  it('GET /auth/session without a session answers null', async () => {
    const result = await http(app.port, '/auth/session')
    expect(result.status).toBe(200)
    expect(JSON.parse(result.body)).toBeNull()
  })

  it('a credentials sign-in by form POST (raw body, no parser) signs the user in', async () => {
    const jar = new CookieJar()
    const csrfToken = await csrf(app.port, jar)
    const result = await http(app.port, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken, callbackUrl: '/dashboard' },
    })
    expect(result.status).toBe(302)
    expect(result.headers.location).toBe(`http://127.0.0.1:${app.port}/dashboard`)
    expect(cookieNames(result)).toContain('authjs.session-token')
    expect(result.cookies.length).toBeGreaterThanOrEqual(2)

    const session = JSON.parse((await http(app.port, '/auth/session', { jar })).body)
    expect(session.user).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' })
  })

  it('getSession(req, config) gives an app route the session, and null without one', async () => {
    const jar = new CookieJar()
    const csrfToken = await csrf(app.port, jar)
    await http(app.port, '/auth/callback/credentials', {
      jar,
      form: { username: 'alan', password: 'turing', csrfToken },
    })
    const signedIn = JSON.parse((await http(app.port, '/me', { jar })).body)
    expect(signedIn.session.user).toEqual({ name: 'Alan Turing', email: 'alan@example.com' })
    expect(Date.parse(signedIn.session.expires)).toBeGreaterThan(Date.now())
    expect(JSON.parse((await http(app.port, '/me')).body)).toEqual({ session: null })
  })

  it('wrong credentials redirect to the sign-in page with the error and set no session', async () => {
    const jar = new CookieJar()
    const csrfToken = await csrf(app.port, jar)
    const result = await http(app.port, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'nope', csrfToken },
    })
    expect(result.status).toBe(302)
    const location = new URL(result.headers.location as string)
    expect(location.pathname).toBe('/auth/signin')
    expect(location.searchParams.get('error')).toBe('CredentialsSignin')
    expect(cookieNames(result)).not.toContain('authjs.session-token')
  })

  it('a POST without the CSRF token is refused', async () => {
    const jar = new CookieJar()
    await csrf(app.port, jar)
    const result = await http(app.port, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace' },
    })
    expect(result.status).toBe(302)
    const location = new URL(result.headers.location as string)
    expect(location.pathname).toBe('/auth/signin')
    expect(location.searchParams.get('error')).toBeTruthy()
    expect(cookieNames(result)).not.toContain('authjs.session-token')
    expect(JSON.parse((await http(app.port, '/auth/session', { jar })).body)).toBeNull()
  })

  it('routes outside the base path reach the app, including look-alikes such as /authors', async () => {
    expect((await http(app.port, '/hello')).body).toBe('hello from the app')
    expect((await http(app.port, '/authors')).body).toBe('the app owns /authors')
    expect((await http(app.port, '/nowhere')).status).toBe(404)
  })

  it('HEAD is answered with the headers and no body', async () => {
    const result = await http(app.port, '/auth/providers', { method: 'HEAD' })
    expect(result.status).toBe(200)
    expect(result.body).toBe('')
  })

  it('a malformed Host header is refused before it can shape any URL', async () => {
    for (const host of ['evil.example/path', 'user@evil.example', 'a b']) {
      const result = await http(app.port, '/auth/providers', { headers: { host } })
      expect(result.status, host).toBe(400)
      expect(JSON.parse(result.body).error).toBe('InvalidRequest')
    }
  })

  it("a body over the binding's limit is refused with 413", async () => {
    const result = await http(app.port, '/auth/callback/credentials', {
      body: 'a='.padEnd(2 * 1024 * 1024, 'x'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(result.status).toBe(413)
  })
})

describe('ExpressAuth after body parsers', () => {
  for (const [label, parsers] of [
    ['urlencoded (simple) + json', [express.urlencoded({ extended: false }), express.json()]],
    ['urlencoded (extended) + json', [express.urlencoded({ extended: true }), express.json()]],
    ['text', [express.text({ type: '*/*' })]],
    ['raw', [express.raw({ type: '*/*' })]],
  ] as const) {
    describe(label, () => {
      let config: TestConfig
      let app: RunningApp
      beforeAll(async () => {
        config = testConfig()
        app = await startApp(
          standardApp(config, (a) => {
            for (const p of parsers) a.use(p)
          }),
        )
      })
      afterAll(() => app.close())

      it('signs in with a form POST the parser already consumed', async () => {
        const jar = new CookieJar()
        const csrfToken = await csrf(app.port, jar)
        const result = await http(app.port, '/auth/callback/credentials', {
          jar,
          form: { username: 'ada', password: 'lovelace', csrfToken, callbackUrl: '/after' },
        })
        expect(result.status).toBe(302)
        expect(result.headers.location).toBe(`http://127.0.0.1:${app.port}/after`)
        expect(JSON.parse((await http(app.port, '/me', { jar })).body).session.user.name).toBe('Ada Lovelace')
      })

      it('signs in with a JSON body', async () => {
        const jar = new CookieJar()
        const csrfToken = await csrf(app.port, jar)
        const result = await http(app.port, '/auth/callback/credentials', {
          jar,
          json: { username: 'alan', password: 'turing', csrfToken },
        })
        expect(result.status).toBe(302)
        expect(cookieNames(result)).toContain('authjs.session-token')
      })
    })
  }
})

describe('trust proxy decides the origin', () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'auth.public.example' }
  let trusting: RunningApp
  let direct: RunningApp
  let config: TestConfig
  beforeAll(async () => {
    config = testConfig()
    trusting = await startApp(
      standardApp(config, (a) => {
        a.set('trust proxy', 'loopback')
      }),
    )
    direct = await startApp(standardApp(config))
  })
  afterAll(async () => {
    await trusting.close()
    await direct.close()
  })

  it('behind a trusted proxy: https origin from X-Forwarded-Proto and -Host, secure cookie names', async () => {
    const providers = JSON.parse((await http(trusting.port, '/auth/providers', { headers: forwarded })).body)
    expect(providers.credentials.signinUrl).toBe('https://auth.public.example/auth/signin/credentials')

    const jar = new CookieJar()
    const csrfResult = await http(trusting.port, '/auth/csrf', { jar, headers: forwarded })
    expect(cookieNames(csrfResult)).toEqual(['__Host-authjs.csrf-token'])
    expect(csrfResult.cookies[0]).toMatch(/;\s*Secure/i)
    const csrfToken = JSON.parse(csrfResult.body).csrfToken as string

    const result = await http(trusting.port, '/auth/callback/credentials', {
      jar,
      headers: forwarded,
      form: { username: 'ada', password: 'lovelace', csrfToken, callbackUrl: '/dashboard' },
    })
    expect(result.headers.location).toBe('https://auth.public.example/dashboard')
    expect(cookieNames(result)).toContain('__Secure-authjs.session-token')
    const me = JSON.parse((await http(trusting.port, '/me', { jar, headers: forwarded })).body)
    expect(me.session.user.email).toBe('ada@example.com')
  })

  it('without trust proxy the forwarded headers are ignored', async () => {
    const providers = JSON.parse((await http(direct.port, '/auth/providers', { headers: forwarded })).body)
    expect(providers.credentials.signinUrl).toBe(`http://127.0.0.1:${direct.port}/auth/signin/credentials`)
    expect(cookieNames(await http(direct.port, '/auth/csrf', { headers: forwarded }))).toEqual(['authjs.csrf-token'])
  })
})

describe('ExpressAuth mounted under its base path, with a custom base path', () => {
  let app: RunningApp
  let config: TestConfig
  beforeAll(async () => {
    config = testConfig({ basePath: '/api/auth' })
    app = await startApp((a) => {
      a.use('/api/auth', ExpressAuth(config))
      a.get('/api/other', (_req, res) => {
        res.send('other')
      })
      a.get('/me', async (req, res) => {
        res.json({ session: await getSession(req, config) })
      })
    })
  })
  afterAll(() => app.close())

  it('serves the actions under the mount path and signs in', async () => {
    const providers = JSON.parse((await http(app.port, '/api/auth/providers')).body)
    expect(providers.credentials.callbackUrl).toBe(`http://127.0.0.1:${app.port}/api/auth/callback/credentials`)
    const jar = new CookieJar()
    const token = JSON.parse((await http(app.port, '/api/auth/csrf', { jar })).body).csrfToken as string
    const result = await http(app.port, '/api/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: token },
    })
    expect(result.status).toBe(302)
    expect(JSON.parse((await http(app.port, '/me', { jar })).body).session.user.name).toBe('Ada Lovelace')
    expect((await http(app.port, '/api/other')).body).toBe('other')
  })
})

describe('toWebHandler: the fetch-style handler', () => {
  it('answers web Requests directly, as Hono, Bun or Deno would hand them over', async () => {
    const config = testConfig()
    const handle = toWebHandler(config)
    const providers = await handle(new Request('https://app.example/auth/providers'))
    expect(providers.status).toBe(200)
    expect(((await providers.json()) as Record<string, { signinUrl: string }>).credentials.signinUrl).toBe(
      'https://app.example/auth/signin/credentials',
    )

    const csrf = await handle(new Request('https://app.example/auth/csrf'))
    const cookie = csrf.headers.getSetCookie()[0].split(';')[0]
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const signIn = await handle(
      new Request('https://app.example/auth/callback/credentials', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'ada', password: 'lovelace', csrfToken }).toString(),
      }),
    )
    expect(signIn.status).toBe(302)
    expect(signIn.headers.getSetCookie().some((c) => c.startsWith('__Secure-authjs.session-token='))).toBe(true)
  })

  it('applies the base-path default once and leaves an explicit one alone', () => {
    const defaulted: AuthConfig = testConfig()
    toWebHandler(defaulted)
    expect(defaulted.basePath).toBe('/auth')
    const explicit: AuthConfig = testConfig({ basePath: '/api/auth' })
    toWebHandler(explicit)
    expect(explicit.basePath).toBe('/api/auth')
  })

  it('a config in raw mode cannot serve HTTP: a bare 500, and the log says why', async () => {
    const config = testConfig({ raw })
    const response = await toWebHandler(config)(new Request('https://app.example/auth/providers'))
    expect(response.status).toBe(500)
    expect(await response.text()).toBe('Internal Server Error')
    expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('InvalidConfig')
  })
})
