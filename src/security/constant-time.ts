/** Comparisons whose duration does not depend on where two secrets first differ. */
import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Whether two strings are equal, in constant time. Both sides are hashed first, so neither the position of the first
 * difference nor the length of the expected value leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest()
  const hb = createHash('sha256').update(b).digest()
  return timingSafeEqual(ha, hb) && a.length === b.length
}
