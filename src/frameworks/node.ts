/**
 * The Node binding: a listener for node:http (or any server that hands over Node's request and response objects)
 * that answers the auth endpoints under `config.basePath` and passes every other request on.
 *
 * It reads Node's request where Node already parsed it and writes straight onto Node's response: the session check,
 * asked on every page view, builds no web `Request` or `Response` at all (src/frameworks/shared/node-io.ts).
 *
 * The origin is the configured `url` / `AUTH_URL` when there is one; otherwise the `Host` header with `https:` on a
 * TLS socket and `http:` elsewhere (behind a proxy that terminates TLS, configure `url`).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { toNodeHandler } from 'authchart/node'
 * const auth = toNodeHandler({ providers: [GitHub], secret: process.env.AUTH_SECRET })
 * createServer((req, res) => auth(req, res, () => app(req, res))).listen(3000)
 * ```
 * @module frameworks/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { answerIncoming } from '../core/auth.js'
import { FlowStoreUnavailable } from '../errors.js'
import { createLogger, logRefusal, type LoggerInstance } from '../logger.js'
import { isUsableHost, originOfUrl } from '../security/origin.js'
import type { AuthConfig } from '../types/index.js'
import { NodeIncoming, writeWire } from './shared/node-io.js'
import { basePathOf, isUnderBasePath, prepareConfig } from './web-handler.js'

export type { AuthConfig } from '../types/index.js'

/** What a request outside the base path is handed to; without one it is answered 404. */
export type NextHandler = () => void

/** A node:http listener (with an optional `next` for requests it does not serve). */
export type NodeAuthHandler = (req: IncomingMessage, res: ServerResponse, next?: NextHandler) => Promise<void>

function answer(res: ServerResponse, status: number, body: Record<string, string>): void {
  res.writeHead(status, ['content-type', 'application/json', 'cache-control', 'no-store'])
  res.end(JSON.stringify(body))
}

/** Builds the listener for `config` (environment defaults applied once, here). */
export function toNodeHandler(config: AuthConfig): NodeAuthHandler {
  prepareConfig(config)
  const basePath = basePathOf(config)
  let logger: LoggerInstance | undefined
  const log = () => (logger ??= createLogger(config))
  // A configured URL decides the origin once; a malformed one is reported by Auth() as a configuration error.
  const configured = typeof config.url === 'string' ? (originOfUrl(config.url) ?? 'http://localhost') : undefined

  return async (req, res, next) => {
    const path = req.url ?? '/'
    const query = path.indexOf('?')
    if (!isUnderBasePath(query === -1 ? path : path.slice(0, query), basePath)) {
      if (next) return next()
      return answer(res, 404, { error: 'NotFound', message: 'Not found' })
    }
    let origin = configured
    if (origin === undefined) {
      const host = req.headers.host
      if (host === undefined || !isUsableHost(host)) {
        logRefusal(log(), 'host', { reason: 'the Host header is missing or malformed', host: host?.slice(0, 80) })
        return answer(res, 400, { error: 'InvalidRequest', message: 'The request could not be read' })
      }
      origin = `${(req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http'}://${host}`
    }
    const incoming = new NodeIncoming(req, `${origin}${path}`)
    try {
      const wire = await answerIncoming(incoming, config)
      writeWire(res, wire, { head: req.method === 'HEAD', close: incoming.bodyRefused })
    } catch (error) {
      // Auth() answers every failure itself; this is the last line of defence, and never shows a stack trace.
      log().error(error instanceof Error ? error : new Error(String(error)))
      if (res.headersSent) return
      const status = error instanceof FlowStoreUnavailable ? 503 : 500
      res.writeHead(status, ['content-type', 'text/plain; charset=utf-8', 'cache-control', 'no-store'])
      res.end(status === 503 ? 'Service Unavailable' : 'Internal Server Error')
    }
  }
}
