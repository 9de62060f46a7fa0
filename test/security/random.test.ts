/** Random values cut from the pooled CSPRNG buffer: right sizes, never repeated, never changed after they are handed out. */
import { describe, expect, it } from 'vitest'
import { randomBytesPooled, randomHex, randomToken } from '../../src/security/random.js'

describe('pooled randomness', () => {
  it('hands out values of the asked size, all different, across many pool refills', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) seen.add(randomBytesPooled(16).toString('hex'))
    expect(seen.size).toBe(2000)
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(randomHex()).toMatch(/^[0-9a-f]{64}$/)
    expect(randomBytesPooled(1000)).toHaveLength(1000)
  })

  it('never overwrites bytes already handed out when the pool refills', () => {
    const first = randomBytesPooled(32)
    const copy = Buffer.from(first)
    // Far more than one 4 KB pool: several refills happen after `first` was cut.
    for (let i = 0; i < 1000; i++) randomBytesPooled(32)
    expect(first.equals(copy)).toBe(true)
  })
})
