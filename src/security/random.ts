/** Randomness, through one small injectable seam so tests can make flows deterministic. */
import { randomBytes, randomUUID } from 'node:crypto'

/** `bytes` random bytes as base64url (32 bytes: 256 bits, the size of state, nonce and PKCE verifiers). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** A random hex string, the form of CSRF tokens. */
export function randomHex(bytes = 32): string {
  return randomBytes(bytes).toString('hex')
}

/** A random UUID (database session tokens, JWT ids). */
export function randomId(): string {
  return randomUUID()
}
