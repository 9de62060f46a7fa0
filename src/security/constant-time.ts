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
