/**
 * `npm run bench:redis-memory`: what Authchart costs in Redis memory, for sizing a Redis Cluster.
 *
 * On a private Redis Cluster (three primaries, three replicas, started and removed here) with a real oidc-provider:
 * - **per in-flight sign-in flow**: 100,000 real OIDC sign-ins are begun through `Auth()` (CSRF token, POST
 *   /auth/signin/idp) with the Redis flow store, and left waiting at the provider; the figure is the growth of
 *   `used_memory` (`INFO memory`, summed over the primaries) divided by the number of flows;
 * - **per stored user and per stored session**: one real sign-in through `Auth()` with `RedisAdapter` (database
 *   sessions) writes a user, its account (with the provider's tokens) and a session; that sign-in's records, read
 *   back from Redis, are copied under fresh ids and tokens of the same length, to 20,000 users with one session each.
 *
 * - **per active session under session management**: a `RedisSessionStore` record per user (the device list), and
 *   per revoked session id.
 *
 * Replicas hold a second copy of everything: the cluster's total is twice the primaries' figure.
 * `--quick` runs a tenth of the counts (a smoke run); `--flows N` and `--users N` set them.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Cluster } from 'ioredis'
import { RedisAdapter, redisKeys } from '../adapters/redis.js'
import type { AdapterAccount } from '../src/types/adapters.js'
import { RedisFlowStore } from '../src/flow/stores/redis.js'
import { RedisSessionStore } from '../src/flow/stores/logout.js'
import { sessionRecordText } from '../src/flow/stores/session-record-text.js'
import { Auth } from '../src/index.js'
import OIDC from '../src/providers/oidc.js'
import { startOidcProvider } from '../test/support/oidc-provider.js'
import { startRedisCluster } from '../test/support/redis-cluster.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const countArg = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback
const flows = countArg('--flows', quick ? 10_000 : 100_000)
const users = countArg('--users', quick ? 2_000 : 20_000)
const inFlight = 64

const origin = 'http://localhost:3000'
const secret = 'bench-secret-bench-secret-bench-secret-42'
const flowPrefix = 'authchart:flow:'
const dataPrefix = 'authchart:'

/** `used_memory` summed over the primaries: what the data costs once (each replica holds the same again). */
async function primariesMemory(client: Cluster): Promise<number> {
  const figures = await Promise.all(
    client.nodes('master').map(async (node) => Number(/used_memory:(\d+)/.exec(await node.info('memory'))?.[1])),
  )
  if (figures.some((n) => !Number.isFinite(n))) throw new Error('INFO memory has no used_memory')
  return figures.reduce((a, b) => a + b, 0)
}

async function keyCount(client: Cluster): Promise<number> {
  return (await Promise.all(client.nodes('master').map((node) => node.dbsize()))).reduce((a, b) => a + b, 0)
}

/** Runs `task(i)` for i in [0, total) with `inFlight` at a time. */
async function inParallel(total: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) await task(next++)
    }),
  )
}

function cookiesOf(response: Response): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0]
    cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
  }
  return cookies
}
const header = (cookies: Map<string, string>) => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')

/** A random string shaped like `value`: same length, same alphabet class (hex, UUID or base64url). */
function likeIt(value: string): string {
  if (/^[0-9a-f-]{36}$/.test(value)) return randomUUID()
  return randomBytes(value.length).toString('base64url').slice(0, value.length)
}

const cluster = await startRedisCluster()
const op = await startOidcProvider({
  clients: [{ client_id: 'bench', client_secret: 'bench-secret', redirect_uris: [`${origin}/auth/callback/idp`] }],
})
const client = cluster.client({ enableAutoPipelining: true })
try {
  const adapter = RedisAdapter(client, { prefix: dataPrefix })
  const config = {
    secret,
    trustHost: true,
    adapter,
    flowStore: RedisFlowStore(client, { prefix: flowPrefix }),
    providers: [
      OIDC({
        id: 'idp',
        name: 'IdP',
        issuer: op.issuer,
        clientId: 'bench',
        clientSecret: 'bench-secret',
        checks: ['pkce', 'state', 'nonce'],
      }),
    ],
  }
  const csrf = await Auth(new Request(`${origin}/auth/csrf`), config)
  const csrfCookies = cookiesOf(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const beginSignIn = () =>
    Auth(
      new Request(`${origin}/auth/signin/idp`, {
        method: 'POST',
        headers: { cookie: header(csrfCookies), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfToken, callbackUrl: '/dashboard' }).toString(),
      }),
      config,
    )

  // One complete sign-in: the records a real user, account and session take.
  const signin = await beginSignIn()
  const result = await op.signInAs(signin.headers.get('location') as string, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  const callback = await Auth(
    new Request(result.callbackUrl.href.replace(/^http:\/\/[^/]+/, origin), {
      headers: { cookie: header(new Map([...csrfCookies, ...cookiesOf(signin)])) },
    }),
    config,
  )
  const sessionToken = cookiesOf(callback).get('authjs.session-token')
  if (callback.status !== 302 || !sessionToken) throw new Error(`the sign-in did not complete (${callback.status})`)
  const keys = redisKeys(dataPrefix)
  const stored = await adapter.getSessionAndUser(sessionToken)
  if (!stored) throw new Error('the session was not stored')
  const { session, user } = stored
  const accountKey = (await client.smembers(keys.userAccounts(user.id)))[0]
  const account = JSON.parse((await client.get(accountKey)) as string) as AdapterAccount

  // In-flight flows, begun for real.
  const flowsBefore = await primariesMemory(client)
  const keysBefore = await keyCount(client)
  const started = Date.now()
  await inParallel(flows, async () => {
    const response = await beginSignIn()
    if (response.status !== 302) throw new Error(`a sign-in answered ${response.status}`)
  })
  const flowSeconds = (Date.now() - started) / 1000
  const flowKeys = (await keyCount(client)) - keysBefore
  if (flowKeys !== flows) throw new Error(`expected ${flows} flows in Redis, found ${flowKeys} new keys`)
  const perFlow = ((await primariesMemory(client)) - flowsBefore) / flows
  const sampleFlow = await client.get(
    `${flowPrefix}{${/authchart\.flow=([^;]+)/.exec((await beginSignIn()).headers.getSetCookie().join(';'))?.[1]}}`,
  )

  // Users with their account, then one session each: copies of the real records with fresh values.
  const usersBefore = await primariesMemory(client)
  const ids: string[] = []
  await inParallel(users, async () => {
    const id = randomUUID()
    ids.push(id)
    await adapter.createUser({
      ...user,
      id,
      email: `${likeIt(user.email.split('@')[0])}@${user.email.split('@')[1]}`,
    })
    await adapter.linkAccount({
      ...account,
      userId: id,
      providerAccountId: likeIt(account.providerAccountId),
      ...(typeof account.access_token === 'string' ? { access_token: likeIt(account.access_token) } : {}),
      ...(typeof account.id_token === 'string' ? { id_token: likeIt(account.id_token) } : {}),
    })
  })
  const perUser = ((await primariesMemory(client)) - usersBefore) / users
  const sessionsBefore = await primariesMemory(client)
  await inParallel(users, async (i) => {
    await adapter.createSession({ ...session, sessionToken: randomUUID(), userId: ids[i] })
  })
  const perSession = ((await primariesMemory(client)) - sessionsBefore) / users

  // Session management: one active session's record per user (the device list), then one revocation per session.
  const sessionStore = new RedisSessionStore(client, { prefix: dataPrefix })
  const sampleRecord = {
    // A JWT session's id as a sign-in makes it: 96 bits, 16 characters.
    id: randomBytes(12).toString('base64url'),
    userId: ids[0] ?? randomUUID(),
    createdAt: Date.now(),
    lastSeenAt: Date.now(),
    expiresAt: Date.now() + 30 * 86400_000,
    userAgent: 'Firefox on Linux',
    clientAddress: '203.0.113.77',
    method: 'idp',
    amr: ['pwd', 'otp'],
  }
  const recordsBefore = await primariesMemory(client)
  await inParallel(users, async (i) => {
    await sessionStore.put({ ...sampleRecord, id: likeIt(sampleRecord.id), userId: ids[i] ?? randomUUID() })
  })
  const perRecord = ((await primariesMemory(client)) - recordsBefore) / users
  await sessionStore.isRevoked('nobody', 'none', 0)
  const revocationsBefore = await primariesMemory(client)
  await inParallel(users, async (i) => {
    await sessionStore.revoke(ids[i] ?? randomUUID(), [likeIt(sampleRecord.id)], 30 * 86400)
  })
  const perRevocation = ((await primariesMemory(client)) - revocationsBefore) / users
  await sessionStore.close()

  const fmt = (n: number) => Math.round(n).toLocaleString('en')
  console.log(
    `\n## Redis memory on a Redis Cluster (3 primaries + 3 replicas, redis-server ${(await client.nodes('master')[0]?.info('server'))?.match(/redis_version:(\S+)/)?.[1]})`,
  )
  console.log('| record | count | bytes each (primaries) | per 100,000 (MB, primaries) | JSON value bytes |')
  console.log('|---|---:|---:|---:|---:|')
  console.log(
    `| in-flight sign-in flow (OIDC, pkce+state+nonce) | ${fmt(flows)} | ${fmt(perFlow)} | ${((perFlow * 1e5) / 1048576).toFixed(1)} | ${sampleFlow?.length ?? '?'} |`,
  )
  console.log(
    `| user with one OIDC account (row, e-mail index, account, account list) | ${fmt(users)} | ${fmt(perUser)} | ${((perUser * 1e5) / 1048576).toFixed(1)} | ${JSON.stringify(user).length} + ${JSON.stringify(account).length} |`,
  )
  console.log(
    `| database session (record and its entry in the user's session list) | ${fmt(users)} | ${fmt(perSession)} | ${((perSession * 1e5) / 1048576).toFixed(1)} | ${JSON.stringify(session).length} |`,
  )
  console.log(
    `| session management: an active session's record (device list; one hash per user) | ${fmt(users)} | ${fmt(perRecord)} | ${((perRecord * 1e5) / 1048576).toFixed(1)} | ${sessionRecordText(sampleRecord).length} (the stored text) |`,
  )
  console.log(
    `| session management: a revoked session id (until the session would expire) | ${fmt(users)} | ${fmt(perRevocation)} | ${((perRevocation * 1e5) / 1048576).toFixed(1)} | - |`,
  )
  console.log(
    `\nReplicas hold the same again. ${fmt(flows)} sign-ins begun in ${flowSeconds.toFixed(1)} s (${fmt(flows / flowSeconds)}/s, ${inFlight} at a time, one process).`,
  )
} finally {
  client.disconnect()
  await Promise.allSettled([op.close(), cluster.stop()])
}
