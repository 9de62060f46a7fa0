/**
 * A stand-in for vendors' OAuth endpoints, on node:http at a random loopback port. The vendors themselves cannot be
 * reached from tests, so each vendor test registers that vendor's token / userinfo / discovery answers here, and the
 * provider's `customFetch` (the public hook for exactly this) carries every `https://<vendor host>/<path>` request
 * to `http://127.0.0.1:<port>/<vendor host>/<path>`. The providers keep their real URLs, so the test also proves
 * which URLs they call.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import type { FetchFunction } from '../../src/types/symbols.js'
import { urlOfFetchInput } from '../support/fetch-input.js'
import { readRequestBody } from '../support/read-request-body.js'

/** A request the fake received, under the vendor URL it was meant for. */
export interface RecordedRequest {
  method: string
  url: URL
  headers: Headers
  body: string
  form: URLSearchParams
}

/** What a handler answers: JSON, or raw bytes with headers. */
export interface FakeAnswer {
  status?: number
  json?: unknown
  body?: string | Uint8Array
  headers?: Record<string, string>
}

type Handler = (request: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>

export interface FakeVendorServer {
  /** The provider `customFetch` that routes vendor URLs here. */
  fetch: FetchFunction
  /** Answers `method url` (query ignored) with `handler`. */
  on(method: 'GET' | 'POST', url: string, handler: Handler): void
  /** Every request received so far. */
  requests: RecordedRequest[]
  /** The requests for one vendor URL (query ignored). */
  requestsTo(url: string): RecordedRequest[]
  /** Signs an ID token with the key published by `jwks()`. */
  signIdToken(claims: JWTPayload): Promise<string>
  /** The public JWKS to serve at the vendor's jwks_uri. */
  jwks(): { keys: object[] }
  reset(): void
  close(): Promise<void>
}

const keyOf = (method: string, url: URL) => `${method} ${url.origin}${url.pathname}`

/** Starts an empty fake; register answers with `on()`. */
export async function startFakeVendorServer(): Promise<FakeVendorServer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'vendor-key', alg: 'RS256', use: 'sig' }
  const handlers = new Map<string, Handler>()
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const [, host = '', ...rest] = (req.url ?? '/').split('/')
    const url = new URL(`https://${host}/${rest.join('/')}`)
    readRequestBody(req)
      .then(async (body) => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
        const request: RecordedRequest = {
          method: req.method ?? 'GET',
          url,
          headers,
          body,
          form: new URLSearchParams(body),
        }
        requests.push(request)
        const handler = handlers.get(keyOf(request.method, url))
        const answer = handler
          ? await handler(request)
          : { status: 404, json: { error: 'no fake for this vendor URL', url: url.href } }
        const contentType = answer.json !== undefined ? { 'content-type': 'application/json' } : {}
        res.writeHead(answer.status ?? 200, { ...contentType, ...answer.headers })
        res.end(answer.json !== undefined ? JSON.stringify(answer.json) : answer.body)
      })
      .catch((err: unknown) => res.writeHead(500).end(String(err)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    fetch: (input, init) => {
      const target = new URL(urlOfFetchInput(input))
      return fetch(`${origin}/${target.host}${target.pathname}${target.search}`, init)
    },
    on: (method, url, handler) => void handlers.set(keyOf(method, new URL(url)), handler),
    requests,
    requestsTo: (url) =>
      requests.filter((request) =>
        keyOf(request.method, request.url).endsWith(` ${new URL(url).origin}${new URL(url).pathname}`),
      ),
    signIdToken: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'vendor-key' }).sign(privateKey),
    jwks: () => ({ keys: [publicJwk] }),
    reset: () => {
      handlers.clear()
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
