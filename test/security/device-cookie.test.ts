/**
 * #29 finding 11: five wrong passwords from anywhere used to lock any known username for 15 minutes, the owner's
 * right password included, and anyone could keep an account locked with 5 requests a window. A browser that signed in
 * with the right password now holds a device cookie (OWASP's device-cookie scheme) and keeps its own budget: strangers
 * lock out strangers, not the owner. Everything here runs through `Auth()` with the memory counter; the Redis counter
 * takes the same keys (parallel-guesses.test.ts runs it for real).
 */
import { describe, expect, it } from 'vitest'
import Credentials from '../../src/providers/credentials.js'
import { MemoryRequestCounter } from '../../src/limits.js'
import { scalarText } from '../../src/security/scalar-text.js'
import type { CredentialsLockoutMessage } from '../../src/types/index.js'
import { CookieJar, csrfToken, send, testConfig, users } from '../support/auth-harness.js'

const deviceCookie = 'authchart.device'

function site() {
  const lockouts: CredentialsLockoutMessage[] = []
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce: { maxFailures: 5, store: new MemoryRequestCounter() },
    authorize: (credentials) => {
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

type Site = ReturnType<typeof site>

/** One attempt from the browser `jar`; answers the refusal code, or 'signed-in'. */
async function attempt({ config }: Site, jar: CookieJar, username: string, password: string): Promise<string> {
  const response = await send(config, '/auth/callback/credentials', {
    jar,
    form: { username, password, csrfToken: await csrfToken(config, jar) },
  })
  jar.take(response)
  const location = new URL(response.headers.get('location') as string)
  if (location.searchParams.has('error')) return location.searchParams.get('code') ?? 'error'
  return jar.cookies.has('authjs.session-token') ? 'signed-in' : 'no-session'
}

async function lockOutFromStrangers(s: Site, username: string): Promise<string[]> {
  const codes: string[] = []
  for (let i = 0; i < 6; i += 1) codes.push(await attempt(s, new CookieJar(), username, `guess-${i}`))
  return codes
}

describe('the owner’s known device keeps its own budget', () => {
  it('a good sign-in leaves a device cookie that names no account', async () => {
    const s = site()
    const owner = new CookieJar()
    expect(await attempt(s, owner, 'ada', 'lovelace')).toBe('signed-in')
    const value = owner.cookies.get(deviceCookie) ?? ''
    expect(value).toMatch(/^[A-Za-z0-9_-]{22,64}\.[A-Za-z0-9_-]{43}$/)
    expect(value).not.toContain('ada')
  })

  it('strangers lock the account out, and the owner’s browser still signs in with the right password', async () => {
    const s = site()
    const owner = new CookieJar()
    expect(await attempt(s, owner, 'ada', 'lovelace')).toBe('signed-in')
    owner.cookies.delete('authjs.session-token')
    expect(await lockOutFromStrangers(s, 'ada')).toEqual([
      'credentials',
      'credentials',
      'credentials',
      'credentials',
      'credentials',
      'too_many_attempts',
    ])
    // An unknown browser with the right password still meets the lockout: it could be a stranger's lucky guess.
    expect(await attempt(s, new CookieJar(), 'ada', 'lovelace')).toBe('too_many_attempts')
    expect(await attempt(s, owner, 'ada', 'lovelace')).toBe('signed-in')
  })

  it('the device’s own budget locks only the device, and the app hears scope device without the account', async () => {
    const s = site()
    const owner = new CookieJar()
    await attempt(s, owner, 'ada', 'lovelace')
    owner.cookies.delete('authjs.session-token')
    const codes: string[] = []
    for (let i = 0; i < 6; i += 1) codes.push(await attempt(s, owner, 'ada', `typo-${i}`))
    expect(codes.slice(4)).toEqual(['credentials', 'too_many_attempts'])
    expect(await attempt(s, owner, 'ada', 'lovelace')).toBe('too_many_attempts')
    expect(s.lockouts).toEqual([expect.objectContaining({ provider: 'credentials', scope: 'device' })])
    expect(s.lockouts[0]).not.toHaveProperty('account')
    // The account's budget was not spent by the device: another browser of the owner's signs in.
    expect(await attempt(s, new CookieJar(), 'ada', 'lovelace')).toBe('signed-in')
  })

  it('a device known for one account is unknown for another', async () => {
    const s = site()
    const browser = new CookieJar()
    await attempt(s, browser, 'ada', 'lovelace')
    browser.cookies.delete('authjs.session-token')
    await lockOutFromStrangers(s, 'alan')
    expect(await attempt(s, browser, 'alan', 'turing')).toBe('too_many_attempts')
  })

  it.each([
    ['a forged mac', (value: string) => `${value.split('.')[0]}.${'A'.repeat(43)}`],
    ['another id under the same mac', (value: string) => `${'B'.repeat(24)}.${value.split('.')[1]}`],
    ['no dot', () => 'x'.repeat(40)],
  ])('a device cookie with %s is unknown', async (_, tamper) => {
    const s = site()
    const owner = new CookieJar()
    await attempt(s, owner, 'ada', 'lovelace')
    owner.cookies.delete('authjs.session-token')
    owner.cookies.set(deviceCookie, tamper(owner.cookies.get(deviceCookie) ?? ''))
    await lockOutFromStrangers(s, 'ada')
    expect(await attempt(s, owner, 'ada', 'lovelace')).toBe('too_many_attempts')
  })
})
