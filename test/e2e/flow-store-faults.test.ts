/**
 * The Redis flow store failing under a running site, seen from the browser: an Express process (a child process, as
 * in production) with its flows on a private redis-server, and a real oidc-provider. Redis is crashed while sign-in
 * requests wait on it, and paused for longer than the store's deadline. Each time the site must answer "try again
 * shortly" (503), set no session and no flow cookie, stay up, and work again once Redis does, without a restart.
 *
 * The store-level behaviour (which call fails how) is tested in test/flow/stores/redis-faults.test.ts; this file
 * checks what it turns into at HTTP level.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { probeRedisServerBinary, startRedisServer, type PrivateRedis } from '../support/redis-server.js'
import { describeWithService, scratchName } from '../support/services.js'
import type { HttpResult } from '../frameworks/express-http.js'
import {
  beginSignIn,
  callbackUrl,
  clientId,
  clientSecret,
  CookieJar,
  csrfTokenFrom,
  postSignIn,
  redirectError,
  sessionEmail,
  setsFlowCookie,
  setsSession,
  siteOrigin,
  startInstance,
  stopAll,
  type RunningInstance,
} from './multi-instance/instances.js'

const secret = 'flow-store-faults-secret-with-at-least-32-characters'
/** The store's deadline in the instance (`operationTimeoutMs`); short, so the suite stays fast. */
const timeoutMs = 400
/** Scheduling slack on a busy two-core machine, on top of the deadline (still far below the 3 s pause). */
const slackMs = 1000
/** The flow store's hard expiry (`flowMaxAge`), which every record's TTL stays within. */
const flowMaxAgeMs = 15 * 60 * 1000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** An HTTP answer and how long it took. */
async function timed(call: Promise<HttpResult>): Promise<HttpResult & { ms: number }> {
  const start = performance.now()
  const result = await call
  return { ...result, ms: performance.now() - start }
}

/** Pauses every client of the server (CLIENT PAUSE … ALL) from a connection of its own: a stalled Redis. */
async function pauseRedis(url: string, ms: number): Promise<void> {
  const admin = new Redis(url)
  try {
    await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL')
  } finally {
    admin.disconnect()
  }
}

/** The "try again shortly" page `unavailable()` answers for page and redirect actions. */
function expectTryAgainPage(result: HttpResult): void {
  expect(result.status).toBe(503)
  expect(result.headers['content-type']).toMatch(/^text\/html/)
  expect(result.headers['retry-after']).toBe('5')
  expect(result.body).toContain('Try again shortly')
}

/** No half state reached the browser: neither a session nor a flow it could resume. */
function expectNoCookiesSet(result: HttpResult): void {
  expect(setsSession(result)).toBe(false)
  expect(setsFlowCookie(result)).toBe(false)
}

await describeWithService('redis-server binary', probeRedisServerBinary, () =>
  describe('sign-in over HTTP while the Redis flow store fails', () => {
    let redis: PrivateRedis | undefined
    let op: RunningOidcProvider | undefined
    let site: RunningInstance | undefined
    const prefix = `${scratchName('authchart_faults')}:`

    beforeAll(async () => {
      redis = await startRedisServer()
      op = await startOidcProvider({
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [callbackUrl],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
      })
      site = await startInstance({
        name: 'site',
        opIssuer: op.issuer,
        secret,
        store: 'redis',
        redisUrl: redis.url,
        redisPrefix: prefix,
        redisTimeoutMs: timeoutMs,
      })
    })
    afterAll(async () => {
      await stopAll([site])
      await op?.close()
      await redis?.stop('SIGKILL')
    })

    const running = () => site as RunningInstance

    /** A browser back from the provider, about to follow the callback (the flow waits in Redis). */
    async function browserAtCallback() {
      const jar = new CookieJar()
      const authorizationUrl = await beginSignIn(running(), jar)
      const result = await (op as RunningOidcProvider).signInAs(authorizationUrl, 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      return { jar, path: `${result.callbackUrl.pathname}${result.callbackUrl.search}` }
    }

    /** A browser on the sign-in page: CSRF token in hand, about to press the button. */
    async function browserAtSignInPage() {
      const jar = new CookieJar()
      return { jar, csrfToken: await csrfTokenFrom(running(), jar) }
    }

    /** A whole sign-in as alice, started again (bounded) while the store still answers 503; the browser's jar. */
    async function signInRetryingWhileUnavailable(): Promise<CookieJar> {
      const until = performance.now() + 10_000
      for (;;) {
        const { jar, csrfToken } = await browserAtSignInPage()
        const started = await postSignIn(running(), jar, csrfToken)
        if (started.status === 302) {
          const result = await (op as RunningOidcProvider).signInAs(started.headers.location as string, 'alice')
          if (result.mode !== 'query') throw new Error('expected a query response')
          const callback = await running().request(`${result.callbackUrl.pathname}${result.callbackUrl.search}`, {
            jar,
          })
          expect(callback.headers.location).toBe(`${siteOrigin}/after`)
          expect(await sessionEmail(running(), jar)).toBe('alice@example.test')
          return jar
        }
        expectTryAgainPage(started)
        if (performance.now() > until)
          throw new Error(`sign-in still unavailable after 10 s of retries\n${running().log().slice(-1500)}`)
        await sleep(100)
      }
    }

    /** The process is the one the suite started, and its Redis-free endpoints answer. */
    async function expectSiteUp(pid: number): Promise<void> {
      expect(running().isRunning()).toBe(true)
      const identity = await running().request('/instance')
      expect((JSON.parse(identity.body) as { pid: number }).pid).toBe(pid)
      const providers = await running().request('/auth/providers')
      expect(providers.status).toBe(200)
      expect(JSON.parse(providers.body)).toHaveProperty('idp')
    }

    /** Every flow record left in Redis is a waiting flow with a TTL: none claims a sign-in, none lives forever. */
    async function expectOnlyWaitingFlows(): Promise<number> {
      const admin = new Redis((redis as PrivateRedis).url)
      try {
        const keys = await admin.keys(`${prefix}*`)
        for (const key of keys) {
          const record = JSON.parse((await admin.get(key)) ?? 'null') as { m: string; s: unknown } | null
          expect(record?.m).toBe('oauth')
          expect(record?.s).toBe('awaitingCallback')
          const ttl = await admin.pttl(key)
          expect(ttl).toBeGreaterThan(0)
          expect(ttl).toBeLessThanOrEqual(flowMaxAgeMs)
        }
        return keys.length
      } finally {
        admin.disconnect()
      }
    }

    it('Redis crashes with sign-ins and callbacks waiting on it: each answers 503 "try again shortly", sets no cookie, and the process stays up', async () => {
      const pid = running().pid
      const signedInBefore = await signInRetryingWhileUnavailable()
      const atCallback = await Promise.all(Array.from({ length: 4 }, () => browserAtCallback()))
      const atSignIn = await Promise.all(Array.from({ length: 4 }, () => browserAtSignInPage()))
      const fetchClient = await browserAtSignInPage()

      // Paused first, so every request's command is really sitting in the server when it dies.
      await pauseRedis((redis as PrivateRedis).url, 10_000)
      const inFlight = [
        ...atCallback.map(({ jar, path }) => timed(running().request(path, { jar }))),
        ...atSignIn.map(({ jar, csrfToken }) => timed(postSignIn(running(), jar, csrfToken))),
      ]
      // Auth.js's fetch-based `signIn()` asks for `{ url }` with this header and parses the answer as JSON.
      const fromFetchClient = timed(
        postSignIn(running(), fetchClient.jar, fetchClient.csrfToken, { 'x-auth-return-redirect': '1' }),
      )
      await sleep(100)
      await (redis as PrivateRedis).stop('SIGKILL')

      for (const answer of await Promise.all(inFlight)) {
        expectTryAgainPage(answer)
        expectNoCookiesSet(answer)
        expect(answer.ms).toBeLessThan(100 + timeoutMs + slackMs)
      }
      const jsonAnswer = await fromFetchClient
      expect(jsonAnswer.status).toBe(503)
      expect(jsonAnswer.headers['content-type']).toBe('application/json')
      expect(jsonAnswer.headers['cache-control']).toBe('no-store')
      expect(jsonAnswer.headers['retry-after']).toBe('5')
      expect(JSON.parse(jsonAnswer.body)).toEqual({
        error: 'ServiceUnavailable',
        message: 'Sign-in is temporarily unavailable. Try again shortly.',
      })
      expectNoCookiesSet(jsonAnswer)

      // While Redis is down: sign-in keeps answering "try again" within the deadline, the rest of the site works.
      const { jar, csrfToken } = await browserAtSignInPage()
      const whileDown = await timed(postSignIn(running(), jar, csrfToken))
      expectTryAgainPage(whileDown)
      expectNoCookiesSet(whileDown)
      expect(whileDown.ms).toBeLessThan(timeoutMs + slackMs)
      expect(await sessionEmail(running(), jar)).toBeNull()
      // Sessions do not live in the flow store: a user who signed in before the crash is still signed in.
      expect(await sessionEmail(running(), signedInBefore)).toBe('alice@example.test')
      await expectSiteUp(pid)

      // Redis comes back (empty: no persistence) on the same port; the same process signs the next user in.
      await (redis as PrivateRedis).restart()
      await signInRetryingWhileUnavailable()
      await expectSiteUp(pid)

      // The callbacks cut off by the crash cannot complete later: their flows are gone, so the users start again.
      for (const { jar: cutOff, path } of atCallback) {
        const retry = await running().request(path, { jar: cutOff })
        expect(redirectError(retry)).toBe('OAuthCallbackError')
        expect(setsSession(retry)).toBe(false)
      }
      await expectOnlyWaitingFlows()
    })

    it(`a paused Redis (CLIENT PAUSE 3000): sign-in and callback answer 503 after about operationTimeoutMs (${timeoutMs} ms), not after the pause`, async () => {
      const pid = running().pid
      const { jar: callbackJar, path } = await browserAtCallback()
      const { jar, csrfToken } = await browserAtSignInPage()
      const waitingBefore = await expectOnlyWaitingFlows()

      const pausedAt = performance.now()
      await pauseRedis((redis as PrivateRedis).url, 3000)
      const [callback, signIn, providers] = await Promise.all([
        timed(running().request(path, { jar: callbackJar })),
        timed(postSignIn(running(), jar, csrfToken)),
        timed(running().request('/auth/providers')),
      ])
      for (const answer of [callback, signIn]) {
        expectTryAgainPage(answer)
        expectNoCookiesSet(answer)
        // The deadline, not the pause, decides when the browser hears back.
        expect(answer.ms).toBeGreaterThanOrEqual(timeoutMs - 20)
        expect(answer.ms).toBeLessThan(timeoutMs + slackMs)
      }
      // Endpoints that need no flow store are not held up by it.
      expect(providers.status).toBe(200)
      expect(providers.ms).toBeLessThan(timeoutMs)

      // Once the pause ends, the commands that were already at the server run. The callback's GETDEL takes its flow,
      // so that callback can never complete (the user starts again); the sign-in's SET leaves a waiting flow that no
      // browser holds an id for, and that expires with its TTL.
      await sleep(Math.max(0, 3000 - (performance.now() - pausedAt)) + 100)
      const retry = await running().request(path, { jar: callbackJar })
      expect(redirectError(retry)).toBe('OAuthCallbackError')
      expect(setsSession(retry)).toBe(false)
      expect(await expectOnlyWaitingFlows()).toBe(waitingBefore)

      await signInRetryingWhileUnavailable()
      await expectSiteUp(pid)
    })
  }),
)
