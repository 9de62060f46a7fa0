/**
 * Stable user ids for sign-ins without a database. Without an adapter there is no user table to hand out ids, and the
 * provider's account id alone collides across providers (GitHub user 123 and Discord user 123). Auth.js answers with
 * a fresh random UUID on every sign-in, so `token.sub` changes each time; Authchart derives a UUID from the provider
 * id and the provider's account id instead: the same person at the same provider always gets the same id, and no two
 * providers can produce the same one.
 */
import { createHash } from 'node:crypto'

/** A UUID-shaped id (version 8, RFC 9562 §5.8) hashed from the provider id and the provider's account id. */
export function derivedUserId(providerId: string, providerAccountId: string): string {
  const hash = createHash('sha256').update(providerId).update('\u0000').update(providerAccountId).digest()
  hash[6] = (hash[6] & 0x0f) | 0x80
  hash[8] = (hash[8] & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}
