import { describe, expect, it } from 'vitest'
import {
  defaultRecoveryCodeCount,
  hashRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
} from '../../src/factors/recovery-codes.js'

describe('recovery codes', () => {
  it('makes 10 distinct codes by default, each 16 base32 characters (80 bits) in groups of four', () => {
    const codes = newRecoveryCodes()
    expect(codes).toHaveLength(defaultRecoveryCodeCount)
    expect(defaultRecoveryCodeCount).toBe(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/)
    expect(newRecoveryCodes(3)).toHaveLength(3)
    expect(() => newRecoveryCodes(0)).toThrow(RangeError)
  })

  it('uses every character of the alphabet (the bits are not biased toward a few)', () => {
    const seen = new Set(newRecoveryCodes(100).join('').replace(/-/g, ''))
    expect(seen.size).toBe(32)
  })

  it('reads a typed code whatever its case, spacing and hyphens, and o/i/l as 0/1/1', () => {
    const [code = ''] = newRecoveryCodes(1)
    const bare = code.replace(/-/g, '')
    expect(normaliseRecoveryCode(code.toUpperCase())).toBe(bare)
    expect(normaliseRecoveryCode(` ${bare.slice(0, 8)} ${bare.slice(8)} `)).toBe(bare)
    expect(normaliseRecoveryCode('oooo-iiii-llll-0000')).toBe('0000111111110000')
    for (const bad of ['', 'short', `${bare}x`, 'uuuu-uuuu-uuuu-uuuu', 'x'.repeat(200)]) {
      expect(normaliseRecoveryCode(bad)).toBeNull()
    }
  })

  it('hashes a code bound to its user: the same text is another hash for another user', () => {
    const [code = ''] = newRecoveryCodes(1)
    const hashed = hashRecoveryCode('user-1', code)
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(hashRecoveryCode('user-1', code.toUpperCase().replace(/-/g, ' '))).toBe(hashed)
    expect(hashRecoveryCode('user-2', code)).not.toBe(hashed)
    expect(hashed).not.toContain(code.replace(/-/g, ''))
    expect(hashRecoveryCode('user-1', 'not a code')).toBeNull()
  })
})
