/**
 * Randomness, through one small injectable seam so tests can make flows deterministic.
 *
 * Small values are cut from a pool that is refilled from the CSPRNG 4 KB at a time: one call into OpenSSL per few
 * hundred tokens instead of one per token (the same batching node:crypto's `randomUUID` does). Each refill fills a
 * new buffer, so bytes already handed out are never overwritten, and no byte is handed out twice.
 */
import { randomBytes, randomFillSync, randomUUID } from 'node:crypto'

const poolSize = 4096
let pool = Buffer.alloc(0)
let offset = 0

/**
 * `length` bytes from the CSPRNG. Values up to 256 bytes come from the pool (the result is a view into it, so callers
 * must not write to it); larger ones straight from `randomBytes`.
 */
export function randomBytesPooled(length: number): Buffer {
  if (length > 256) return randomBytes(length)
  if (offset + length > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(poolSize))
    offset = 0
  }
  const bytes = pool.subarray(offset, offset + length)
  offset += length
  return bytes
}

/** `bytes` random bytes as base64url (32 bytes: 256 bits, the size of state, nonce and PKCE verifiers). */
export function randomToken(bytes = 32): string {
  return randomBytesPooled(bytes).toString('base64url')
}

/** A random hex string, the form of CSRF tokens. */
export function randomHex(bytes = 32): string {
  return randomBytesPooled(bytes).toString('hex')
}

/** A random UUID (database session tokens, JWT ids). */
export function randomId(): string {
  return randomUUID()
}
