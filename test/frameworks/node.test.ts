/**
 * `toNodeHandler` (authchart/node) on a real node:http server: sign-in and the session check over HTTP, requests
 * outside the base path, refusals (Host, method, body size), HEAD, and the point of the binding: the session check
 * builds no web `Request` or `Response`, while an app callback that receives the request still gets a real one.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toNodeHandler } from '../../src/frameworks/node.js'
import Credentials from '../../src/providers/credentials.js'
import { CookieJar, recordingLogger, secret } from '../support/auth-harness.js'
import { http } from './express-http.js'

const user = { id: 'u-1', name: 'Ada', email: 'ada@example.com' }

function setup() {
  const recorded = recordingLogger()
  const seen: { request?: unknown; method?: string; body?: string } = {}
  const config = {
    secret,
    trustHost: true,
    logger: recorded.logger,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async (credentials, request) => {
          seen.request = request
          seen.method = request.method
          seen.body = await request.text()
          return credentials.username === 'ada' && credentials.password === 'pw' ? user : null
        },
      }),
    ],
  }
  return { config, recorded, seen }
}

describe('toNodeHandler on node:http', () => {
  const { config, recorded, seen } = setup()
  let server: Server
  let port: number
  beforeAll(async () => {
    const auth = toNodeHandler(config)
    server = createServer((req, res) => {
      void auth(req, res, () => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end('the app')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )

  const originals = { Request: globalThis.Request, Response: globalThis.Response }
  afterEach(() => {
    globalThis.Request = originals.Request
    globalThis.Response = originals.Response
  })

  async function signIn(jar: CookieJar) {
    const csrf = await http(port, '/auth/csrf', { jar })
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
    return http(port, '/auth/callback/credentials', { jar, form: { username: 'ada', password: 'pw', csrfToken } })
  }

  it('signs in with credentials over HTTP; authorize gets a real Request with the form body', async () => {
    const jar = new CookieJar()
    const result = await signIn(jar)
    expect(result.status).toBe(302)
    expect(result.cookies.some((c) => c.startsWith('authjs.session-token='))).toBe(true)
    expect(seen.request).toBeInstanceOf(Request)
    expect(seen.method).toBe('POST')
    expect(seen.body).toContain('username=ada')
  })

  it('answers the session check without building a web Request or Response', async () => {
    const jar = new CookieJar()
    await signIn(jar)
    let built = 0
    class CountingRequest extends originals.Request {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args)
        built++
      }
    }
    class CountingResponse extends originals.Response {
      constructor(...args: ConstructorParameters<typeof Response>) {
        super(...args)
        built++
      }
    }
    globalThis.Request = CountingRequest
    globalThis.Response = CountingResponse
    const result = await http(port, '/auth/session', { headers: { cookie: jar.header() } })
    globalThis.Request = originals.Request
    globalThis.Response = originals.Response
    expect(result.status).toBe(200)
    expect(result.headers['cache-control']).toBe('private, no-cache, no-store')
    expect(result.headers['content-type']).toBe('application/json')
    expect(JSON.parse(result.body)).toMatchObject({ user: { name: 'Ada', email: 'ada@example.com' } })
    expect(built).toBe(0)
  })

  it('sends Content-Length rather than chunked framing, for bodies and redirects alike', async () => {
    const session = await http(port, '/auth/session', { headers: { cookie: 'x=é' } })
    expect(session.headers['transfer-encoding']).toBeUndefined()
    expect(session.headers['content-length']).toBe(String(Buffer.byteLength(session.body)))
    const page = await http(port, '/auth/signin', { headers: { 'accept-language': 'ja' } })
    // A page in Japanese: the length counts bytes, not characters.
    expect(page.headers['content-length']).toBe(String(Buffer.byteLength(page.body)))
    expect(Buffer.byteLength(page.body)).toBeGreaterThan(page.body.length)
    const jar = new CookieJar()
    const redirect = await signIn(jar)
    expect(redirect.status).toBe(302)
    expect(redirect.headers['content-length']).toBe('0')
    expect(redirect.headers['transfer-encoding']).toBeUndefined()
  })

  it('answers null without a cookie, and HEAD with the headers only', async () => {
    expect(JSON.parse((await http(port, '/auth/session')).body)).toBeNull()
    const head = await http(port, '/auth/session', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-type']).toBe('application/json')
  })

  it('hands requests outside the base path to next', async () => {
    expect((await http(port, '/authors')).body).toBe('the app')
    expect((await http(port, '/')).body).toBe('the app')
  })

  it('refuses a malformed Host with 400 and a logged refusal, without a stack', async () => {
    const before = recorded.refusals.length
    const result = await http(port, '/auth/session', { headers: { host: 'bad host' } })
    expect(result.status).toBe(400)
    expect(JSON.parse(result.body)).toEqual({ error: 'InvalidRequest', message: 'The request could not be read' })
    expect(recorded.refusals.slice(before).map((r) => r.code)).toEqual(['refused:host'])
  })

  it('refuses a method no action serves with 405 and Allow', async () => {
    const result = await http(port, '/auth/session', { method: 'DELETE' })
    expect(result.status).toBe(405)
    expect(result.headers.allow).toBe('GET, HEAD, POST')
  })

  it('refuses a body over 64 KB with 413 and closes the connection', async () => {
    const before = recorded.refusals.length
    const result = await http(port, '/auth/callback/credentials', { form: { username: 'x'.repeat(70 * 1024) } })
    expect(result.status).toBe(413)
    expect(result.headers.connection).toBe('close')
    expect(recorded.refusals.slice(before).map((r) => r.code)).toEqual(['refused:body-size'])
  })
})

describe('toNodeHandler without next', () => {
  it('answers 404 outside the base path', async () => {
    const { config } = setup()
    const auth = toNodeHandler(config)
    const server = createServer((req, res) => void auth(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const result = await http((server.address() as AddressInfo).port, '/elsewhere')
      expect(result.status).toBe(404)
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
