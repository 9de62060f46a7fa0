/**
 * Finding 9 of the limits review: the account a failure is counted for folded only NFKC, spaces and case, so
 * zero-width characters bought a fresh budget, and a JSON body's `username: ["ada"]` was counted under no account
 * at all and still reached `authorize`.
 */
import { describe, expect, it } from 'vitest'
import Credentials from '../../src/providers/credentials.js'
import { normalizeAccount } from '../../src/providers-internal/credentials-limits.js'
import { scalarText } from '../../src/security/scalar-text.js'
import { CookieJar, csrfToken, send, testConfig, users } from '../support/auth-harness.js'

function countingConfig() {
  const calls = { authorize: 0 }
  const provider = Credentials({
    credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
    bruteForce: { maxFailures: 2 },
    authorize: (credentials) => {
      calls.authorize += 1
      const entry = users[scalarText(credentials.username)]
      return entry && entry.password === credentials.password ? entry.user : null
    },
  })
  return { config: testConfig({ providers: [provider] }), calls }
}

async function post(config: ReturnType<typeof testConfig>, body: Record<string, unknown>) {
  const jar = new CookieJar()
  const response = await send(config, '/auth/callback/credentials', {
    jar,
    json: { ...body, csrfToken: await csrfToken(config, jar) },
  })
  const location = new URL(response.headers.get('location') as string)
  return { jar, error: location.searchParams.get('error'), code: location.searchParams.get('code') }
}

describe('account keys', () => {
  it('fold default-ignorable code points (zero-width space, joiners, soft hyphen, bidi marks)', () => {
    for (const typed of ['a\u200bda', '\u200dADA', 'a\u00adda', '\u200ea\ufe0fda ', 'ａｄａ'])
      expect(normalizeAccount(typed)).toBe('ada')
  })

  it('share one budget however the name is dressed: the owner is locked after failures under variants', async () => {
    const { config } = countingConfig()
    expect((await post(config, { username: 'a\u200bda', password: 'x' })).code).toBe('credentials')
    expect((await post(config, { username: 'ad\u2060a', password: 'y' })).code).toBe('credentials')
    const owner = await post(config, { username: 'ada', password: 'lovelace' })
    expect(owner.code).toBe('too_many_attempts')
  })

  it('refuse a username that is not text with a clear error, before authorize and before any count', async () => {
    const { config, calls } = countingConfig()
    for (const username of [['ada'], { 0: 'ada' }, 42, true]) {
      const refused = await post(config, { username, password: 'lovelace' })
      expect(refused).toMatchObject({ error: 'CredentialsSignin', code: 'invalid_input' })
      expect(refused.jar.cookies.has('authjs.session-token')).toBe(false)
    }
    expect(calls.authorize).toBe(0)
    expect(config.recorded.warnings.filter((code) => code === 'refused:credentials-input')).toHaveLength(4)
    // Nothing was counted: the owner still signs in.
    expect(
      (await post(config, { username: 'ada', password: 'lovelace' })).jar.cookies.has('authjs.session-token'),
    ).toBe(true)
  })
})
