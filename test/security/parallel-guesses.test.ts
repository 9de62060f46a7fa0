/**
 * Finding 3 of the limits review: the lockout used to be read before `authorize` and a failure counted after it, so
 * every guess already in flight passed (120 parallel guesses all reached `authorize`). An attempt is now counted
 * before `authorize` runs, atomically, so N parallel guesses cost N and at most the configured number are checked:
 * on the memory counter, on the real Redis counter, and over HTTP through `ExpressAuth` with only the attacker's own
 * requests.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExpressAuth } from '../../src/frameworks/express.js'
import Credentials from '../../src/providers/credentials.js'
import { MemoryRequestCounter, RedisRequestCounter } from '../../src/limits.js'
import { maxMemoryKeys } from '../../src/providers-internal/email-request-limits.js'
import { scalarText } from '../../src/security/scalar-text.js'
import type { FailureCounter } from '../../src/types/providers.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { http, startApp } from '../frameworks/express-http.js'
import { CookieJar, csrfToken, send, testConfig, users } from '../support/auth-harness.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'

const guesses = 200
const maxFailures = 5

/** A credentials config whose `authorize` counts its calls and takes a while, so every guess is in flight at once. */
function slowCheckingConfig(store: FailureCounter) {
  const calls = { authorize: 0 }
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce: { maxFailures, store },
    authorize: async (credentials) => {
      calls.authorize += 1
      await new Promise((resolve) => setTimeout(resolve, 50))
      const entry = users[scalarText(credentials.username)]
      return entry && entry.password === credentials.password ? entry.user : null
    },
  })
  return { config: testConfig({ providers: [provider] }), calls }
}

/** `guesses` wrong passwords for one account, all sent before any answer comes back. */
async function parallelGuesses(config: ReturnType<typeof testConfig>): Promise<string[]> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const answers = await Promise.all(
    Array.from({ length: guesses }, (_, i) =>
      send(config, '/auth/callback/credentials', {
        jar,
        form: { username: 'ada', password: `guess-${i}`, csrfToken: token },
      }),
    ),
  )
  return answers.map((response) => new URL(response.headers.get('location') as string).searchParams.get('code') ?? '')
}

describe('parallel wrong guesses against one account (memory counter)', () => {
  it(`${guesses} at once reach authorize at most ${maxFailures} times; the rest are refused as locked`, async () => {
    const { config, calls } = slowCheckingConfig(new MemoryRequestCounter())
    const codes = await parallelGuesses(config)
    expect(calls.authorize).toBeLessThanOrEqual(maxFailures)
    expect(calls.authorize).toBeGreaterThan(0)
    expect(codes.filter((code) => code === 'too_many_attempts').length).toBe(guesses - calls.authorize)
    // The owner's right password is refused while the lockout runs.
    const jar = new CookieJar()
    const right = await send(config, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: await csrfToken(config, jar) },
    })
    expect(new URL(right.headers.get('location') as string).searchParams.get('code')).toBe('too_many_attempts')
  })

  it('a success gives the attempt back: many right sign-ins in a row are never locked', async () => {
    const { config, calls } = slowCheckingConfig(new MemoryRequestCounter())
    for (let i = 0; i < maxFailures * 3; i += 1) {
      const jar = new CookieJar()
      await send(config, '/auth/callback/credentials', {
        jar,
        form: { username: 'ada', password: 'lovelace', csrfToken: await csrfToken(config, jar) },
      })
      expect(jar.cookies.has('authjs.session-token')).toBe(true)
    }
    expect(calls.authorize).toBe(maxFailures * 3)
  })
})

describe('parallel wrong guesses over HTTP through ExpressAuth', () => {
  it(`${guesses} guesses on their own connections reach authorize at most ${maxFailures} times`, async () => {
    const { config, calls } = slowCheckingConfig(new MemoryRequestCounter())
    const app = await startApp((express) => express.use('/auth', ExpressAuth({ ...config, trustHost: true })))
    try {
      const jar = new CookieJar()
      const csrf = await http(app.port, '/auth/csrf', { jar, headers: { host: 'localhost:3000' } })
      const token = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
      const answers = await Promise.all(
        Array.from({ length: guesses }, (_, i) =>
          http(app.port, '/auth/callback/credentials', {
            jar,
            headers: { host: 'localhost:3000' },
            form: { username: 'ada', password: `guess-${i}`, csrfToken: token },
          }),
        ),
      )
      expect(answers.every((answer) => answer.status === 302)).toBe(true)
      expect(calls.authorize).toBeLessThanOrEqual(maxFailures)
      const locked = answers.filter((answer) => String(answer.headers.location).includes('too_many_attempts'))
      expect(locked.length).toBe(guesses - calls.authorize)
    } finally {
      await app.close()
    }
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('parallel wrong guesses against one account (Redis counter)', () => {
    let client: Redis
    const prefix = `${scratchName('parallel-guesses')}:`
    beforeAll(async () => {
      client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 })
      await client.connect()
    })
    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    it(`${guesses} at once on two instances sharing Redis reach authorize at most ${maxFailures} times`, async () => {
      const a = slowCheckingConfig(new RedisRequestCounter(client, prefix))
      const b = slowCheckingConfig(new RedisRequestCounter(client, prefix))
      const [codesA, codesB] = await Promise.all([parallelGuesses(a.config), parallelGuesses(b.config)])
      const reached = a.calls.authorize + b.calls.authorize
      expect(reached).toBeLessThanOrEqual(maxFailures)
      expect(reached).toBeGreaterThan(0)
      expect([...codesA, ...codesB].filter((code) => code === 'too_many_attempts').length).toBe(guesses * 2 - reached)
    })
  })
})

describe('the memory counter under a flood of new keys', () => {
  it('a running lockout survives more than maxMemoryKeys new counts, and the counts stay bounded', async () => {
    const counter = new MemoryRequestCounter()
    const now = 1_000
    counter.lock('credentials:account-lockout:{victim}', 900, now)
    for (let i = 0; i < maxMemoryKeys * 2; i += 1) counter.reserve(`lock:{junk-${i}}`, `count:{junk-${i}}`, 900, now)
    expect(counter.peek('credentials:account-lockout:{victim}', now + 1).secondsLeft).toBe(899)
    // The oldest junk counts went; the newest are kept.
    expect(counter.peek('count:{junk-0}', now).count).toBe(0)
    expect(counter.peek(`count:{junk-${maxMemoryKeys * 2 - 1}}`, now).count).toBe(1)
  })

  it('expired windows are dropped as new ones begin, so a key counted again starts from one', async () => {
    const counter = new MemoryRequestCounter()
    expect(await counter.hit('k', 10, 0)).toBe(1)
    expect(await counter.hit('k', 10, 5)).toBe(2)
    expect(await counter.hit('k', 10, 10)).toBe(1)
    expect(counter.peek('k', 12)).toEqual({ count: 1, secondsLeft: 8 })
  })
})
