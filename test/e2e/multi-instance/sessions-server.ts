/**
 * One instance of a site with session management, as a process of its own (the session-revocation suite starts two
 * on one Redis or one Redis Cluster): credentials sign-in (any user name, a user the adapter knows for database
 * sessions), `RedisSessionStore`, and `RedisAdapter` when `STRATEGY=database`. Served with node:http and `Auth()`.
 *
 * Environment: `PORT` (0: the OS picks; read back from the `ready <port>` line), `AUTH_SECRET`, `STRATEGY`
 * (`jwt` or `database`), `REDIS_URL` or `REDIS_CLUSTER_NODES` (`host:port,...`), `REDIS_PREFIX`.
 *
 * Besides `/auth/*` it serves `POST /app/revoke-user?userId=...`, app code calling `revokeUserSessions`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Cluster, Redis } from 'ioredis'
import { RedisAdapter } from '../../../adapters/redis.js'
import { RedisSessionStore } from '../../../src/flow/stores/logout.js'
import { Auth, revokeUserSessions, setClientAddress } from '../../../src/index.js'
import Credentials from '../../../src/providers/credentials.js'
import type { AuthConfig } from '../../../src/types/index.js'

const env = (name: string) => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`sessions-server: ${name} is required`)
  return value
}
const prefix = env('REDIS_PREFIX')
const nodes = process.env.REDIS_CLUSTER_NODES
const redis: Redis | Cluster = nodes
  ? new Cluster(
      nodes.split(',').map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) })),
      { redisOptions: { maxRetriesPerRequest: 1 } },
    )
  : new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 1 })
redis.on('error', () => {})
const store = new RedisSessionStore(redis, { prefix })
const database = env('STRATEGY') === 'database'

const config: AuthConfig = {
  secret: env('AUTH_SECRET'),
  trustHost: true,
  providers: [
    Credentials({
      credentials: { username: { label: 'User' } },
      authorize: (input) =>
        typeof input.username === 'string'
          ? { id: input.username, name: input.username, email: `${input.username}@example.com` }
          : null,
    }),
  ],
  session: { strategy: database ? 'database' : 'jwt' },
  ...(database ? { adapter: RedisAdapter(redis, { prefix: `${prefix}data:` }) } : {}),
  sessionManagement: { store },
  logger: { error: (error) => process.stderr.write(`auth error: ${error.name}: ${error.message}\n`) },
}

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'app.test'}`)
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  if (url.pathname === '/app/revoke-user' && req.method === 'POST') {
    const ended = await revokeUserSessions(config, url.searchParams.get('userId') ?? '')
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ended }))
    return
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
  const request = new Request(url, {
    method: req.method,
    headers,
    ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
  })
  setClientAddress(request, req.socket.remoteAddress)
  const response = await Auth(request, config)
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) out['set-cookie'] = cookies
  res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()))
}

const server = createServer((req, res) => {
  serve(req, res).catch((error: unknown) => {
    process.stderr.write(`sessions-server: ${String(error)}\n`)
    res.writeHead(500).end()
  })
})
server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`)
})
process.on('SIGTERM', () => {
  server.close()
  void store.close().finally(() => {
    redis.disconnect()
    process.exit(0)
  })
})
