/**
 * Token refresh across two Authchart processes that share one Redis (the flow store, whose lock coordinates the
 * refreshes) and a real oidc-provider that rotates refresh tokens on every use and lets access tokens live 2 seconds.
 * The test client plays the load balancer: each request of one browser goes to either instance. The OP's own count
 * of refresh requests says how many refreshes there were.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decode } from '../../../src/jwt.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../../support/services.js'
import {
  beginSignIn,
  callbackUrl,
  clientId,
  clientSecret,
  CookieJar,
  setsSession,
  siteOrigin,
  startInstance,
  stopAll,
  type RunningInstance,
} from './instances.js'

const secret = 'token-refresh-across-instances-secret-32+'
const accessTokenTtl = 2
const sessionCookie = 'authjs.session-token'
let op: RunningOidcProvider

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const outliveAccessToken = () => sleep((accessTokenTtl + 1.1) * 1000)

interface AccessTokenAnswer {
  accessToken?: string
  error?: string
  refreshed: boolean
}

async function opAccepts(token: string | undefined): Promise<boolean> {
  return (await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })).status === 200
}

await describeWithService('redis', probeRedis, () => {
  beforeAll(async () => {
    op = await startOidcProvider({
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [callbackUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      refreshTokens: { rotate: true },
      accessTokenTtl,
    })
  })
  afterAll(async () => {
    await op?.close()
  })

  function acrossInstances(sessions: 'jwt' | 'database') {
    let a: RunningInstance | undefined
    let b: RunningInstance | undefined
    let redis: Redis
    const prefix = `${scratchName('authchart_refresh')}:`
    const instances = () => [a as RunningInstance, b as RunningInstance] as const

    beforeAll(async () => {
      const common = {
        opIssuer: op.issuer,
        secret,
        store: 'redis' as const,
        redisUrl: redisUrl(),
        redisPrefix: prefix,
        tokenRefresh: true,
        ...(sessions === 'database' ? { adapter: 'redis' as const } : {}),
      }
      const started = await Promise.allSettled([
        startInstance({ ...common, name: 'a' }).then((instance) => (a = instance)),
        startInstance({ ...common, name: 'b' }).then((instance) => (b = instance)),
      ])
      for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
      redis = new Redis(redisUrl())
    }, 60_000)
    afterAll(async () => {
      await stopAll([a, b])
      if (redis) {
        const leftover = await redis.keys(`${prefix}*`)
        if (leftover.length > 0) await redis.del(...leftover)
        redis.disconnect()
      }
    })

    /** Alice signs in: the flow begins on A and comes back to B. */
    async function signIn(): Promise<CookieJar> {
      const [first, second] = instances()
      const jar = new CookieJar()
      const result = await op.signInAs(await beginSignIn(first, jar), 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      expect(result.callbackUrl.origin).toBe(siteOrigin)
      const callback = await second.request(`${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
      expect(setsSession(callback)).toBe(true)
      return jar
    }

    /** `count` requests of one browser to the app route, spread over both instances, all at once. */
    async function concurrently(jar: CookieJar, count: number) {
      const cookie = jar.header()
      const [first, second] = instances()
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          (i % 2 === 0 ? first : second).request('/access-token', { headers: { cookie } }),
        ),
      )
      return answers.map((answer) => ({
        ...(JSON.parse(answer.body) as AccessTokenAnswer),
        cookies: answer.cookies,
      }))
    }

    async function keptRefreshToken(jar: CookieJar): Promise<string | undefined> {
      if (sessions === 'database') {
        const [key] = await redis.keys(`${prefix}data:account:idp:*`)
        const stored = key ? await redis.get(key) : null
        if (!stored) throw new Error('no account row in Redis')
        return (JSON.parse(stored) as { refresh_token?: string }).refresh_token
      }
      const token = await decode({ token: jar.cookies.get(sessionCookie), secret, salt: sessionCookie })
      return ((token?.['authchart:tokens'] as Record<string, { refresh_token?: string }> | undefined)?.idp ?? {})
        .refresh_token
    }

    it('50 concurrent requests of one session over two instances cause exactly one refresh', async () => {
      const jar = await signIn()
      await outliveAccessToken()
      const before = op.tokenRequests('refresh_token')
      const answers = await concurrently(jar, 50)
      expect(op.tokenRequests('refresh_token') - before).toBe(1)
      expect(answers.map((answer) => answer.error)).toEqual(Array(50).fill(undefined))
      const tokens = new Set(answers.map((answer) => answer.accessToken))
      expect(tokens.size).toBe(1)
      // Each JWT cookie carried the expired token; with database sessions a request that read the account row after
      // the refresh wrote it finds the new token valid there.
      if (sessions === 'jwt') expect(answers.every((answer) => answer.refreshed)).toBe(true)
      else expect(answers.some((answer) => answer.refreshed)).toBe(true)
      expect(await opAccepts(answers[0]?.accessToken)).toBe(true)
      // The result both instances read is sealed in Redis: the tokens are not there in the clear.
      const stored = await redis.keys(`${prefix}refresh:*`)
      expect(stored.length).toBeGreaterThan(0)
      for (const key of stored) expect((await redis.get(key)) ?? '').not.toContain(answers[0]?.accessToken as string)

      // The rotated refresh token (in the re-issued cookie, or in the account row) works on the next refresh.
      for (const line of answers[0]?.cookies ?? []) jar.take(new Response(null, { headers: { 'set-cookie': line } }))
      await outliveAccessToken()
      const next = await concurrently(jar, 10)
      expect(op.tokenRequests('refresh_token') - before).toBe(2)
      expect(new Set(next.map((answer) => answer.accessToken)).size).toBe(1)
      expect(next[0]?.accessToken).not.toBe(answers[0]?.accessToken)
      expect(await opAccepts(next[0]?.accessToken)).toBe(true)
    })

    it('a revoked refresh token marks the session, after one refresh request however many instances ask', async () => {
      const jar = await signIn()
      await op.revoke((await keptRefreshToken(jar)) as string, { id: clientId, secret: clientSecret })
      await outliveAccessToken()
      const before = op.tokenRequests('refresh_token')
      const answers = await concurrently(jar, 10)
      expect(op.tokenRequests('refresh_token') - before).toBe(1)
      expect(answers.map((answer) => answer.error)).toEqual(Array(10).fill('RefreshTokenError'))
      for (const line of answers[0]?.cookies ?? []) jar.take(new Response(null, { headers: { 'set-cookie': line } }))
      const session = await instances()[1].request('/auth/session', { jar })
      expect((JSON.parse(session.body) as { error?: string }).error).toBe('RefreshTokenError')
    })
  }

  describe('JWT sessions, two instances sharing the Redis flow store', () => {
    acrossInstances('jwt')
  })

  describe('database sessions in the Redis adapter, two instances sharing the Redis flow store', () => {
    acrossInstances('database')
  })
})
