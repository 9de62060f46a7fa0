/**
 * The smaller defects of the attack run, each pinned: the configured URL wins over Host in every binding; malformed
 * hosts, unserved methods and oversized streamed bodies are refused cleanly; credentials users without an id never
 * share `token.sub`; the untrusted-host page echoes nothing; a bare callback leaves a sign-in under way alone; session
 * tokens without `exp` or with a lifetime beyond `maxAge` are no sessions.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { InvalidRequest } from '../../src/errors.js'
import { ExpressAuth, getSession } from '../../src/frameworks/express.js'
import { toWebHandler } from '../../src/frameworks/web-handler.js'
import { Auth } from '../../src/index.js'
import { decode, encode } from '../../src/jwt.js'
import Credentials from '../../src/providers/credentials.js'
import OIDC from '../../src/providers/oidc.js'
import { deriveSessionTokenKey } from '../../src/session/hkdf-keys.js'
import { sealCompactJwe } from '../../src/session/jwe.js'
import { cookieNames, http, startApp, type RunningApp } from '../frameworks/express-http.js'
import { CookieJar, csrfToken, origin, send, session, signIn, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const configured = 'https://app.example.test'

describe('the configured URL decides every origin', () => {
  let app: RunningApp
  const config = testConfig({ url: `${configured}/auth` })
  beforeAll(async () => {
    app = await startApp((server) => {
      server.use(ExpressAuth(config))
      server.get('/me', async (req, res) => {
        res.json(await getSession(req, config))
      })
    })
  })
  afterAll(() => app?.close())

  it('ExpressAuth builds provider URLs from it, not from a forged Host or X-Forwarded-Host', async () => {
    const result = await http(app.port, '/auth/providers', {
      headers: { host: 'evil.attacker.test', 'x-forwarded-host': 'evil2.attacker.test' },
    })
    expect(result.status).toBe(200)
    expect(JSON.parse(result.body)).toMatchObject({
      credentials: {
        signinUrl: `${configured}/auth/signin/credentials`,
        callbackUrl: `${configured}/auth/callback/credentials`,
      },
    })
    expect(result.body).not.toContain('attacker')
  })

  it('its https origin selects the __Secure- cookies even over plain HTTP behind a proxy', async () => {
    const result = await http(app.port, '/auth/csrf', { headers: { host: 'evil.attacker.test' } })
    expect(cookieNames(result)).toContain('__Host-authjs.csrf-token')
  })

  it('getSession does not read Host when a URL is configured, so a junk Host is no error', async () => {
    const result = await http(app.port, '/me', { headers: { host: 'junk host:99999' } })
    expect(result.status).toBe(200)
    expect(result.body).toBe('null')
  })

  describe('AUTH_URL in the environment', () => {
    const saved = process.env.AUTH_URL
    afterEach(() => {
      if (saved === undefined) delete process.env.AUTH_URL
      else process.env.AUTH_URL = saved
    })

    it('toWebHandler and Auth() honour AUTH_URL', async () => {
      process.env.AUTH_URL = `${configured}/auth`
      const handler = toWebHandler(testConfig())
      const viaHandler = (await (
        await handler(new Request('http://evil.attacker.test/auth/providers'))
      ).json()) as Record<string, { callbackUrl: string }>
      expect(viaHandler.credentials?.callbackUrl).toBe(`${configured}/auth/callback/credentials`)
      const viaAuth = (await (
        await Auth(new Request('http://evil.attacker.test/auth/providers'), testConfig())
      ).json()) as Record<string, { callbackUrl: string }>
      expect(viaAuth.credentials?.callbackUrl).toBe(`${configured}/auth/callback/credentials`)
    })

    it('a configured URL that is not an absolute http(s) URL is a configuration error, not a fallback to Host', async () => {
      const config = testConfig({ url: 'app.example.test/auth' })
      const response = await send(config, '/auth/providers')
      expect(response.status).toBe(500)
      expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('InvalidConfig')
    })
  })
})

describe('malformed hosts', () => {
  let app: RunningApp
  const config = testConfig()
  beforeAll(async () => {
    app = await startApp((server) => {
      server.use(ExpressAuth(config))
      server.get('/me', async (req, res) => {
        try {
          res.json(await getSession(req, config))
        } catch (error) {
          res.status(418).json({ thrown: error instanceof InvalidRequest ? 'InvalidRequest' : String(error) })
        }
      })
    })
  })
  afterAll(() => app?.close())

  it.each(['example.test:99999', 'user@example.test', 'exa mple.test', '[zz]:80', 'example.test:0', 'a'.repeat(300)])(
    'Host %s: ExpressAuth answers 400 JSON with no stack, and logs refused:host',
    async (host) => {
      const before = config.recorded.refusals.length
      const result = await http(app.port, '/auth/session', { headers: { host } })
      expect(result.status).toBe(400)
      expect(JSON.parse(result.body)).toEqual({ error: 'InvalidRequest', message: 'The request could not be read' })
      expect(config.recorded.refusals.slice(before).map((r) => r.code)).toEqual(['refused:host'])
    },
  )

  it('getSession throws the documented InvalidRequest for a malformed Host, not a TypeError', async () => {
    const result = await http(app.port, '/me', { headers: { host: 'example.test:99999' } })
    expect(JSON.parse(result.body)).toEqual({ thrown: 'InvalidRequest' })
  })

  it('Auth() refuses a request URL carrying user info when the host decides the origin', async () => {
    // undici will not build a Request whose URL carries credentials, so only a hand-built request can carry one.
    const { parseRequest, UnusableHost } = await import('../../src/core/request.js')
    const handBuilt = {
      url: 'http://u:p@example.test/auth/session',
      method: 'GET',
      headers: new Headers(),
      body: null,
    } as unknown as Request
    // A GET is parsed without a promise: the refusal is thrown at once.
    expect(() => parseRequest(handBuilt, '/auth', { hostDecidesOrigin: true })).toThrow(UnusableHost)
    expect(parseRequest(handBuilt, '/auth', { hostDecidesOrigin: false })).toMatchObject({
      action: 'session',
    })
  })
})

describe('methods no action serves', () => {
  let app: RunningApp
  const config = testConfig()
  beforeAll(async () => {
    app = await startApp((server) => server.use(ExpressAuth(config)))
  })
  afterAll(() => app?.close())

  it.each(['TRACE', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'])(
    '%s through ExpressAuth answers 405 with Allow, never 500',
    async (method) => {
      const result = await http(app.port, '/auth/session', { method })
      expect(result.status).toBe(405)
      expect(result.headers.allow).toBe('GET, HEAD, POST')
      expect(result.body).not.toMatch(/at .*\.(ts|js)/)
    },
  )

  it.each(['PUT', 'DELETE', 'OPTIONS', 'PATCH'])(
    '%s through Auth() answers 405 with Allow and logs refused:method',
    async (method) => {
      const config = testConfig()
      const response = await send(config, '/auth/providers', { method })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST')
      expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:method'])
    },
  )
})

/** A body stream of `total` bytes with no declared length, counting what the server pulled from it. */
function countingStream(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(16 * 1024).fill(0x61)
  let sent = 0
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close()
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, pulled: () => sent }
}

describe('the 64 KiB body cap holds for streamed bodies', () => {
  const twentyMegabytes = 20 * 1024 * 1024
  const headers = { 'content-type': 'application/x-www-form-urlencoded' }

  it('Auth() reads at most the cap of a body without Content-Length, then answers 413', async () => {
    const config = testConfig()
    const { stream, pulled } = countingStream(twentyMegabytes)
    const response = await Auth(
      new Request(`${origin}/auth/callback/credentials`, {
        method: 'POST',
        headers,
        body: stream,
        duplex: 'half',
      } as RequestInit),
      config,
    )
    expect(response.status).toBe(413)
    expect(pulled()).toBeLessThan(256 * 1024)
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:body-size'])
  })

  it('toWebHandler does the same', async () => {
    const { stream, pulled } = countingStream(twentyMegabytes)
    const response = await toWebHandler(testConfig())(
      new Request(`${origin}/auth/callback/credentials`, {
        method: 'POST',
        headers,
        body: stream,
        duplex: 'half',
      } as RequestInit),
    )
    expect(response.status).toBe(413)
    expect(pulled()).toBeLessThan(256 * 1024)
  })

  it('ExpressAuth stops reading a chunked body past the cap and answers 413', async () => {
    const app = await startApp((server) => server.use(ExpressAuth(testConfig())))
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: app.port, path: '/auth/callback/credentials', method: 'POST', headers },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          },
        )
        req.on('error', (error) =>
          (error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as NodeJS.ErrnoException).code === 'EPIPE'
            ? undefined
            : reject(error),
        )
        // Chunked (no Content-Length): 200 KiB in 16 KiB writes; the server answers before it has read them all.
        const chunk = Buffer.alloc(16 * 1024, 0x61)
        for (let i = 0; i < 13; i++) req.write(chunk)
        req.end()
      })
      expect(status).toBe(413)
    } finally {
      await app.close()
    }
  })
})

describe('a body that stops arriving is answered within the body deadline', () => {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' }

  it('Auth() answers 408 at `bodyTimeout` and logs the refusal once', async () => {
    const config = testConfig({ bodyTimeout: 200 })
    // One byte, then nothing: the stream stays open, as a slow client's would.
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array([97])) })
    const started = performance.now()
    const response = await Auth(
      new Request(`${origin}/auth/callback/credentials`, {
        method: 'POST',
        headers,
        body,
        duplex: 'half',
      } as RequestInit),
      config,
    )
    expect(response.status).toBe(408)
    expect(await response.json()).toEqual({
      error: 'InvalidRequest',
      message: 'The request body did not arrive in time',
    })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:body-timeout'])
    expect(config.recorded.errors).toEqual([])
  })

  it("ExpressAuth answers a slow client 408 and closes its connection, not after Node's 300 s", async () => {
    const config = testConfig({ bodyTimeout: 300 })
    const app = await startApp((server) => server.use(ExpressAuth(config)))
    try {
      const started = performance.now()
      const answer = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: app.port,
            path: '/auth/callback/credentials',
            method: 'POST',
            headers: { ...headers, 'content-length': '100' },
          },
          (res) => {
            res.resume()
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection })
          },
        )
        req.on('error', reject)
        // 10 of the 100 declared bytes, then silence.
        req.write('username=a')
      })
      expect(answer).toEqual({ status: 408, connection: 'close' })
      expect(performance.now() - started).toBeLessThan(3000)
      expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:body-timeout'])
    } finally {
      await app.close()
    }
  })

  it('refuses a bodyTimeout that is not a positive number at start-up', async () => {
    const config = testConfig({ bodyTimeout: -1 })
    const response = await send(config, '/auth/session')
    expect(response.status).toBe(500)
    expect(config.recorded.errors.map((e) => e.message)).toContain(
      'bodyTimeout must be a positive number of milliseconds',
    )
  })
})

describe('credentials users without an id', () => {
  const anonymous = (id?: unknown) =>
    Credentials({
      credentials: { username: { label: 'Username' } },
      authorize: async (input) => ({ ...(id === undefined ? {} : { id }), name: String(input.username) }) as never,
    })

  async function subOf(config: ReturnType<typeof testConfig>, username: string): Promise<unknown> {
    const jar = new CookieJar()
    await send(config, '/auth/callback/credentials', {
      jar,
      form: { username, csrfToken: await csrfToken(config, jar) },
    })
    const token = await decode({
      token: jar.cookies.get('authjs.session-token'),
      secret: config.secret as string,
      salt: 'authjs.session-token',
    })
    return token?.sub
  }

  it('get a fresh random id each, so two of them never share token.sub', async () => {
    const config = testConfig({ providers: [anonymous()] })
    const first = await subOf(config, 'one')
    const second = await subOf(config, 'two')
    expect(typeof first).toBe('string')
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(second).not.toBe(first)
  })

  it('a numeric id becomes a string', async () => {
    const config = testConfig({ providers: [anonymous(42)] })
    expect(await subOf(config, 'n')).toBe('42')
  })
})

describe('an untrusted host', () => {
  it('gets a 500 page that does not echo the request origin', async () => {
    const config = testConfig({ trustHost: false })
    const response = await send(config, '/auth/signin', { base: 'http://evil-echo.attacker.test' })
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain('evil-echo')
  })
})

describe('a bare callback without OAuth parameters', () => {
  let op: RunningOidcProvider
  beforeAll(async () => {
    op = await startOidcProvider({
      clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${origin}/auth/callback/idp`] }],
    })
  })
  afterAll(() => op?.close())

  it('neither consumes nor clears the sign-in under way, which still completes afterwards', async () => {
    const config = testConfig({
      providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
    })
    const jar = new CookieJar()
    const start = await send(config, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/in' },
    })
    const flowCookie = jar.cookies.get('authchart.flow')
    expect(flowCookie).toBeDefined()
    const preview = await send(config, '/auth/callback/idp', { jar })
    expect(preview.headers.getSetCookie().some((line) => line.startsWith('authchart.flow='))).toBe(false)
    expect(jar.cookies.get('authchart.flow')).toBe(flowCookie)
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:callback-parameters'])
    const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const done = await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    expect(done.headers.get('location')).toBe(`${origin}/in`)
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('alice@example.test')
  })
})

describe('session tokens and their lifetime', () => {
  const salt = 'authjs.session-token'

  it('a token without exp is no session (and is logged as refused:session-token)', async () => {
    const config = testConfig()
    const key = deriveSessionTokenKey(config.secret as string, salt, 'A256CBC-HS512')
    const forever = sealCompactJwe(
      JSON.stringify({ name: 'Ada', sub: 'u-ada', iat: Math.floor(Date.now() / 1000) }),
      key,
      'A256CBC-HS512',
    )
    const jar = new CookieJar()
    jar.cookies.set(salt, forever)
    expect(await session(config, jar)).toBeNull()
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:session-token'])
  })

  it('a token whose exp lies beyond iat + maxAge is no session', async () => {
    const config = testConfig({ session: { maxAge: 3600 } })
    const jar = new CookieJar()
    jar.cookies.set(
      salt,
      await encode({
        token: { name: 'Ada', sub: 'u-ada' },
        secret: config.secret as string,
        salt,
        maxAge: 10 * 365 * 86400,
      }),
    )
    expect(await session(config, jar)).toBeNull()
  })

  it('a token issued under this maxAge is a session', async () => {
    const config = testConfig({ session: { maxAge: 3600 } })
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
  })
})
