/**
 * Two Express processes serving one site, a real oidc-provider, and (for the Redis flow store) one shared Redis: an
 * OIDC sign-in that begins on one instance and comes back to the other, and a callback replayed across both.
 *
 * The setup is a site behind a load balancer: both instances serve `http://app.test`, and the test client plays the
 * balancer by sending each request to whichever port it likes with `Host: app.test`. So the OpenID Provider knows
 * one redirect URI, the browser keeps one cookie jar, and nothing in the setup hints to either instance that another
 * exists. The only things the instances share are the secret, the provider, and Redis when the flows live there.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../../support/services.js'
import {
  beginSignIn,
  callbackUrl,
  clientId,
  clientSecret,
  CookieJar,
  flowCookie,
  redirectError,
  sessionEmail,
  setsSession,
  siteOrigin,
  startInstance,
  stopAll,
  transitionsOf,
  type RunningInstance,
} from './instances.js'

const secret = 'multi-instance-secret-with-at-least-32-characters'
let op: RunningOidcProvider

beforeAll(async () => {
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
})
afterAll(async () => {
  await op?.close()
})

/** The provider's answer for `alice`, as the path and query the browser is sent back to. */
async function authorizeAtProvider(authorizationUrl: string): Promise<string> {
  const result = await op.signInAs(authorizationUrl, 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  expect(result.callbackUrl.origin).toBe(siteOrigin)
  return `${result.callbackUrl.pathname}${result.callbackUrl.search}`
}

/** The id the instance gave the newest flow that reached `awaitingCallback` (tests in a file run one at a time). */
async function newestFlowId(instance: RunningInstance): Promise<string> {
  const response = await instance.request('/transitions')
  const records = JSON.parse(response.body) as { flowId: string; to: string }[]
  const flowId = records.filter((record) => record.to === 'awaitingCallback').at(-1)?.flowId
  if (!flowId) throw new Error(`no flow reached awaitingCallback on ${instance.name}`)
  return flowId
}

/** A browser that is back from the provider: its jar holds the flow cookie, `path` is the callback it will follow. */
async function browserAtCallback(startOn: RunningInstance) {
  const jar = new CookieJar()
  const path = await authorizeAtProvider(await beginSignIn(startOn, jar))
  return { jar, path, flowId: await newestFlowId(startOn), flowRef: jar.cookies.get(flowCookie) as string }
}

/** A jar holding a copy of `jar`'s cookies: another tab, or an attacker with a copy of the cookie. */
function copyOf(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

function acrossInstancesSuite(store: 'redis' | 'cookie') {
  let a: RunningInstance | undefined
  let b: RunningInstance | undefined
  let redis: Redis | undefined
  const prefix = `${scratchName('authchart_multi')}:`
  const instances = () => [a as RunningInstance, b as RunningInstance] as const

  beforeAll(async () => {
    const common = { opIssuer: op.issuer, secret, store, redisUrl: redisUrl(), redisPrefix: prefix }
    // Started side by side, and each kept as soon as it is up, so afterAll stops whichever did start.
    const started = await Promise.allSettled([
      startInstance({ ...common, name: 'a' }).then((instance) => (a = instance)),
      startInstance({ ...common, name: 'b' }).then((instance) => (b = instance)),
    ])
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
    if (store === 'redis') redis = new Redis(redisUrl())
  })
  afterAll(async () => {
    await stopAll([a, b])
    if (redis) {
      // Completed flows are gone already; anything left expires on its own, but a test run leaves nothing behind.
      const leftover = await redis.keys(`${prefix}*`)
      if (leftover.length > 0) await redis.del(...leftover)
      redis.disconnect()
    }
  })

  it('serves the site from two processes on two ports', async () => {
    const [first, second] = instances()
    const ids = await Promise.all([first.request('/instance'), second.request('/instance')])
    const [idA, idB] = ids.map((response) => JSON.parse(response.body) as { instance: string; pid: number })
    expect(idA?.instance).toBe('a')
    expect(idB?.instance).toBe('b')
    expect(idA?.pid).not.toBe(idB?.pid)
    expect(first.port).not.toBe(second.port)
  })

  it('begins the sign-in on instance A and completes the callback on instance B: signed in on both', async () => {
    const [first, second] = instances()
    const { jar, path, flowRef } = await browserAtCallback(first)
    if (store === 'redis') {
      // Only a random id travels; the flow itself waits in the shared Redis.
      expect(flowRef).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(await redis?.exists(`${prefix}{${flowRef}}`)).toBe(1)
    } else {
      // The whole sealed flow travels in the cookie: any instance with the secret can open it.
      expect(flowRef.split('.')).toHaveLength(5)
    }
    const callback = await second.request(path, { jar })
    expect(callback.status).toBe(302)
    expect(callback.headers.location).toBe(`${siteOrigin}/after`)
    expect(setsSession(callback)).toBe(true)
    expect(jar.cookies.has(flowCookie)).toBe(false)
    if (store === 'redis') expect(await redis?.exists(`${prefix}{${flowRef}}`)).toBe(0)
    expect(await sessionEmail(first, jar)).toBe('alice@example.test')
    expect(await sessionEmail(second, jar)).toBe('alice@example.test')
  })

  it('a callback sent twice (on A, then on B) signs in once; the replay is redirected with error=OAuthCallbackError', async () => {
    const [first, second] = instances()
    const { jar, path } = await browserAtCallback(first)
    const replayJar = copyOf(jar)
    const original = await first.request(path, { jar })
    expect(setsSession(original)).toBe(true)
    const replay = await second.request(path, { jar: replayJar })
    expect(replay.status).toBe(302)
    expect(redirectError(replay)).toBe('OAuthCallbackError')
    expect(setsSession(replay)).toBe(false)
    expect(await sessionEmail(second, replayJar)).toBeNull()
  })

  it('20 copies of one callback sent at once, spread over A and B: exactly one sets a session cookie', async () => {
    const [first, second] = instances()
    const { jar, path, flowId } = await browserAtCallback(first)
    const cookie = jar.header()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).request(path, { headers: { cookie } })),
    )

    const winners = answers.filter(setsSession)
    expect(winners).toHaveLength(1)
    expect(winners[0]?.headers.location).toBe(`${siteOrigin}/after`)
    const losers = answers.filter((answer) => !setsSession(answer))
    expect(losers).toHaveLength(19)
    for (const loser of losers) {
      expect(loser.status).toBe(302)
      expect(redirectError(loser)).toBe('OAuthCallbackError')
    }
    // The winner's session works on both instances.
    const winnerJar = new CookieJar()
    for (const line of winners[0]?.cookies ?? []) {
      const pair = line.split(';', 1)[0]
      winnerJar.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    }
    expect(await sessionEmail(first, winnerJar)).toBe('alice@example.test')
    expect(await sessionEmail(second, winnerJar)).toBe('alice@example.test')

    // Where the 19 were stopped, from both instances' audit trails.
    const trail = [...(await transitionsOf(first, flowId)), ...(await transitionsOf(second, flowId))]
    const callbacksRun = trail.filter((record) => record.event === 'CALLBACK_RECEIVED')
    // Under PKCE the OP's invalid_grant for a spent code is the PKCE refusal: a replayed code looks like an injected one.
    const tokenFailures = trail.filter((record) => record.event === 'PKCE_FAILED')
    expect(trail.filter((record) => record.to === 'signedIn')).toHaveLength(1)
    if (store === 'redis') {
      // GETDEL hands the flow to one request; the other 19 find nothing and never reach the machine.
      expect(callbacksRun).toHaveLength(1)
      expect(tokenFailures).toHaveLength(0)
    } else {
      // Every copy of the cookie opens: all 20 run the flow, and the provider's single-use code stops 19 of them at
      // the token endpoint (oidc-provider answers invalid_grant, and revokes the grant the code was issued under).
      expect(callbacksRun).toHaveLength(20)
      expect(tokenFailures).toHaveLength(19)
    }
  })
}

await describeWithService('redis', probeRedis, () =>
  describe('two instances sharing the Redis flow store', () => acrossInstancesSuite('redis')),
)
describe('two instances with the cookie flow store (stateless: they share only the secret)', () =>
  acrossInstancesSuite('cookie'))
