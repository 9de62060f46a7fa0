/**
 * Recovery codes: single-use codes shown once at enrolment, for when the authenticator is lost. Each code carries
 * 80 random bits, so the store keeps only a SHA-256 of it (a slow hash buys nothing against a search of 2^80), and
 * the hash is bound to the user, so the same text could never stand for a code of someone else.
 */
import { hash } from 'node:crypto'
import { randomBytesPooled } from '../security/random.js'

/** How many codes a set holds unless the app says otherwise. */
export const defaultRecoveryCodeCount = 10

/** Lower-case base32 without the letters read as digits (i, l, o, u: Crockford's choice): 5 bits a character. */
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz'
/** 16 characters × 5 bits = 80 bits of entropy per code. */
const codeLength = 16
const groupLength = 4

/** One code, grouped for reading aloud: `7k2m-9xq4-...`. */
function newRecoveryCode(): string {
  const bytes = randomBytesPooled(10)
  let bits = 0
  let value = 0
  let code = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      code += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
  }
  return code.match(new RegExp(`.{${groupLength}}`, 'g'))?.join('-') ?? code
}

/**
 * A fresh set of codes, all different, to show the user once; store only their `hashRecoveryCode`.
 * @param count how many (default 10)
 */
export function newRecoveryCodes(count: number = defaultRecoveryCodeCount): string[] {
  if (!Number.isInteger(count) || count < 1 || count > 100) {
    throw new RangeError('a recovery code set holds between 1 and 100 codes')
  }
  const codes = new Set<string>()
  while (codes.size < count) codes.add(newRecoveryCode())
  return [...codes]
}

/**
 * A typed code as stored: case, spaces and hyphens do not count, and the letters people confuse with digits read as
 * those digits (o → 0, i and l → 1). `null` when it cannot be a code.
 */
export function normaliseRecoveryCode(input: string): string | null {
  if (typeof input !== 'string' || input.length > 64) return null
  const code = input
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1')
  if (code.length !== codeLength) return null
  for (const character of code) if (!alphabet.includes(character)) return null
  return code
}

/**
 * The stored form of a code of `userId`: base64url SHA-256 over a domain label, the user id and the normalised code.
 * `null` for input that is no code at all (the caller refuses it without asking the store).
 */
export function hashRecoveryCode(userId: string, input: string): string | null {
  const code = normaliseRecoveryCode(input)
  if (code === null) return null
  return hash('sha256', `authchart recovery code v1\0${userId}\0${code}`, 'base64url')
}
