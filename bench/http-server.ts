/**
 * One HTTP server for bench/http.bench.ts, in a process of its own (the load generator runs in the parent): a
 * library (`authchart` or `authjs`) behind a server (`node` for node:http, `express`), with the same credentials
 * config for both. It tells the parent its port over IPC.
 *
 * - Authchart on node:http uses its Node binding (`toNodeHandler`, authchart/node); on Express, `ExpressAuth`.
 * - @auth/core on node:http: it ships no Node binding, so the server turns the request into a web `Request` and
 *   writes the `Response` back with the few lines every such glue has; on Express, the official `@auth/express`.
 * - A third argument `managed` gives Authchart session management (`RedisSessionStore` on `REDIS_URL`, 5,000
 *   revocations loaded, as bench/session-management.bench.ts): its keys are removed when the parent goes.
 * - `managed-and-plain` serves both in this one process, on two ports (`{ port, plainPort }`): the same config with
 *   session management and without, so a comparison of the two is not a comparison of two processes' speeds.
 *
 * The parent asks for the process's CPU time with the message `cpu` (answered `{ cpu }`, from `process.cpuUsage()`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { ExpressAuth as AuthJsExpress } from '@auth/express'
import express from 'express'
import { ExpressAuth } from '../src/frameworks/express.js'
import { toNodeHandler } from '../src/frameworks/node.js'
import type { RedisSessionStore } from '../src/flow/stores/logout.js'
import Credentials from '../src/providers/credentials.js'
import { benchSecret } from './http-config.js'
import { revokeSampleSessions } from './site-users.js'

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

function listener(library: string, server: string, store: RedisSessionStore | undefined) {
  if (library === 'authchart') {
    const config = {
      ...shape,
      providers: [Credentials({ credentials, authorize })],
      ...(store ? { sessionManagement: { store } } : {}),
    }
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

/** Session management's store for the `managed` variant, with a history of revocations its cache holds. */
async function managedStore(): Promise<{ store: RedisSessionStore; close: () => Promise<void> }> {
  // Loaded only here: ioredis declares a subclass of String, and on Node 20 that alone makes every optimised
  // `charCodeAt` in the process about 4 times slower (docs/benchmarks.md), so a server without Redis must not load it.
  const { Redis } = await import('ioredis')
  const { RedisSessionStore } = await import('../src/flow/stores/logout.js')
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
  const prefix = `authchart-bench-http:${process.pid}:`
  const store = new RedisSessionStore(redis, { prefix })
  await revokeSampleSessions(store)
  const close = async () => {
    await store.close()
    const keys = await redis.keys(`${prefix}*`)
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000))
    redis.disconnect()
  }
  return { store, close }
}

function listen(handle: ReturnType<typeof listener>): Promise<number> {
  const http = createServer((req, res) => void handle(req, res))
  http.keepAliveTimeout = 60_000
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve((http.address() as AddressInfo).port)))
}

const [library = 'authchart', server = 'node', variant = ''] = process.argv.slice(2)
const managed = variant === 'managed' || variant === 'managed-and-plain' ? await managedStore() : undefined
const port = await listen(listener(library, server, managed?.store))
const plainPort = variant === 'managed-and-plain' ? await listen(listener(library, server, undefined)) : undefined
process.send?.({ port, ...(plainPort ? { plainPort } : {}) })
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
})
process.on('disconnect', () => {
  void (managed ? managed.close().catch(() => undefined) : Promise.resolve()).then(() => process.exit(0))
})
