/** An unreadable session cookie (another secret or salt, tampered) is no session, and one JWTSessionError in the log. */
import { describe, expect, it } from 'vitest'
import { CookieJar, send, signIn, testConfig } from '../support/auth-harness.js'

describe('an unreadable session cookie', () => {
  it('is logged once per request as JWTSessionError, and the session is null', async () => {
    const issuer = testConfig({ secret: 'another-secret-of-at-least-thirty-two-characters' })
    const jar = new CookieJar()
    await signIn(issuer, jar)
    const reader = testConfig()
    const response = await send(reader, '/auth/session', { jar })
    expect(await response.json()).toBeNull()
    expect(reader.recorded.errors.map((e) => (e as { type?: string }).type)).toEqual(['JWTSessionError'])
  })
})
