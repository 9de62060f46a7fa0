import { describe, expect, it } from 'vitest'
import { compactDecrypt } from 'jose'
import { hkdfSync } from 'node:crypto'
import { openSessionToken, sealSessionToken, sessionIdClaimName } from '../../src/session/session-jwe.js'

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

  describe('a session-managed token: the session id claim is sealed as its jti', () => {
    const claim = 'Q2xhaW1lZElkMTIz.mwxkarw7.mx1umbxa.credentials'
    /** The plaintext as sealed, read with jose (Auth.js's key derivation), not through the code under test. */
    async function sealedClaims(token: string): Promise<Record<string, unknown>> {
      const key = new Uint8Array(
        hkdfSync('sha256', secrets[0] ?? '', salt, `Auth.js Generated Encryption Key (${salt})`, 64),
      )
      const { plaintext } = await compactDecrypt(token, key)
      return JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>
    }

    it('seals the claim as the jti and nothing under its own name, and opens it under both', async () => {
      const token = sealSessionToken(secrets, salt, { sub: 'u-5', [sessionIdClaimName]: claim }, 60, now)
      const sealed = await sealedClaims(token)
      expect(sealed.jti).toBe(claim)
      expect(sessionIdClaimName in sealed).toBe(false)
      const opened = openSessionToken<Record<string, unknown>>(secrets, salt, token, now)
      expect(opened?.[sessionIdClaimName]).toBe(claim)
      expect(opened?.jti).toBe(claim)
      // Opened, then sealed again (a re-issue, or an app's decode and encode): the session is kept.
      const again = sealSessionToken(secrets, salt, opened ?? {}, 60, now + 1)
      expect((await sealedClaims(again)).jti).toBe(claim)
      // A managed cookie is about 20 characters longer than a plain one, not a hundred.
      const plain = sealSessionToken(secrets, salt, { sub: 'u-5' }, 60, now)
      expect(token.length - plain.length).toBeLessThan(30)
    })

    it('a token without the claim gets a fresh UUID jti on every seal, which is never taken for a claim', async () => {
      const first = sealSessionToken(secrets, salt, { sub: 'u-6' }, 60, now)
      const opened = openSessionToken<Record<string, unknown>>(secrets, salt, first, now)
      expect(opened?.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(opened?.[sessionIdClaimName]).toBeUndefined()
      const second = await sealedClaims(sealSessionToken(secrets, salt, opened ?? {}, 60, now))
      expect(second.jti).not.toBe(opened?.jti)
      // The object form (a claim the compact string cannot hold) stays a claim of its own beside a fresh jti.
      const objectForm = { id: 'a.b', at: 5 }
      const sealed = await sealedClaims(sealSessionToken(secrets, salt, { [sessionIdClaimName]: objectForm }, 60, now))
      expect(sealed[sessionIdClaimName]).toEqual(objectForm)
      expect(sealed.jti).toMatch(/^[0-9a-f-]{36}$/)
    })
  })
})
