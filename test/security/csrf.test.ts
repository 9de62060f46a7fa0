/** The CSRF token and cookie checks: double-submit, every malformed or foreign value refused. */
import { describe, expect, it } from 'vitest'
import { fixedFormatTokensEqual } from '../../src/security/constant-time.js'
import { createCsrfToken, isCsrfTokenValid, readCsrfCookie } from '../../src/security/csrf.js'

const secret = 'csrf-test-secret-with-at-least-32-chars'

describe('CSRF tokens', () => {
  it('reads the token of a cookie sealed with one of the secrets, and nothing else', () => {
    const { token, cookieValue } = createCsrfToken(secret)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(readCsrfCookie(cookieValue, [secret])).toBe(token)
    expect(readCsrfCookie(cookieValue, ['another-secret-of-32-characters!!', secret])).toBe(token)
    expect(readCsrfCookie(cookieValue, ['another-secret-of-32-characters!!'])).toBeNull()
    const [, hash] = cookieValue.split('|') as [string, string]
    expect(readCsrfCookie(`${'0'.repeat(64)}|${hash}`, [secret])).toBeNull()
    expect(readCsrfCookie(`${token}|${hash.slice(1)}`, [secret])).toBeNull()
    expect(readCsrfCookie(`${token}|${hash}0`, [secret])).toBeNull()
    expect(readCsrfCookie(`${token}|`, [secret])).toBeNull()
    expect(readCsrfCookie(`|${hash}`, [secret])).toBeNull()
    expect(readCsrfCookie(undefined, [secret])).toBeNull()
  })

  it('accepts exactly the cookie token as the submitted one', () => {
    const { token } = createCsrfToken(secret)
    expect(isCsrfTokenValid(token, token)).toBe(true)
    expect(isCsrfTokenValid(token, `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBe(false)
    expect(isCsrfTokenValid(token, token.slice(1))).toBe(false)
    expect(isCsrfTokenValid(token, `${token}0`)).toBe(false)
    expect(isCsrfTokenValid(token, '')).toBe(false)
    expect(isCsrfTokenValid(token, ['array'])).toBe(false)
    expect(isCsrfTokenValid(null, token)).toBe(false)
  })

  it('compares fixed-format tokens by bytes: equal only when equal, whatever the characters', () => {
    expect(fixedFormatTokensEqual('abc', 'abc')).toBe(true)
    expect(fixedFormatTokensEqual('abc', 'abd')).toBe(false)
    expect(fixedFormatTokensEqual('abc', 'ab')).toBe(false)
    // Same UTF-16 length, different UTF-8 length: compared as bytes, never as a truncated prefix.
    expect(fixedFormatTokensEqual('aé', 'ab')).toBe(false)
    expect(fixedFormatTokensEqual('é', 'é')).toBe(true)
    // U+0159 shares its low byte (0x59) with "Y": whole code units are compared, not bytes.
    expect(fixedFormatTokensEqual('\u0159', 'Y')).toBe(false)
    expect(fixedFormatTokensEqual('a\u0159', 'aY')).toBe(false)
    // A difference in the last position counts as much as one in the first.
    expect(fixedFormatTokensEqual(`${'f'.repeat(63)}0`, 'f'.repeat(64))).toBe(false)
    expect(fixedFormatTokensEqual('', '')).toBe(true)
  })
})
