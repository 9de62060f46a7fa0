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
 * every UTF-16 code unit whatever the others hold. Only a difference in length returns early, and the length of such
 * a token is no secret. Cheaper than `constantTimeEqual` (no hashing) and than encoding both sides into buffers for
 * `timingSafeEqual`: the CSRF check runs on every form post.
 */
export function fixedFormatTokensEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  // OR-ing the XOR of each pair has no branch on the contents: the loop runs to the end for every input of a length.
  // Whole code units are compared, so a character beyond U+00FF cannot pass for one whose low byte it shares.
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
