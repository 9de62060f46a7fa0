/** Comparisons whose duration does not depend on where two secrets first differ. */
import { hash, timingSafeEqual } from 'node:crypto'

/**
 * Whether two strings are equal, in constant time. Both sides are hashed first, so neither the position of the first
 * difference nor the length of the expected value leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  // One-shot hashing: no Hash object per side (node:crypto's `hash`, Node ≥ 20.12).
  const ha = hash('sha256', a, 'buffer')
  const hb = hash('sha256', b, 'buffer')
  return timingSafeEqual(ha, hb) && a.length === b.length
}

/**
 * Whether two tokens of a fixed, public format (CSRF tokens and their hashes: 64 hex characters) are equal, comparing
 * their bytes in constant time. Only a difference in length returns early, and the length of such a token is no
 * secret. Cheaper than `constantTimeEqual` (no hashing): the CSRF check runs on every form post.
 */
export function fixedFormatTokensEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8')
  const bb = Buffer.from(b, 'utf8')
  return ba.length === bb.length && timingSafeEqual(ba, bb)
}
