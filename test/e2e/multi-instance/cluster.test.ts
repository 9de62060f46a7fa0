/**
 * Two Authchart processes serving one site on one private Redis Cluster (three primaries, three replicas): flows in
 * the Redis flow store, users, accounts and database sessions in the Redis adapter, both on the same Cluster client.
 * A real oidc-provider signs alice in. Sign-ins begin on one instance and finish on the other; 50 copies of one
 * callback spread over both make exactly one session; and a primary killed in the middle of concurrent sign-ins
 * costs some of them a 503, never a second completion, and the sign-ins after the failover work.
 */
import type { Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisAdapter, redisKeys } from '../../../adapters/redis.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { probeRedisCluster, startRedisCluster, type PrivateRedisCluster } from '../../support/redis-cluster.js'
import { describeWithService } from '../../support/services.js'
import {
  beginSignIn,
  callbackUrl,
  clientId,
  clientSecret,
  CookieJar,
  sessionEmail,
  setsSession,
  siteOrigin,
  startInstance,
  stopAll,
  transitionsOf,
  type RunningInstance,
} from './instances.js'

const secret = 'multi-instance-cluster-secret-with-at-least-32-chars'
const prefix = 'authchart:e2e:'
const email = 'alice@example.test'

await describeWithService('a private Redis Cluster', probeRedisCluster, () =>
  describe('two instances on one Redis Cluster (flow store and adapter)', () => {
    let op: RunningOidcProvider
    let cluster: PrivateRedisCluster
    let client: Cluster
    let a: RunningInstance | undefined
    let b: RunningInstance | undefined
    const instances = () => [a as RunningInstance, b as RunningInstance] as const
    const data = () => RedisAdapter(client, { prefix: `${prefix}data:` })
    const keys = redisKeys(`${prefix}data:`)

    beforeAll(async () => {
      ;[op, cluster] = await Promise.all([
        startOidcProvider({
          clients: [
            {
              client_id: clientId,
              client_secret: clientSecret,
              redirect_uris: [callbackUrl],
              token_endpoint_auth_method: 'client_secret_basic',
            },
          ],
        }),
        startRedisCluster(),
      ])
      client = cluster.client()
      const common = {
        opIssuer: op.issuer,
        secret,
        store: 'redis' as const,
        redisPrefix: prefix,
        adapter: 'redis' as const,
        redisClusterNodes: cluster.startupNodes.map(({ host, port }) => `${host}:${port}`),
      }
      const started = await Promise.allSettled([
        startInstance({ ...common, name: 'a' }).then((instance) => (a = instance)),
        startInstance({ ...common, name: 'b' }).then((instance) => (b = instance)),
      ])
      for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
    }, 60_000)
    afterAll(async () => {
      await stopAll([a, b])
      client?.disconnect()
      await Promise.allSettled([cluster?.stop(), op?.close()])
    })

    /** A browser back from the provider at `start`: its jar, the callback path, and the flow's id. */
    async function browserAtCallback(start: RunningInstance) {
      const jar = new CookieJar()
      const result = await op.signInAs(await beginSignIn(start, jar), 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      const response = await start.request('/transitions')
      const records = JSON.parse(response.body) as { flowId: string; to: string }[]
      const flowId = records.filter((record) => record.to === 'awaitingCallback').at(-1)?.flowId as string
      return { jar, path: `${result.callbackUrl.pathname}${result.callbackUrl.search}`, flowId }
    }

    /** Whether `instance` can begin a sign-in (its flow store answers). */
    const postProbe = async (instance: RunningInstance) => {
      try {
        await beginSignIn(instance, new CookieJar())
        return true
      } catch {
        return false
      }
    }

    const sessionCount = async () => {
      const user = await data().getUserByEmail(email)
      return user ? client.zcard(keys.userSessions(user.id)) : 0
    }
    const sessionToken = (cookies: string[]) =>
      /^authjs\.session-token=([^;]+)/.exec(cookies.find((line) => line.startsWith('authjs.session-token=')) ?? '')?.[1]

    it('begins on A, finishes on B: a database session in the Cluster, valid on both instances', async () => {
      const [first, second] = instances()
      const { jar, path } = await browserAtCallback(first)
      const callback = await second.request(path, { jar })
      expect(callback.status).toBe(302)
      expect(callback.headers.location).toBe(`${siteOrigin}/after`)
      const token = sessionToken(callback.cookies)
      expect(token).toBeTruthy()
      expect((await data().getSessionAndUser(token as string))?.user.email).toBe(email)
      expect(await sessionEmail(first, jar)).toBe(email)
      expect(await sessionEmail(second, jar)).toBe(email)
    }, 30_000)

    it('50 copies of one callback at once, spread over A and B: exactly one session, in the cookie and in Redis', async () => {
      const [first, second] = instances()
      const { jar, path, flowId } = await browserAtCallback(second)
      const before = await sessionCount()
      const cookie = jar.header()
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? first : second).request(path, { headers: { cookie } })),
      )
      expect(answers.filter(setsSession)).toHaveLength(1)
      expect(await sessionCount()).toBe(before + 1)
      const trail = [...(await transitionsOf(first, flowId)), ...(await transitionsOf(second, flowId))]
      expect(trail.filter((record) => record.to === 'signedIn')).toHaveLength(1)
    }, 30_000)

    it('a consumed flow that a failover brings back still completes only once: the provider refuses the code again', async () => {
      const [first, second] = instances()
      const { jar, path, flowId } = await browserAtCallback(first)
      const replayJar = new CookieJar()
      for (const [name, value] of jar.cookies) replayJar.cookies.set(name, value)
      const flowKey = `${prefix}{${jar.cookies.get('authchart.flow')}}`
      const primary = await cluster.primaryOf(flowKey)
      const replica = await cluster.replicaOf(primary)
      expect(replica).not.toBeNull()

      // Make the replica fall behind for real: it stops reading, and 32 MB written to the flow's slot fill the
      // replication link, so the consume that follows stays in the primary's buffer when the primary dies.
      cluster.signal(replica!, 'SIGSTOP')
      let completed
      try {
        await client.set(`ballast:{${jar.cookies.get('authchart.flow')}}`, 'x'.repeat(32 * 1024 * 1024))
        completed = await second.request(path, { jar })
        await cluster.kill(primary)
      } finally {
        cluster.signal(replica!, 'SIGCONT')
      }
      expect(setsSession(completed)).toBe(true)
      await cluster.waitUntilHealthy(20_000)

      // The replica that took over never saw the consume: the flow is back in Redis.
      const deadline = Date.now() + 15_000
      let revived = -1
      while (revived === -1 && Date.now() < deadline) revived = await client.exists(flowKey).catch(() => -1)
      expect(revived).toBe(1)
      // Both instances answer again before the replay is sent (their clients have learnt the new topology).
      for (const instance of [first, second]) {
        let ok = false
        while (!ok && Date.now() < deadline)
          ok = (await instance.request('/auth/csrf')).status === 200 && (await postProbe(instance))
      }

      const replay = await first.request(path, { jar: replayJar })
      expect(setsSession(replay)).toBe(false)
      expect(replay.status).toBe(302)
      const trail = [...(await transitionsOf(first, flowId)), ...(await transitionsOf(second, flowId))]
      // The revived flow ran the callback a second time, and the provider refused the used code (invalid_grant under PKCE).
      expect(trail.filter((record) => record.event === 'CALLBACK_RECEIVED')).toHaveLength(2)
      expect(trail.filter((record) => record.event === 'PKCE_FAILED')).toHaveLength(1)
      expect(trail.filter((record) => record.to === 'signedIn')).toHaveLength(1)
    }, 90_000)

    it('a primary killed during 16 concurrent sign-ins: each completes or answers 503, none twice, and sign-ins work after the failover', async () => {
      const [first, second] = instances()
      const browsers = []
      for (let i = 0; i < 16; i++) browsers.push(await browserAtCallback(i % 2 === 0 ? first : second))
      const user = await data().getUserByEmail(email)
      // The primary holding alice's row and session list (every one of these sign-ins needs it), unless an earlier
      // test's failover left it without a replica to take over: then another primary that has one.
      const candidates = [
        await cluster.primaryOf(keys.user(user?.id as string)),
        ...cluster.nodes.filter((node) => node.isRunning()),
      ]
      let victim = candidates[0]
      for (const node of candidates) {
        if (await cluster.replicaOf(node)) {
          victim = node
          break
        }
      }

      const started = Date.now()
      const callbacks = browsers.map(async ({ jar, path }, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 15))
        const answer = await (i % 2 === 0 ? second : first).request(path, { jar })
        return { answer, ms: Date.now() - started - i * 15 }
      })
      setTimeout(() => {
        void cluster.kill(victim)
      }, 60)
      const results = await Promise.all(callbacks)

      for (const { answer, ms } of results) {
        const completed =
          answer.status === 302 && answer.headers.location === `${siteOrigin}/after` && setsSession(answer)
        const unavailable = answer.status === 503 && !setsSession(answer)
        expect({
          status: answer.status,
          location: answer.headers.location,
          completedOr503: completed || unavailable,
        }).toMatchObject({ completedOr503: true })
        // Answered, not hung: the clients' bounded retries and the store's deadline.
        expect(ms).toBeLessThan(10_000)
      }
      expect(results.some(({ answer }) => answer.status === 503)).toBe(true)
      for (const { flowId } of browsers) {
        const trail = [...(await transitionsOf(first, flowId)), ...(await transitionsOf(second, flowId))]
        expect(trail.filter((record) => record.to === 'signedIn').length).toBeLessThanOrEqual(1)
      }
      expect(first.isRunning() && second.isRunning()).toBe(true)

      // After the failover (and once each instance's client has learnt the new topology), sign-ins work again.
      await cluster.waitUntilHealthy(20_000)
      const deadline = Date.now() + 15_000
      let succeeded = 0
      while (succeeded < 4 && Date.now() < deadline) {
        try {
          const { jar, path } = await browserAtCallback(succeeded % 2 === 0 ? first : second)
          const callback = await (succeeded % 2 === 0 ? second : first).request(path, { jar })
          if (callback.status === 302 && setsSession(callback) && (await sessionEmail(first, jar)) === email)
            succeeded++
          else succeeded = 0
        } catch {
          succeeded = 0
        }
      }
      expect(succeeded).toBe(4)
    }, 90_000)
  }),
)
