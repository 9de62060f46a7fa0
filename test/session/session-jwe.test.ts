import { describe, expect, it } from 'vitest'
import { openSessionToken, sealSessionToken } from '../../src/session/session-jwe.js'

/** Replaces one character in the middle of a segment with another base64url character. */
function alterSegment(token: string, index: number): string {
  const parts = token.split('.')
  const segment = parts[index]
  const middle = Math.floor(segment.length / 2)
  parts[index] = `${segment.slice(0, middle)}${segment[middle] === 'A' ? 'B' : 'A'}${segment.slice(middle + 1)}`
  return parts.join('.')
}

describe('session tokens sealed and opened', () => {
  const secrets = ['session-jwe-test-secret-session-jwe-test-secret']
  const salt = 'authjs.session-token'
  const now = 1_900_000_000

  it('opens a token it sealed, and applies the clock on every read', () => {
    const token = sealSessionToken(secrets, salt, { sub: 'u-1' }, 60, now)
    expect(openSessionToken<{ sub: string }>(secrets, salt, token, now + 30)?.sub).toBe('u-1')
    // Expired (past the 15 s tolerance) on a later read of the same token.
    expect(openSessionToken(secrets, salt, token, now + 60 + 16)).toBeNull()
    expect(openSessionToken<{ sub: string }>(secrets, salt, token, now + 30)?.sub).toBe('u-1')
  })

  it('refuses a token sealed under another salt, and one whose ciphertext was changed under its tag', () => {
    const otherSalt = 'session-jwe-test.session-token'
    const token = sealSessionToken(secrets, otherSalt, { sub: 'u-2' }, 60, now)
    const foreign = sealSessionToken(secrets, 'another-salt', { sub: 'u-3' }, 60, now)
    expect(openSessionToken(secrets, otherSalt, foreign, now)).toBeNull()
    // The token read once, then presented with its ciphertext changed and its tag kept: refused.
    expect(openSessionToken<{ sub: string }>(secrets, otherSalt, token, now)?.sub).toBe('u-2')
    expect(openSessionToken(secrets, otherSalt, alterSegment(token, 3), now)).toBeNull()
    expect(openSessionToken(secrets, otherSalt, alterSegment(token, 2), now)).toBeNull()
    expect(openSessionToken<{ sub: string }>(secrets, otherSalt, token, now)?.sub).toBe('u-2')
  })

  it('opens a token another instance sealed with the same secret', () => {
    const writer = ['session-jwe-test-secret-session-jwe-test-secret']
    const token = sealSessionToken(writer, 'instance-a', { sub: 'u-4' }, 60, now)
    // Another process: same secret, a different array, so a different key ring.
    const reader = [...writer]
    expect(openSessionToken<{ sub: string }>(reader, 'instance-a', token, now)?.sub).toBe('u-4')
  })
})
