/**
 * One HTTP server for bench/http.bench.ts, in a process of its own (the load generator runs in the parent): a
 * library (`authchart` or `authjs`) behind a server (`node` for node:http, `express`), with the same credentials
 * config for both. It tells the parent its port over IPC.
 *
 * - Authchart on node:http uses its Node binding (`toNodeHandler`, authchart/node); on Express, `ExpressAuth`.
 * - @auth/core on node:http: it ships no Node binding, so the server turns the request into a web `Request` and
 *   writes the `Response` back with the few lines every such glue has; on Express, the official `@auth/express`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { ExpressAuth as AuthJsExpress } from '@auth/express'
import express from 'express'
import { ExpressAuth } from '../src/frameworks/express.js'
import { toNodeHandler } from '../src/frameworks/node.js'
import Credentials from '../src/providers/credentials.js'
import { benchSecret } from './http-config.js'

const user = { id: 'u-1', name: 'Bench User', email: 'bench@example.com' }
const authorize = async (c: Partial<Record<string, unknown>>) =>
  c.username === 'bench' && c.password === 'pw' ? user : null
const credentials = { username: {}, password: {} }
const shape = { secret: benchSecret, trustHost: true, basePath: '/auth' }

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** node:http → web Request → handler → web Response → node:http. */
function webGlue(handler: (request: Request) => Promise<Response>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    const body = await readBody(req)
    const response = await handler(
      new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: body ? new Uint8Array(body) : undefined,
      }),
    )
    const out: string[] = []
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out.push(name, value)
    })
    for (const cookie of response.headers.getSetCookie()) out.push('set-cookie', cookie)
    res.writeHead(response.status, out)
    res.end(Buffer.from(await response.arrayBuffer()))
  }
}

function listener(library: string, server: string) {
  if (library === 'authchart') {
    const config = { ...shape, providers: [Credentials({ credentials, authorize })] }
    if (server === 'node') return toNodeHandler(config)
    const app = express()
    // Mounted as the Express app below mounts @auth/express, so both pay the same routing.
    app.use(/^\/auth\/(.*)/, ExpressAuth(config))
    return app
  }
  const config = { ...shape, providers: [AuthJsCredentials({ credentials, authorize })] }
  if (server === 'node') return webGlue((request) => AuthJs(request, config))
  const app = express()
  app.use(/^\/auth\/(.*)/, AuthJsExpress(config))
  return app
}

const [library = 'authchart', server = 'node'] = process.argv.slice(2)
const handle = listener(library, server)
const http = createServer((req, res) => void handle(req, res))
http.keepAliveTimeout = 60_000
http.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (http.address() as AddressInfo).port })
})
process.on('disconnect', () => process.exit(0))
