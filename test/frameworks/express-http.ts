/** A real Express app on a loopback port, and a raw HTTP client that can send any Host or forwarded header. */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express, { type Express } from 'express'
import type { CookieJar } from '../support/auth-harness.js'

export interface RunningApp {
  port: number
  close(): Promise<void>
}

/** Builds an Express app (5 unless `create` makes another) with `setup`; listens on 127.0.0.1, on a port the OS picks. */
export async function startApp(setup: (app: Express) => void, create: () => Express = express): Promise<RunningApp> {
  const app = create()
  setup(app)
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}

export interface HttpResult {
  status: number
  headers: IncomingHttpHeaders
  /** Each Set-Cookie line as it came over the wire. */
  cookies: string[]
  body: string
}

export interface HttpOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  form?: Record<string, string>
  json?: unknown
  jar?: CookieJar
  /** The address the client connects from (any of 127.0.0.0/8 on loopback): another client, as the server sees it. */
  localAddress?: string
}

/** One HTTP/1.1 request; the jar, when given, sends its cookies and keeps what the answer sets. */
export async function http(port: number, path: string, options: HttpOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers }
  let body = options.body
  if (options.form) {
    body = new URLSearchParams(options.form).toString()
    headers['content-type'] ??= 'application/x-www-form-urlencoded'
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  }
  if (options.jar && options.jar.cookies.size > 0) headers.cookie ??= options.jar.header()
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  const method = options.method ?? (body === undefined ? 'GET' : 'POST')

  const result = await new Promise<HttpResult>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method, headers, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            cookies: res.headers['set-cookie'] ?? [],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
  if (options.jar) {
    const set = new Headers()
    for (const line of result.cookies) set.append('set-cookie', line)
    options.jar.take(new Response(null, { headers: set }))
  }
  return result
}

/** The names of the cookies a response set. */
export function cookieNames(result: HttpResult): string[] {
  return result.cookies.map((line) => line.slice(0, line.indexOf('=')))
}
