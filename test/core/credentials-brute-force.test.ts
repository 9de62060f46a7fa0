/**
 * Failed credentials sign-ins per account and per client, then a lockout with Retry-After. Driven through `Auth()`
 * with real requests; the clock is Vitest's fake `Date`, which is the clock `Auth()` reads for the memory store.
 */
import { scryptSync, timingSafeEqual } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CredentialsSignin } from '../../src/errors.js'
import Credentials from '../../src/providers/credentials.js'
import { MemoryRequestCounter } from '../../src/limits.js'
import { scalarText } from '../../src/security/scalar-text.js'
import type { CredentialsLockoutMessage } from '../../src/types/index.js'
import type { CredentialsFailureLimits } from '../../src/types/providers.js'
import { CookieJar, csrfToken, send, testConfig, users } from '../support/auth-harness.js'

afterEach(() => {
  vi.useRealTimers()
})

/** The test provider over `users`, with the given limits; counts how often `authorize` ran. */
function limitedCredentials(bruteForce?: CredentialsFailureLimits | false) {
  const calls = { authorize: 0 }
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce,
    authorize: async (credentials) => {
      calls.authorize += 1
      const entry = users[scalarText(credentials.username)]
      if (entry && entry.password === credentials.password) return entry.user
      const error = new CredentialsSignin()
      error.code = 'credentials'
      throw error
    },
  })
  return { provider, calls }
}

function configWith(bruteForce: CredentialsFailureLimits | false) {
  const { provider, calls } = limitedCredentials(bruteForce)
  const lockouts: CredentialsLockoutMessage[] = []
  const config = testConfig({
    providers: [provider],
    // One proxy in front: its address is the socket's peer, the client's is the hop it appended.
    trustedProxies: 1,
    events: {
      credentialsLockout: (message) => {
        lockouts.push(message)
      },
    },
  })
  return { config, calls, lockouts }
}

/**
 * Posts the sign-in form; `ip` goes into X-Forwarded-For as the proxy in front appends it, after what the client sent
 * itself (`sent`, or an address of its choosing) (trusted: the test config sets `trustHost: true`).
 */
async function attempt(
  config: ReturnType<typeof testConfig>,
  username: string,
  password: string,
  options: { ip?: string; sent?: string; json?: boolean } = {},
): Promise<{ response: Response; jar: CookieJar }> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const headers: Record<string, string> = {}
  if (options.ip) headers['x-forwarded-for'] = `${options.sent ?? '192.0.2.77'}, ${options.ip}`
  if (options.json) headers['x-auth-return-redirect'] = '1'
  const response = await send(config, '/auth/callback/credentials', {
    jar,
    headers,
    form: { username, password, csrfToken: token },
    peer: options.ip ? '10.0.0.1' : undefined,
  })
  return { response, jar }
}

function errorOf(response: Response): { error: string | null; code: string | null; path: string } {
  const location = new URL(response.headers.get('location') ?? 'http://invalid/')
  return {
    error: location.searchParams.get('error'),
    code: location.searchParams.get('code'),
    path: location.pathname,
  }
}

describe('credentials brute-force limits', () => {
  it('locks an account out after the configured failures, with Retry-After, and lifts it after the lockout', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const { config, calls, lockouts } = configWith({ maxFailures: 3, windowSeconds: 600, lockoutSeconds: 300 })
    for (let i = 0; i < 3; i++) {
      const { response } = await attempt(config, 'ada', 'wrong')
      expect(errorOf(response)).toEqual({ error: 'CredentialsSignin', code: 'credentials', path: '/auth/signin' })
      expect(response.headers.get('retry-after')).toBeNull()
    }
    expect(lockouts).toHaveLength(1)
    expect(lockouts[0]).toMatchObject({ provider: 'credentials', scope: 'account', account: 'ada' })
    expect(lockouts[0].until.toISOString()).toBe('2026-01-01T00:05:00.000Z')
    expect(config.recorded.warnings).toContain('credentials-lockout')

    // Even the right password is refused now, and authorize() is not asked.
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'))
    const before = calls.authorize
    const locked = await attempt(config, 'ada', 'lovelace')
    expect(locked.response.status).toBe(302)
    expect(errorOf(locked.response)).toEqual({
      error: 'CredentialsSignin',
      code: 'too_many_attempts',
      path: '/auth/signin',
    })
    expect(locked.response.headers.get('retry-after')).toBe('240')
    expect(locked.jar.cookies.has('authjs.session-token')).toBe(false)
    expect(calls.authorize).toBe(before)
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:credentials-lockout'])

    // Another account is not affected.
    const other = await attempt(config, 'alan', 'turing')
    expect(other.jar.cookies.has('authjs.session-token')).toBe(true)

    vi.setSystemTime(new Date('2026-01-01T00:05:01Z'))
    const after = await attempt(config, 'ada', 'lovelace')
    expect(after.response.headers.get('location')).toBe('http://localhost:3000/')
    expect(after.jar.cookies.has('authjs.session-token')).toBe(true)
  })

  it('the locked-out page caller lands on the sign-in page with its generic credentials message', async () => {
    const { config } = configWith({ maxFailures: 1 })
    await attempt(config, 'ada', 'wrong')
    const { response } = await attempt(config, 'ada', 'lovelace')
    const page = await send(
      config,
      new URL(response.headers.get('location') as string).pathname +
        new URL(response.headers.get('location') as string).search,
    )
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Sign in failed. Check the details you provided are correct.')
    expect(html).not.toContain('too_many_attempts')
  })

  it('counts one account however its name is typed', async () => {
    const { config } = configWith({ maxFailures: 2 })
    await attempt(config, 'Ada', 'wrong')
    await attempt(config, '  ADA ', 'wrong')
    const { response } = await attempt(config, 'ada', 'lovelace')
    expect(errorOf(response).code).toBe('too_many_attempts')
  })

  it('failures spread over the window below the limit never lock; the window starts again', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const { config } = configWith({ maxFailures: 3, windowSeconds: 60 })
    await attempt(config, 'ada', 'wrong')
    await attempt(config, 'ada', 'wrong')
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'))
    await attempt(config, 'ada', 'wrong')
    await attempt(config, 'ada', 'wrong')
    const { jar } = await attempt(config, 'ada', 'lovelace')
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
  })

  it('limits one client across different usernames, and only by the trusted forwarded address', async () => {
    const { config, lockouts } = configWith({ maxFailures: 100, maxClientFailures: 3 })
    for (const name of ['u1', 'u2', 'u3']) await attempt(config, name, 'guess', { ip: '203.0.113.9' })
    expect(lockouts).toEqual([expect.objectContaining({ scope: 'client' })])
    expect(lockouts[0].account).toBeUndefined()
    const locked = await attempt(config, 'ada', 'lovelace', { ip: '203.0.113.9' })
    expect(errorOf(locked.response).code).toBe('too_many_attempts')
    // Another client, or the same person from another address, is not affected.
    const elsewhere = await attempt(config, 'ada', 'lovelace', { ip: '198.51.100.7' })
    expect(elsewhere.jar.cookies.has('authjs.session-token')).toBe(true)
  })

  it('keys the client by the hop its proxy wrote: forging earlier hops neither escapes the limit nor locks another out', async () => {
    const { config, lockouts } = configWith({ maxFailures: 100, maxClientFailures: 3 })
    // One client, a different forged first hop on every attempt: still one client.
    for (const [i, name] of ['u1', 'u2', 'u3'].entries())
      await attempt(config, name, 'guess', { ip: '203.0.113.9', sent: `198.51.100.${i + 10}` })
    expect(lockouts).toEqual([expect.objectContaining({ scope: 'client' })])
    const locked = await attempt(config, 'ada', 'lovelace', { ip: '203.0.113.9', sent: '198.51.100.99' })
    expect(errorOf(locked.response).code).toBe('too_many_attempts')
    // A client whose address the forged headers named first is not locked out.
    const named = await attempt(config, 'ada', 'lovelace', { ip: '198.51.100.10' })
    expect(named.jar.cookies.has('authjs.session-token')).toBe(true)
  })

  it('does not read X-Forwarded-For without trustedProxies; a clientKey option names the client instead', async () => {
    const { provider } = limitedCredentials({ maxFailures: 100, maxClientFailures: 2 })
    // trustHost on, no trustedProxies: the header is the client's own writing, so it is not read; the peer is all
    // that is known. A new forged address for every attempt changes nothing: one budget, spent.
    const untrusted = testConfig({ providers: [provider] })
    for (const [i, name] of ['u1', 'u2'].entries()) await attempt(untrusted, name, 'guess', { ip: `203.0.113.${i}` })
    const forged = await attempt(untrusted, 'ada', 'lovelace', { ip: '198.51.100.1' })
    expect(errorOf(forged.response).code).toBe('too_many_attempts')

    const keyed = configWith({
      maxFailures: 100,
      maxClientFailures: 2,
      clientKey: (request) => request.headers.get('x-client-id') ?? undefined,
    })
    const post = async (username: string, password: string) => {
      const jar = new CookieJar()
      const form = { username, password, csrfToken: await csrfToken(keyed.config, jar) }
      return send(keyed.config, '/auth/callback/credentials', { jar, headers: { 'x-client-id': 'device-1' }, form })
    }
    await post('u1', 'x')
    await post('u2', 'x')
    expect(errorOf(await post('ada', 'lovelace')).code).toBe('too_many_attempts')
  })

  it('answers a fetch-based client (X-Auth-Return-Redirect) 429 with the sign-in URL and Retry-After', async () => {
    const { config } = configWith({ maxFailures: 1, lockoutSeconds: 120 })
    await attempt(config, 'ada', 'wrong', { json: true })
    const { response } = await attempt(config, 'ada', 'lovelace', { json: true })
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(100)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = (await response.json()) as { url: string }
    const url = new URL(body.url)
    expect(url.pathname).toBe('/auth/signin')
    expect(url.searchParams.get('error')).toBe('CredentialsSignin')
    expect(url.searchParams.get('code')).toBe('too_many_attempts')
  })

  it("does not count a successful sign-in, which clears the account's count but not the client's", async () => {
    const { config } = configWith({ maxFailures: 3, maxClientFailures: 4 })
    const ip = '192.0.2.44'
    await attempt(config, 'ada', 'wrong', { ip })
    await attempt(config, 'ada', 'wrong', { ip })
    const success = await attempt(config, 'ada', 'lovelace', { ip })
    expect(success.jar.cookies.has('authjs.session-token')).toBe(true)
    // The account starts again: two more failures stay under its limit of three...
    await attempt(config, 'ada', 'wrong', { ip })
    const third = await attempt(config, 'ada', 'wrong', { ip })
    expect(errorOf(third.response).code).toBe('credentials')
    // ...but the client has now failed four times, so it is locked out.
    const locked = await attempt(config, 'alan', 'turing', { ip })
    expect(errorOf(locked.response).code).toBe('too_many_attempts')
  })

  it('is on by default: the sixth attempt after five failures is locked out', async () => {
    const { provider } = limitedCredentials()
    const config = testConfig({ providers: [provider] })
    for (let i = 0; i < 5; i++) await attempt(config, 'ada', 'wrong')
    const { response } = await attempt(config, 'ada', 'lovelace')
    expect(errorOf(response).code).toBe('too_many_attempts')
    expect(Number(response.headers.get('retry-after'))).toBe(900)
  })

  it('bruteForce: false turns the limits off', async () => {
    const { config, lockouts } = configWith(false)
    for (let i = 0; i < 12; i++) await attempt(config, 'ada', 'wrong')
    const { jar } = await attempt(config, 'ada', 'lovelace')
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    expect(lockouts).toEqual([])
  })

  it('a store without peek() and clear() is a configuration error shown as a page, never a crash', async () => {
    const { provider } = limitedCredentials({ store: { hit: async () => 1 } as never })
    const config = testConfig({ providers: [provider] })
    const { response } = await attempt(config, 'ada', 'lovelace')
    expect(response.status).toBe(302)
    expect(errorOf(response).error).toBe('Configuration')
    // Named once at start-up (the first request) and again by the sign-in that meets it.
    const named = config.recorded.errors.filter((e) => e.message.includes('bruteForce.store'))
    expect(named).toHaveLength(2)
  })

  it('unusable limit values fall back to the defaults', async () => {
    const { config } = configWith({ maxFailures: Number.NaN, lockoutSeconds: -5, windowSeconds: 'x' as never })
    for (let i = 0; i < 5; i++) await attempt(config, 'ada', 'wrong')
    const { response } = await attempt(config, 'ada', 'lovelace')
    expect(errorOf(response).code).toBe('too_many_attempts')
    expect(response.headers.get('retry-after')).toBe('900')
  })
})

describe('no account oracle', () => {
  // The app's own authorize must cost the same for unknown and known accounts (the docs say so); this one does,
  // by hashing the password against a dummy hash when the user is unknown, as apps are told to.
  const salt = Buffer.from('brute-force-test-salt')
  const hashes: Record<string, Buffer> = { ada: scryptSync('lovelace', salt, 32, { N: 2048 }) }
  const dummy = scryptSync('dummy-password', salt, 32, { N: 2048 })

  function evenCredentials(bruteForce: CredentialsFailureLimits) {
    return Credentials({
      credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
      bruteForce,
      authorize: async (credentials) => {
        const name = scalarText(credentials.username)
        const stored = hashes[name] ?? dummy
        const typed = scryptSync(scalarText(credentials.password), salt, 32, { N: 2048 })
        return timingSafeEqual(stored, typed) && hashes[name] ? users[name].user : null
      },
    })
  }

  /** The parts of a response a client can see, minus what differs per request (cookies, CSRF). */
  async function visible(response: Response) {
    return {
      status: response.status,
      location: response.headers.get('location'),
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    }
  }

  function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]
  }

  /** Times `rounds` attempts for each name, interleaved so load on the machine falls on both alike. */
  async function timings(config: ReturnType<typeof testConfig>, names: string[], rounds: number) {
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
    for (let i = 0; i < rounds; i++) {
      for (const name of names) {
        const jar = new CookieJar()
        const form = { username: name, password: 'wrong-password', csrfToken: await csrfToken(config, jar) }
        const started = performance.now()
        await send(config, '/auth/callback/credentials', { jar, form })
        samples[name].push(performance.now() - started)
      }
    }
    return samples
  }

  it('answers an unknown and a known account alike, locked or not', async () => {
    const config = testConfig({ providers: [evenCredentials({ maxFailures: 2, lockoutSeconds: 600 })] })
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const first = await Promise.all(
      ['ada', 'nobody'].map(async (name) => visible((await attempt(config, name, 'wrong')).response)),
    )
    expect(first[0]).toEqual(first[1])
    await attempt(config, 'ada', 'wrong')
    await attempt(config, 'nobody', 'wrong')
    const locked = await Promise.all(
      ['ada', 'nobody'].map(async (name) => visible((await attempt(config, name, 'wrong')).response)),
    )
    expect(locked[0]).toEqual(locked[1])
    expect(locked[0].location).toContain('code=too_many_attempts')
    expect(config.recorded.refusals.filter((r) => r.code === 'refused:credentials-lockout')).toHaveLength(2)
  })

  it('takes comparable time for an unknown and a known account, failing and locked out', async () => {
    // Generous on purpose: other test processes share the machine. The medians must agree within a factor of 2.5
    // (or 3 ms); an oracle worth having (a password hash for known accounts only) differs by far more than that here:
    // an authorize that skips the hash for unknown names fails this test.
    const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(3, 1.5 * Math.min(a, b))

    const failing = testConfig({ providers: [evenCredentials({ maxFailures: 1_000, maxClientFailures: 1_000 })] })
    await timings(failing, ['ada', 'nobody'], 3) // warm-up
    const open = await timings(failing, ['ada', 'nobody'], 25)
    expect(close(median(open.ada), median(open.nobody)), JSON.stringify(open)).toBe(true)

    const lockedConfig = testConfig({ providers: [evenCredentials({ maxFailures: 1 })] })
    await timings(lockedConfig, ['ada', 'nobody'], 3) // the first round locks both out
    const locked = await timings(lockedConfig, ['ada', 'nobody'], 25)
    expect(close(median(locked.ada), median(locked.nobody)), JSON.stringify(locked)).toBe(true)
    // Locked out, no password is hashed for either: faster than an open attempt for both.
    expect(median(locked.ada)).toBeLessThan(median(open.ada))
    expect(median(locked.nobody)).toBeLessThan(median(open.nobody))
  })

  it('a shared memory store instance still keeps providers apart', async () => {
    const store = new MemoryRequestCounter()
    const a = testConfig({ providers: [evenCredentials({ maxFailures: 1, store })] })
    const b = testConfig({
      providers: [{ ...evenCredentials({ maxFailures: 1, store }), id: 'other' }],
      basePath: '/auth',
    })
    await attempt(a, 'ada', 'wrong')
    expect(errorOf((await attempt(a, 'ada', 'lovelace')).response).code).toBe('too_many_attempts')
    const jar = new CookieJar()
    const response = await send(b, '/auth/callback/other', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: await csrfToken(b, jar) },
    })
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    expect(response.status).toBe(302)
  })
})
