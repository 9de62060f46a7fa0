/**
 * The credentials failure limits with the Redis store: two Auth configs (two app instances) sharing one real Redis
 * count and lock together; a lockout ends with its Redis TTL; a Redis that cannot be reached refuses sign-in rather
 * than letting guesses through uncounted.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Credentials from '../../src/providers/credentials.js'
import { RedisRequestCounter } from '../../src/limits.js'
import { scalarText } from '../../src/security/scalar-text.js'
import type { CredentialsLockoutMessage } from '../../src/types/index.js'
import type { CredentialsFailureLimits } from '../../src/types/providers.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { CookieJar, csrfToken, send, testConfig, users } from '../support/auth-harness.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'

function instance(bruteForce: CredentialsFailureLimits) {
  const lockouts: CredentialsLockoutMessage[] = []
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce,
    authorize: async (credentials) => {
      const entry = users[scalarText(credentials.username)]
      return entry && entry.password === credentials.password ? entry.user : null
    },
  })
  const config = testConfig({
    providers: [provider],
    events: {
      credentialsLockout: (message) => {
        lockouts.push(message)
      },
    },
  })
  return { config, lockouts }
}

async function attempt(config: ReturnType<typeof testConfig>, username: string, password: string) {
  const jar = new CookieJar()
  const form = { username, password, csrfToken: await csrfToken(config, jar) }
  const response = await send(config, '/auth/callback/credentials', { jar, form })
  const location = new URL(response.headers.get('location') as string)
  return { response, jar, code: location.searchParams.get('code'), error: location.searchParams.get('error') }
}

await describeWithService('redis', probeRedis, () => {
  describe('credentials brute-force limits on Redis', () => {
    let client: Redis
    const prefix = `${scratchName('credentials-limit')}:`
    beforeAll(async () => {
      client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 })
      await client.connect()
    })
    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    it('two instances sharing Redis count failures together and share the lockout, which ends with its TTL', async () => {
      const limits = { maxFailures: 3, lockoutSeconds: 1, windowSeconds: 60 }
      const a = instance({ ...limits, store: new RedisRequestCounter(client, prefix) })
      const b = instance({ ...limits, store: new RedisRequestCounter(client, prefix) })
      expect((await attempt(a.config, 'ada', 'wrong')).code).toBe('credentials')
      expect((await attempt(b.config, 'ada', 'wrong')).code).toBe('credentials')
      expect((await attempt(a.config, 'ada', 'wrong')).code).toBe('credentials')
      expect(a.lockouts).toHaveLength(1)
      expect(b.lockouts).toHaveLength(0)

      // Locked on the other instance too, with the right password, and the keys hold no name in the clear.
      const locked = await attempt(b.config, 'ada', 'lovelace')
      expect(locked.code).toBe('too_many_attempts')
      expect(locked.response.headers.get('retry-after')).toBe('1')
      expect(locked.jar.cookies.has('authjs.session-token')).toBe(false)
      const keys = await client.keys(`${prefix}*`)
      expect(keys.length).toBeGreaterThan(0)
      for (const key of keys) expect(key).not.toContain('ada')

      await new Promise((resolve) => setTimeout(resolve, 1_200))
      const after = await attempt(b.config, 'ada', 'lovelace')
      expect(after.jar.cookies.has('authjs.session-token')).toBe(true)
    })

    it("a success on one instance clears the account's failures for the other", async () => {
      const limits = { maxFailures: 2, store: new RedisRequestCounter(client, `${prefix}clear:`) }
      const a = instance(limits)
      const b = instance(limits)
      await attempt(a.config, 'alan', 'wrong')
      expect((await attempt(b.config, 'alan', 'turing')).jar.cookies.has('authjs.session-token')).toBe(true)
      expect((await attempt(a.config, 'alan', 'wrong')).code).toBe('credentials')
      expect(a.lockouts).toHaveLength(0)
      await attempt(b.config, 'alan', 'wrong')
      expect(b.lockouts).toHaveLength(1)
    })
  })
})

describe('credentials brute-force limits with an unreachable Redis', () => {
  it('refuses the sign-in with an error page and logs the store failure; authorize is never reached', async () => {
    // A real client pointed at a port nothing listens on: every command fails at once.
    const dead = new Redis({
      port: 1,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    })
    dead.on('error', () => {})
    try {
      const { config } = instance({ store: new RedisRequestCounter(dead, 'unused:') })
      const result = await attempt(config, 'ada', 'lovelace')
      expect(result.response.status).toBe(302)
      expect(result.error).toBe('Configuration')
      expect(result.jar.cookies.has('authjs.session-token')).toBe(false)
      expect(config.recorded.errors.map((e) => e.message).join()).toContain('failure store failed to count an attempt')
    } finally {
      dead.disconnect()
    }
  })
})
