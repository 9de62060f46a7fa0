/**
 * Key derivation (HKDF-SHA256, RFC 5869) for everything Authchart encrypts. Session-token keys are derived exactly
 * as Auth.js derives them, so a session cookie written by Auth.js stays readable after a migration; every other
 * purpose gets a key under an info string of our own, so no two features ever share a key.
 *
 * Derivation runs on the session check of every page view, so derived keys are cached. The cache is bounded: its
 * keys include app-chosen salts and purposes, and a bound keeps a misbehaving caller from growing it without limit.
 */
import { hkdfSync } from 'node:crypto'

/** Content-encryption algorithms a session token may use; Auth.js writes `A256CBC-HS512` and reads both. */
export type SessionTokenEnc = 'A256CBC-HS512' | 'A256GCM'

/** Byte lengths a purpose key may have (AES-128 up to AES-256-CBC + HMAC-SHA-512). */
export type PurposeKeyLength = 16 | 24 | 32 | 48 | 64

/** A256CBC-HS512 needs a 512-bit key (MAC half + AES half, RFC 7518 §5.2.5); A256GCM a 256-bit one. */
const sessionKeyLength: Record<SessionTokenEnc, 32 | 64> = { 'A256CBC-HS512': 64, A256GCM: 32 }

/** Enough for several apps × secrets under rotation × cookie names × purposes; a miss costs only ~5 µs. */
const maxCachedKeys = 512

const cache = new Map<string, Uint8Array>()

/**
 * Cache key for one derivation. Each part is length-prefixed, so no two different (secret, salt, info) triples
 * can collide however their characters are chosen.
 */
function cacheKey(secret: string, salt: string, info: string, length: number): string {
  return `${length}|${info.length}:${info}|${salt.length}:${salt}|${secret}`
}

function derive(secret: string, salt: string, info: string, length: number): Uint8Array {
  const id = cacheKey(secret, salt, info, length)
  const hit = cache.get(id)
  if (hit) return hit
  const key = new Uint8Array(hkdfSync('sha256', secret, salt, info, length))
  // Oldest-first eviction: cheaper than LRU bookkeeping on every hit, and a real app's working set is far smaller.
  if (cache.size >= maxCachedKeys) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
  cache.set(id, key)
  return key
}

/** Byte length of the session-token key for a content-encryption algorithm. */
export function sessionTokenKeyLength(enc: SessionTokenEnc): 32 | 64 {
  return sessionKeyLength[enc]
}

/**
 * The session-token encryption key, derived as Auth.js derives it: HKDF-SHA256 over the secret, with the cookie
 * name as salt and `Auth.js Generated Encryption Key (<salt>)` as info. Cached; callers must not mutate the result.
 * @param secret one secret (for rotation, call once per secret)
 * @param salt the session cookie's name, e.g. `__Secure-authjs.session-token`
 * @param enc the token's content encryption; it fixes the key length (64 or 32 bytes)
 * @returns the derived key
 * @see https://www.rfc-editor.org/rfc/rfc5869
 */
export function deriveSessionTokenKey(secret: string, salt: string, enc: SessionTokenEnc): Uint8Array {
  return derive(secret, salt, `Auth.js Generated Encryption Key (${salt})`, sessionKeyLength[enc])
}

/**
 * A key for one of Authchart's own purposes (flow cookies, CSRF hashing ...). The purpose is both salt and part of
 * the info string, and the info's `Authchart purpose key` prefix keeps it apart from every session-token key even
 * when a purpose equals a cookie name. Cached; callers must not mutate the result.
 * @param secret one secret
 * @param purpose a stable name for the use, e.g. `flow cookie authjs.flow`
 * @param length key length in bytes
 * @returns the derived key
 */
export function derivePurposeKey(secret: string, purpose: string, length: PurposeKeyLength): Uint8Array {
  return derive(secret, purpose, `Authchart purpose key (${purpose})`, length)
}
