/**
 * One instance of a site that runs Authchart behind Express, as a process of its own: the multi-instance and fault
 * tests start two (or one) of these with `node --import tsx`, so the instances share nothing but what a real
 * deployment shares (the secret, the OpenID Provider, and Redis when the flow store is Redis).
 *
 * Environment (all required unless a default is given):
 * - `PORT`: port on 127.0.0.1; `0` lets the OS pick (the test reads it back from the ready line, so no two suites
 *   ever race for one port)
 * - `AUTH_SECRET`: the secret every instance of the site shares
 * - `OP_ISSUER`, `OP_CLIENT_ID`, `OP_CLIENT_SECRET`: the OpenID Provider and this site's client there
 * - `FLOW_STORE`: `cookie` (stateless) or `redis`
 * - `REDIS_URL`, `REDIS_PREFIX`, `REDIS_TIMEOUT_MS` (default 2000): the Redis flow store, when `FLOW_STORE=redis`
 * - `REDIS_CLUSTER_NODES` (optional): `host:port,host:port,...` of a Redis Cluster, used instead of `REDIS_URL`
 * - `ADAPTER` (optional): `redis` keeps users, accounts and database sessions in the same Redis with `RedisAdapter`
 * - `INSTANCE`: a name for this instance, echoed by `GET /instance`
 * - `TOKEN_REFRESH` (optional): `1` keeps the provider's tokens with the session (`tokenRefresh`, margin 0, asking
 *   for `offline_access`) and serves `GET /access-token`, an app route that calls `getAccessToken`
 *
 * Besides `/auth/*` it answers `GET /instance` (name and pid) and `GET /transitions` (the flows' audit trail from
 * `onTransition`), test-only routes that a real site would not have, and with `TOKEN_REFRESH` the app route
 * `GET /access-token`.
 *
 * It prints `ready <port>` on stdout once it listens, logs each auth error as one line on stderr, and on SIGTERM
 * closes its server and Redis connection and exits. An unhandled rejection is left to Node's default (the process
 * dies), so a test that checks the process is still up also proves nothing escaped.
 */
import express from 'express'
import type { AddressInfo } from 'node:net'
import { Cluster, Redis } from 'ioredis'
import { RedisAdapter } from '../../../adapters/redis.js'
import { ExpressAuth, getAccessToken } from '../../../src/frameworks/express.js'
import { RedisFlowStore } from '../../../src/flow/stores/redis.js'
import OIDC from '../../../src/providers/oidc.js'
import type { AuthConfig, FlowStore, TransitionRecord } from '../../../src/types/index.js'

function required(name: string): string {
  const value = process.env[name]
  if (!value) {
    process.stderr.write(`auth-server: ${name} is required\n`)
    process.exit(2)
  }
  return value
}

const instance = process.env.INSTANCE ?? 'instance'
const storeKind = required('FLOW_STORE')
let redis: Redis | Cluster | undefined
let flowStore: FlowStore | undefined
const clusterNodes = process.env.REDIS_CLUSTER_NODES

/** A Cluster client with the bounded retries docs/flow-stores.md recommends: a dead primary costs a request seconds, not minutes. */
function clusterClient(nodes: string): Cluster {
  return new Cluster(
    nodes.split(',').map((node) => {
      const [host, port] = node.split(':')
      return { host: host, port: Number(port) }
    }),
    {
      redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 500, commandTimeout: 1500 },
      clusterRetryStrategy: () => 100,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: 500,
    },
  )
}

if (storeKind === 'redis') {
  redis = clusterNodes
    ? clusterClient(clusterNodes)
    : new Redis(required('REDIS_URL'), {
        // As docs/flow-stores.md recommends: a command cut off by a lost connection fails instead of being resent later.
        maxRetriesPerRequest: 1,
        // Reconnect quickly: the fault tests restart Redis and want the very next sign-in to work. ioredis's default
        // backs off up to 2 s, which is a fine choice for an app but would only slow the test down.
        retryStrategy: (attempt) => Math.min(attempt * 50, 200),
      })
  // Without a listener ioredis prints every connection error as "Unhandled error event"; the store reports the
  // failures that matter (as FlowStoreUnavailable, through the auth logger below).
  redis.on('error', () => {})
  flowStore = RedisFlowStore(redis, {
    prefix: required('REDIS_PREFIX'),
    operationTimeoutMs: Number(process.env.REDIS_TIMEOUT_MS ?? '2000'),
  })
} else if (storeKind !== 'cookie') {
  process.stderr.write(`auth-server: FLOW_STORE must be cookie or redis, not ${storeKind}\n`)
  process.exit(2)
}

const tokenRefresh = process.env.TOKEN_REFRESH === '1'

/** The audit trail of this process's flows, newest last; bounded, since a test may send thousands of requests. */
const transitions: TransitionRecord[] = []
const maxTransitions = 2000

const config: AuthConfig = {
  secret: required('AUTH_SECRET'),
  // Every instance sits behind the same load balancer and serves the same site origin, taken from the Host header.
  trustHost: true,
  providers: [
    OIDC({
      id: 'idp',
      name: 'Test IdP',
      issuer: required('OP_ISSUER'),
      clientId: required('OP_CLIENT_ID'),
      clientSecret: required('OP_CLIENT_SECRET'),
      checks: ['pkce', 'state', 'nonce'],
      ...(tokenRefresh
        ? {
            tokenRefresh: { margin: 0 },
            // oidc-provider issues a refresh token for offline_access, which it honours only with prompt=consent.
            authorization: { params: { scope: 'openid profile email offline_access', prompt: 'consent' } },
          }
        : {}),
    }),
  ],
  ...(flowStore ? { flowStore } : {}),
  ...(process.env.ADAPTER === 'redis' && redis
    ? { adapter: RedisAdapter(redis, { prefix: `${required('REDIS_PREFIX')}data:` }) }
    : {}),
  onTransition: (record) => {
    transitions.push(record)
    if (transitions.length > maxTransitions) transitions.splice(0, transitions.length - maxTransitions)
  },
  logger: {
    error: (error) => {
      process.stderr.write(`[${instance}] ${error.name}: ${error.message}\n`)
    },
    warn: (code) => {
      process.stderr.write(`[${instance}] warn ${code}\n`)
    },
    debug: () => {},
  },
}

const app = express()
app.use(ExpressAuth(config))
// Lets a test prove that two answers came from two different processes.
app.get('/instance', (_req, res) => {
  res.json({ instance, pid: process.pid })
})
// Lets a test see where each request's flow went (which transitions ran, on which event), not only its HTTP answer.
app.get('/transitions', (_req, res) => {
  res.json(transitions)
})
// An app route that calls the provider's API: it needs an access token that is still valid.
if (tokenRefresh) {
  app.get('/access-token', async (req, res) => {
    const result = await getAccessToken(req, config, 'idp', res)
    res.json({
      accessToken: result.accessToken,
      error: result.error,
      refreshed: result.error ? false : result.refreshed,
    })
  })
}

const server = app.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`)
})
server.on('error', (error) => {
  process.stderr.write(`auth-server: ${error.message}\n`)
  process.exit(1)
})

process.once('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => {
    redis?.disconnect()
    process.exit(0)
  })
})
