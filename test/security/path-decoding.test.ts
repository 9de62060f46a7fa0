/**
 * Finding 14 of the limits review: the Qwik hook decoded a POST callback's provider id with `decodeURIComponent` and
 * threw `URIError` (a 500) on a malformed escape. Every binding now decodes paths through one helper that does not
 * throw: a path that is not valid percent-encoding is refused with a 400, never a 500 with a stack, never a session.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { decodePathSegment } from '../../src/core/path-segment.js'
import { ExpressAuth } from '../../src/frameworks/express.js'
import { toNodeHandler } from '../../src/frameworks/node.js'
import { answerAuthRequest, prepare } from '../../src/frameworks/qwik/server.js'
import { createHandlers } from '../../src/frameworks/solid-start/handlers.js'
import { SvelteKitAuth } from '../../src/frameworks/sveltekit/index.js'
import { toWebHandler } from '../../src/frameworks/web-handler.js'
import Credentials from '../../src/providers/credentials.js'
import GitHub from '../../src/providers/github.js'
import type { AuthConfig } from '../../src/types/index.js'
import { http, startApp } from '../frameworks/express-http.js'

const origin = 'http://localhost:3000'
/** Malformed escapes where a provider id, an action, or the segment after the base path stands. */
const malformed = [
  '/auth/callback/%E0%A4%A',
  '/auth/callback/%',
  '/auth/signin/%ZZ',
  '/auth/webauthn-options/%C0',
  '/auth/%E0%A4%A',
]

function config(): AuthConfig {
  return {
    secret: 'path-decoding-secret-0123456789abcdef-0123',
    trustHost: true,
    logger: { warn: () => undefined, error: () => undefined },
    providers: [
      Credentials({ credentials: { username: {}, password: {} }, authorize: () => ({ id: 'u1', name: 'Ada' }) }),
      GitHub({ clientId: 'id', clientSecret: 'secret' }),
    ],
  }
}

interface Answer {
  status: number | undefined
  body: string
  cookies: string[]
}

/** What every binding must answer: a 400 with a plain error, no stack, no session cookie. */
function expectRefused(answer: Answer, label: string): void {
  expect(answer.status, label).toBe(400)
  expect(answer.body, label).not.toMatch(/URIError|\n\s+at |Internal Server Error/)
  expect(
    answer.cookies.filter((line) => /session-token/.test(line)),
    label,
  ).toEqual([])
}

/** A same-origin form post (or GET) to `path`, as a web `Request`. */
function webRequest(path: string, method: 'GET' | 'POST'): Request {
  return new Request(`${origin}${path}`, {
    method,
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'POST' ? 'username=ada&password=pw' : undefined,
  })
}

async function fromResponse(response: Response | undefined): Promise<Answer> {
  return {
    status: response?.status,
    body: (await response?.text()) ?? '',
    cookies: response?.headers.getSetCookie() ?? [],
  }
}

const methods = ['GET', 'POST'] as const

describe('decodePathSegment', () => {
  it('decodes valid percent-encoding and gives undefined for a malformed escape, never throwing', () => {
    expect(decodePathSegment('my%20provider')).toBe('my provider')
    expect(decodePathSegment('%C3%A9')).toBe('é')
    for (const segment of ['%', '%E0%A4%A', '%ZZ', '%C0', '%ED%A0%80'])
      expect(decodePathSegment(segment)).toBeUndefined()
  })
})

describe('a malformed escape in the path is a 400 on every binding', () => {
  it('Express (over HTTP, mounted at a path and without one)', async () => {
    for (const mount of ['/auth', undefined]) {
      const app = await startApp((a) => (mount ? a.use(mount, ExpressAuth(config())) : a.use(ExpressAuth(config()))))
      try {
        for (const path of malformed)
          for (const method of methods) {
            const answer = await http(app.port, path, {
              method,
              headers: { host: 'localhost:3000', origin },
              form: method === 'POST' ? { username: 'ada', password: 'pw' } : undefined,
            })
            expectRefused(answer, `${String(mount)} ${method} ${path}`)
          }
      } finally {
        await app.close()
      }
    }
  })

  it('Express under a wildcard mount: its own router refuses the path (400) before ExpressAuth runs', async () => {
    // Documented in docs/security.md: Express decodes the wildcard's value itself and answers through the app's
    // error handler; the path never reaches ExpressAuth, and nobody is signed in.
    const app = await startApp((a) => a.use('/auth/{*splat}', ExpressAuth(config())))
    try {
      const answer = await http(app.port, '/auth/callback/%E0%A4%A', {
        headers: { host: 'localhost:3000', origin },
        form: { username: 'ada', password: 'pw' },
      })
      expect(answer.status).toBe(400)
      expect(answer.cookies).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('node:http (over HTTP)', async () => {
    const handler = toNodeHandler(config())
    const server = createServer((req, res) => void handler(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      for (const path of malformed)
        for (const method of methods) {
          const answer = await http(port, path, {
            method,
            headers: { host: 'localhost:3000', origin },
            form: method === 'POST' ? { username: 'ada', password: 'pw' } : undefined,
          })
          expectRefused(answer, `${method} ${path}`)
        }
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('the web handler', async () => {
    const handler = toWebHandler(config())
    for (const path of malformed)
      for (const method of methods) expectRefused(await fromResponse(await handler(webRequest(path, method))), path)
  })

  it('SvelteKit (handle)', async () => {
    const { handle } = SvelteKitAuth(config(), { env: {} })
    for (const path of malformed)
      for (const method of methods) {
        const request = webRequest(path, method)
        const event = {
          request,
          url: new URL(request.url),
          locals: {},
          platform: undefined,
          getClientAddress: () => '127.0.0.1',
        } as unknown as Parameters<typeof handle>[0]['event']
        const response = await handle({ event, resolve: () => new Response('the app') })
        expectRefused(await fromResponse(response), `${method} ${path}`)
      }
  })

  it('SolidStart (the catch-all handlers)', async () => {
    const handlers = createHandlers(config())
    for (const path of malformed)
      for (const method of methods) {
        const response = await handlers[method]({ request: webRequest(path, method), clientAddress: '127.0.0.1' })
        expectRefused(await fromResponse(response), `${method} ${path}`)
      }
  })

  it('Qwik (the request hook): a same-origin post is refused by Auth(), a cross-site one before it', async () => {
    const qwikConfig = prepare(config())
    for (const path of malformed)
      for (const method of methods) {
        const request = webRequest(path, method)
        const set: string[] = []
        const response = await answerAuthRequest(
          { request, url: new URL(request.url), sharedMap: new Map(), cookie: { set: (name) => void set.push(name) } },
          qwikConfig,
        )
        const answer = await fromResponse(response)
        expectRefused({ ...answer, cookies: set }, `${method} ${path}`)
      }
    const crossSite = new Request(`${origin}/auth/callback/%E0%A4%A`, {
      method: 'POST',
      headers: { origin: 'http://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=ada&password=pw',
    })
    const refused = await answerAuthRequest(
      { request: crossSite, url: new URL(crossSite.url), sharedMap: new Map(), cookie: { set: () => undefined } },
      qwikConfig,
    )
    expect(refused?.status).toBe(403)
  })
})
