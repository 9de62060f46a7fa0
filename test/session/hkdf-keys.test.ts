import { hkdf } from '@panva/hkdf'
import { describe, expect, it } from 'vitest'
import { derivePurposeKey, deriveSessionTokenKey, sessionTokenKeyLength } from '../../src/session/hkdf-keys.js'

/** An independent HKDF (WebCrypto) to check node:crypto's output against. */
async function webCryptoHkdf(secret: string, salt: string, info: string, length: number): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new TextEncoder().encode(salt), info: new TextEncoder().encode(info) },
    ikm,
    length * 8,
  )
  return new Uint8Array(bits)
}

describe('deriveSessionTokenKey', () => {
  it.each(['authjs.session-token', '__Secure-authjs.session-token'])(
    'derives the Auth.js key for salt %s',
    async (salt) => {
      const info = `Auth.js Generated Encryption Key (${salt})`
      expect(deriveSessionTokenKey('s3cret', salt, 'A256CBC-HS512')).toEqual(
        await webCryptoHkdf('s3cret', salt, info, 64),
      )
      expect(deriveSessionTokenKey('s3cret', salt, 'A256GCM')).toEqual(await webCryptoHkdf('s3cret', salt, info, 32))
      // @panva/hkdf is the derivation @auth/core itself calls.
      expect(deriveSessionTokenKey('s3cret', salt, 'A256CBC-HS512')).toEqual(
        await hkdf('sha256', 's3cret', salt, info, 64),
      )
    },
  )

  it('sizes the key for the content encryption', () => {
    expect(sessionTokenKeyLength('A256CBC-HS512')).toBe(64)
    expect(sessionTokenKeyLength('A256GCM')).toBe(32)
    expect(deriveSessionTokenKey('a', 'b', 'A256CBC-HS512')).toHaveLength(64)
    expect(deriveSessionTokenKey('a', 'b', 'A256GCM')).toHaveLength(32)
  })

  it('returns the cached key on a repeated derivation', () => {
    const first = deriveSessionTokenKey('cache-me', 'authjs.session-token', 'A256CBC-HS512')
    expect(deriveSessionTokenKey('cache-me', 'authjs.session-token', 'A256CBC-HS512')).toBe(first)
  })

  it('gives different keys for a different secret, salt or encryption', () => {
    const base = deriveSessionTokenKey('one', 'authjs.session-token', 'A256CBC-HS512')
    expect(deriveSessionTokenKey('two', 'authjs.session-token', 'A256CBC-HS512')).not.toEqual(base)
    expect(deriveSessionTokenKey('one', '__Secure-authjs.session-token', 'A256CBC-HS512')).not.toEqual(base)
    // HKDF output is prefix-consistent: the A256GCM key is the first half of the CBC key, exactly as in Auth.js.
    expect(deriveSessionTokenKey('one', 'authjs.session-token', 'A256GCM')).toEqual(base.subarray(0, 32))
  })

  it('does not confuse secrets and salts whose concatenations coincide', () => {
    expect(deriveSessionTokenKey('ab', 'c', 'A256GCM')).not.toEqual(deriveSessionTokenKey('a', 'bc', 'A256GCM'))
  })

  it('stays correct once the cache has evicted entries', async () => {
    const first = deriveSessionTokenKey('evict-0', 'salt', 'A256GCM')
    for (let i = 1; i < 1200; i++) deriveSessionTokenKey(`evict-${i}`, 'salt', 'A256GCM')
    const again = deriveSessionTokenKey('evict-0', 'salt', 'A256GCM')
    expect(again).toEqual(first)
    expect(again).toEqual(await webCryptoHkdf('evict-0', 'salt', 'Auth.js Generated Encryption Key (salt)', 32))
  })
})

describe('derivePurposeKey', () => {
  it('derives with our own info string, salted by the purpose', async () => {
    const key = derivePurposeKey('s3cret', 'flow cookie authjs.flow', 32)
    expect(key).toEqual(
      await webCryptoHkdf('s3cret', 'flow cookie authjs.flow', 'Authchart purpose key (flow cookie authjs.flow)', 32),
    )
  })

  it('never yields a session-token key, even when the purpose is a cookie name', () => {
    expect(derivePurposeKey('s3cret', 'authjs.session-token', 32)).not.toEqual(
      deriveSessionTokenKey('s3cret', 'authjs.session-token', 'A256GCM'),
    )
  })

  it('gives each purpose and length its own key, and caches it', () => {
    const csrf = derivePurposeKey('s3cret', 'csrf', 32)
    expect(derivePurposeKey('s3cret', 'flow', 32)).not.toEqual(csrf)
    expect(derivePurposeKey('s3cret', 'csrf', 32)).toBe(csrf)
    expect(derivePurposeKey('s3cret', 'csrf', 64)).toHaveLength(64)
  })
})
