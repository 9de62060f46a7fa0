/**
 * SpentChallenges (src/effects/webauthn-challenges.ts): single use within the challenge's life, and a cost per claim
 * that does not grow with the number of challenges held (#29 finding 8). The cost is counted (entries a claim looks
 * at), not timed.
 */
import { describe, expect, it } from 'vitest'
import { SpentChallenges } from '../../../src/effects/webauthn-challenges.js'

const window = 300

describe('SpentChallenges', () => {
  it('hands a challenge out once until it expires, and forgets it afterwards', () => {
    const spent = new SpentChallenges()
    expect(spent.claim('a', 1000 + window, 1000)).toBe(true)
    expect(spent.claim('a', 1000 + window, 1010)).toBe(false)
    expect(spent.claim('', 1000 + window, 1010)).toBe(false)
    expect(spent.claim('b', 1005 + window, 1010)).toBe(true)
    // Past its expiry the flow itself is refused as expired; the record may go.
    expect(spent.claim('c', 2000 + window, 2000)).toBe(true)
    expect(spent.size).toBe(1)
  })

  it('keeps a challenge whose expiry is later than the ones after it until that expiry', () => {
    const spent = new SpentChallenges()
    expect(spent.claim('late', 1000 + window, 1000)).toBe(true)
    // An older options request answered later: an earlier expiry, claimed after.
    expect(spent.claim('early', 900 + window, 1001)).toBe(true)
    expect(spent.claim('early', 900 + window, 1199)).toBe(false)
    expect(spent.claim('late', 1000 + window, 1250)).toBe(false)
    expect(spent.claim('late', 1000 + window, 1299)).toBe(false)
    // Both gone once the later expiry has passed.
    expect(spent.claim('next', 1301 + window, 1301)).toBe(true)
    expect(spent.size).toBe(1)
  })

  it('looks at a bounded number of entries per claim however many unexpired challenges it holds', () => {
    const cost = (held: number): number => {
      const spent = new SpentChallenges()
      // `held` junk callbacks within one window: none has expired yet.
      for (let i = 0; i < held; i++) spent.claim(`junk-${i}`, 1000 + window, 1000)
      const before = spent.examined
      for (let i = 0; i < 100; i++) spent.claim(`real-${i}`, 1001 + window, 1001)
      return spent.examined - before
    }
    const small = cost(100)
    const large = cost(50_000)
    expect(large).toBeLessThanOrEqual(small)
    expect(large).toBeLessThanOrEqual(200)
  })

  it('frees each expired entry once: the work over a long run is proportional to the claims', () => {
    const spent = new SpentChallenges()
    for (let t = 0; t < 20_000; t++) spent.claim(`c-${t}`, t + window, t)
    // Each claim adds one entry and each entry is removed once: at most two looks per claim, amortised.
    expect(spent.examined).toBeLessThanOrEqual(2 * 20_000)
    expect(spent.size).toBeLessThanOrEqual(window + 1)
  })
})
