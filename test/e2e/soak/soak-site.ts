/**
 * One instance of the soak site (issue #38), as a process of its own: Express with `ExpressAuth`, every server-side
 * sign-in method (OIDC against the real oidc-provider, credentials, e-mail links through a real SMTP server), users
 * and accounts in PostgreSQL through the Kysely adapter, flows in Redis, session records and revocation in Redis.
 * The soak starts two of these on one Redis and one PostgreSQL (through `startInstance`, test/e2e/multi-instance).
 *
 * Environment, besides what `startInstance` sets (`PORT`, `INSTANCE`, `AUTH_SECRET`, `OP_*`, `REDIS_URL`,
 * `REDIS_PREFIX`): `AUTH_URL` (the site's one public origin, so no link is built from a Host header), `DATABASE_URL`
 * (PostgreSQL, perhaps through the soak's stall proxy), `SMTP_URL`, `ADAPTER_TIMEOUT_MS` (default 1000).
 *
 * Besides `/auth/*` it answers `GET /memory`: the heap after a full collection (the process runs with `--expose-gc`)
 * and the resident set, so the soak can tell a leak from garbage not yet collected.
 */
import express from 'express'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { KyselyAdapter } from '../../../adapters/sql/index.js'
import { RedisSessionStore } from '../../../src/flow/stores/logout.js'
import { RedisFlowStore } from '../../../src/flow/stores/redis.js'
import { ExpressAuth } from '../../../src/frameworks/express.js'
import Credentials from '../../../src/providers/credentials.js'
import Nodemailer from '../../../src/providers/nodemailer.js'
import OIDC from '../../../src/providers/oidc.js'
import { soakPassword } from './soak-users.js'

function required(name: string): string {
  const value = process.env[name]
  if (!value) {
    process.stderr.write(`soak-site: ${name} is required\n`)
    process.exit(2)
  }
  return value
}

const instance = required('INSTANCE')
const prefix = required('REDIS_PREFIX')
// As docs/flow-stores.md recommends: a command cut off by a lost connection fails instead of being resent later, and
// reconnects are quick, so the site heals within moments of Redis coming back.
const redis = new Redis(required('REDIS_URL'), {
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt) => Math.min(attempt * 50, 200),
})
redis.on('error', () => {})
const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: 10, connectionTimeoutMillis: 1000 })
// A stalled or restarted database breaks idle connections; the adapter reports what matters per call.
pool.on('error', () => {})
pool.on('connect', (client) => client.on('error', () => {}))
const sessionStore = new RedisSessionStore(redis, { prefix: `${prefix}sessions:` })

/** Error lines by name, and warn lines by code: the soak reads them to check every refusal was a documented one. */
const logged = new Map<string, number>()
const count = (key: string) => logged.set(key, (logged.get(key) ?? 0) + 1)

const app = express()
app.use(
  ExpressAuth({
    secret: required('AUTH_SECRET'),
    trustHost: true,
    session: { strategy: 'jwt' },
    adapter: KyselyAdapter(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })),
    adapterTimeout: Number(process.env.ADAPTER_TIMEOUT_MS ?? '1000'),
    flowStore: RedisFlowStore(redis, { prefix: `${prefix}flows:`, operationTimeoutMs: 1000 }),
    sessionManagement: { store: sessionStore },
    providers: [
      OIDC({
        id: 'idp',
        name: 'Soak IdP',
        issuer: required('OP_ISSUER'),
        clientId: required('OP_CLIENT_ID'),
        clientSecret: required('OP_CLIENT_SECRET'),
        checks: ['pkce', 'state', 'nonce'],
      }),
      Credentials({
        credentials: { username: { label: 'User' }, password: { label: 'Password', type: 'password' } },
        authorize: (input) =>
          typeof input.username === 'string' && input.password === soakPassword
            ? { id: input.username, name: input.username, email: `${input.username}@soak.test` }
            : null,
      }),
      Nodemailer({
        server: required('SMTP_URL'),
        from: 'Soak <login@soak.test>',
        // Every soak user connects from 127.0.0.1: the per-client limit would measure the limiter, not the outage.
        rateLimit: { perAddress: 100, perClient: 1_000_000 },
      }),
    ],
    logger: {
      error: (error) => {
        count(error.name)
        // With what caused it (a Redis or database error), so that a failure in the soak's report says which.
        const cause: unknown = error.cause
        const err: unknown = typeof cause === 'object' && cause !== null && 'err' in cause ? cause.err : cause
        const because = err instanceof Error ? ` (${err.name}: ${err.message})` : ''
        process.stderr.write(`[${instance}] ${error.name}: ${error.message}${because}\n`)
      },
      warn: (code) => {
        count(`warn:${code}`)
      },
      debug: () => {},
    },
  }),
)
app.get('/memory', (_req, res) => {
  globalThis.gc?.()
  const { heapUsed, rss } = process.memoryUsage()
  res.json({ heapUsed, rss })
})
app.get('/logged', (_req, res) => {
  res.json(Object.fromEntries(logged))
})

const server = app.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`)
})
process.once('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => {
    void Promise.allSettled([sessionStore.close(), pool.end()]).finally(() => {
      redis.disconnect()
      process.exit(0)
    })
  })
})
