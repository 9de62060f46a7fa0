/**
 * Node's request and response objects as `Auth()` reads and answers them, for the Node and Express bindings: the
 * method, URL and headers are read where Node already parsed them, the body only when an action asks for it, and a
 * web `Request` is built only for the app callbacks that receive one (`authorize(credentials, request)` ...). The
 * answer is written straight onto Node's response. A session check thus builds neither a `Request` nor a `Response`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  BodyTimeout,
  BodyTooLarge,
  defaultBodyTimeoutMs,
  maxBodyBytes,
  withinBodyDeadline,
  type IncomingRequest,
} from '../../core/request.js'
import type { WireResponse } from '../../core/response.js'
import { InvalidRequest } from '../../errors.js'

/** Connection-scoped headers: they describe the hop to this server, not the request, and must not be forwarded. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
])

/** Reads Node's request stream, refusing more than `maxBodyBytes`. */
export async function readNodeStream(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer | string>) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buffer.length
      if (size > maxBodyBytes) throw new BodyTooLarge('request body is too large', { limit: maxBodyBytes })
      chunks.push(buffer)
    }
  } catch (err) {
    if (err instanceof BodyTooLarge) throw err
    throw new InvalidRequest('request body could not be read', { err: err instanceof Error ? err : undefined })
  }
  return Buffer.concat(chunks)
}

/** Where the body comes from: the raw stream, or (Express) what a body parser left behind. */
export type NodeBodySource<R extends IncomingMessage = IncomingMessage> = (
  req: R,
) => Promise<string | Uint8Array | undefined>

const streamBody: NodeBodySource = (req) =>
  req.method === 'GET' || req.method === 'HEAD' ? Promise.resolve(undefined) : readNodeStream(req)

/** Node's request as `Auth()` reads it. */
export class NodeIncoming<R extends IncomingMessage = IncomingMessage> implements IncomingRequest {
  #body: string | undefined
  /**
   * The body was refused for its size or its slowness: the rest of it is unread, so the connection cannot carry
   * another request.
   */
  bodyRefused = false

  constructor(
    private readonly req: R,
    /** The absolute URL: the origin the binding decided, then the path and query. */
    readonly url: string,
    private readonly bodySource: NodeBodySource<R> = streamBody,
    /** The client's address as the host decided it (Express: `req.ip`); default the socket's peer. */
    readonly peerAddress: string | undefined = req.socket?.remoteAddress,
  ) {}

  get method(): string {
    return this.req.method ?? 'GET'
  }

  header(name: string): string | null {
    const value = this.req.headers[name]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(name === 'cookie' ? '; ' : ', ') : value
  }

  async readBody(timeoutMs = defaultBodyTimeoutMs): Promise<string | undefined> {
    let body: string | Uint8Array | undefined
    try {
      // Past the deadline the stream is left unread; the answer closes the connection, which ends the read.
      body = await withinBodyDeadline(this.bodySource(this.req), timeoutMs, () => this.req.pause())
    } catch (err) {
      if (err instanceof BodyTooLarge || err instanceof BodyTimeout) this.bodyRefused = true
      throw err
    }
    this.#body = body === undefined || typeof body === 'string' ? body : Buffer.from(body).toString('utf8')
    return this.#body
  }

  toRequest(): Request {
    const headers = new Headers()
    const raw = this.req.rawHeaders
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]
      if (name.startsWith(':') || hopByHop.has(name.toLowerCase())) continue
      headers.append(name, raw[i + 1])
    }
    const method = this.method
    const hasBody = method !== 'GET' && method !== 'HEAD' && this.#body !== undefined
    return new Request(this.url, { method, headers, body: hasBody ? this.#body : undefined })
  }
}

/**
 * Writes an answer onto Node's response. Headers set earlier on `res` (by other middleware) are kept, and Set-Cookie
 * lines are appended to theirs; a response nobody touched gets its head in one call.
 */
export function writeWire(res: ServerResponse, wire: WireResponse, options: { head: boolean; close?: boolean }): void {
  const body = options.head ? undefined : (wire.body ?? undefined)
  if (!options.close && res.getHeaderNames().length === 0) {
    const flat: string[] = []
    for (const name in wire.headers) flat.push(name, wire.headers[name])
    for (const cookie of wire.cookies) flat.push('set-cookie', cookie)
    // With the head written first, Node knows no length and frames the body in chunks: say how long it is instead.
    if (!options.head && wire.status !== 204 && wire.status !== 304 && wire.headers['content-length'] === undefined)
      flat.push('content-length', body === undefined ? '0' : String(Buffer.byteLength(body)))
    res.writeHead(wire.status, flat)
    res.end(body)
    return
  }
  res.statusCode = wire.status
  for (const name in wire.headers) res.setHeader(name, wire.headers[name])
  if (wire.cookies.length > 0) res.appendHeader('set-cookie', wire.cookies)
  if (options.close) res.setHeader('connection', 'close')
  res.end(body)
}
