/**
 * Compact JWE with direct key agreement (`alg: "dir"`), sealed and opened synchronously on `node:crypto`.
 *
 * Session cookies and flow cookies are read on every request; jose's WebCrypto path is asynchronous and an order of
 * magnitude slower for these small payloads (see design/xstate-findings.md §5). The output is standard RFC 7516
 * compact serialisation, checked both ways against jose in test/session/jwe.test.ts.
 *
 * `open` treats every input as hostile: anything malformed, unsupported or unauthenticated gives `null`, never an
 * exception, and the authentication tag is verified before any decryption happens.
 * @see https://www.rfc-editor.org/rfc/rfc7516 (JWE) and https://www.rfc-editor.org/rfc/rfc7518#section-5 (encs)
 */
import { createCipheriv, createDecipheriv } from 'node:crypto'
import { randomBytesPooled } from '../security/random.js'
import { SessionTokenError } from '../errors.js'
import { openCbcHs512, sealCbcHs512 } from './cbc-hs512.js'

/** Content-encryption algorithms supported here. */
export type ContentEncryption = 'A256CBC-HS512' | 'A256GCM'

/** The protected header of a JWE this module accepts. */
export interface JweProtectedHeader extends Record<string, unknown> {
  alg: 'dir'
  enc: ContentEncryption
  kid?: string
}

/** A successfully opened JWE. */
export interface OpenedJwe {
  plaintext: Buffer
  header: JweProtectedHeader
  /** Index in the candidate list of the key that opened it (0 = the newest secret). */
  keyIndex: number
}

/** Candidate keys, fixed or chosen after the header is read (e.g. by `kid`, or by `enc` to pick the key length). */
export type CandidateKeys = readonly Uint8Array[] | ((header: JweProtectedHeader) => readonly Uint8Array[])

interface EncParameters {
  keyLength: number
  ivLength: number
  tagLength: number
}

const encParameters: Record<ContentEncryption, EncParameters> = {
  // RFC 7518 §5.2.5: 64-byte key (MAC ‖ ENC), 128-bit IV, tag = HMAC-SHA-512 truncated to 256 bits.
  'A256CBC-HS512': { keyLength: 64, ivLength: 16, tagLength: 32 },
  // RFC 7518 §5.3: 96-bit IV, 128-bit tag.
  A256GCM: { keyLength: 32, ivLength: 12, tagLength: 16 },
}

/** Header members the caller may not set: `alg`/`enc` are pinned, and `zip`/`crit` are refused when opening. */
const reservedHeaderMembers = new Set(['alg', 'enc', 'zip', 'crit'])

/** Far above any header we write (~130 chars); bounds the JSON we parse from untrusted input. */
const maxHeaderLength = 1024

/**
 * Strict base64url: Node's decoder silently skips foreign characters, which would let altered input through. Rather
 * than scan the segment with a pattern first (half the cost of decoding a session token's ciphertext), the decoded
 * length is checked: every character Node skips (anything outside the alphabet, `=`) makes the output shorter than
 * the segment's length promises. What Node does not skip is refused apart: `+` and `/` (it reads base64 too) and
 * characters beyond ASCII (it reads their low byte). test/session/jwe.test.ts holds this equal to the alphabet
 * pattern on random input.
 */
export function decodeBase64url(segment: string): Buffer | null {
  if (segment.length % 4 === 1) return null
  const bytes = Buffer.from(segment, 'base64url')
  if (bytes.length !== Math.floor((segment.length * 3) / 4)) return null
  if (segment.includes('+') || segment.includes('/') || Buffer.byteLength(segment, 'utf8') !== segment.length)
    return null
  return bytes
}

/** RFC 7518 §5.2.2.1: AL is the bit length of the AAD as a 64-bit big-endian integer. */
function additionalDataLength(aad: Buffer): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length) * 8n)
  return al
}

function encrypt(
  enc: ContentEncryption,
  key: Uint8Array,
  iv: Buffer,
  aad: Buffer,
  al: Buffer,
  plaintext: Uint8Array,
): { ciphertext: Buffer; tag: Buffer } {
  if (enc === 'A256GCM') {
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 })
    cipher.setAAD(aad)
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return { ciphertext, tag: cipher.getAuthTag() }
  }
  return sealCbcHs512(key, iv, aad, al, plaintext)
}

function decrypt(
  enc: ContentEncryption,
  key: Uint8Array,
  iv: Buffer,
  aad: Buffer,
  al: Buffer,
  ciphertext: Buffer,
  tag: Buffer,
): Buffer | null {
  // RFC 7518 §5.2.2.2: the CBC tag is checked before decrypting, so a forged token never reaches the padding check
  // (no padding oracle), and the comparison takes the same time wherever the tags differ (src/session/cbc-hs512.ts).
  if (enc === 'A256CBC-HS512') return openCbcHs512(key, iv, aad, al, ciphertext, tag)
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 })
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(ciphertext), decipher.final()])
  } catch {
    // GCM tag mismatch.
    return null
  }
}

/** Parses and vets the protected header; `null` for anything this module would not open. */
function readProtectedHeader(segment: string, allowedEncs: readonly ContentEncryption[]): JweProtectedHeader | null {
  if (segment.length === 0 || segment.length > maxHeaderLength) return null
  const bytes = decodeBase64url(segment)
  if (!bytes) return null
  let header: unknown
  try {
    header = JSON.parse(bytes.toString('utf8'))
  } catch {
    return null
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return null
  const h = header as Record<string, unknown>
  if (h.alg !== 'dir') return null
  if (typeof h.enc !== 'string' || !Object.hasOwn(encParameters, h.enc)) return null
  if (!(allowedEncs as readonly string[]).includes(h.enc)) return null
  // Compression before encryption leaks plaintext through length (CRIME-style); nothing we write uses it.
  if ('zip' in h) return null
  // RFC 7515 §4.1.11: we understand no critical extension, so any `crit` must be refused.
  if ('crit' in h) return null
  if ('kid' in h && typeof h.kid !== 'string') return null
  return h as JweProtectedHeader
}

/**
 * A protected header encoded once, for sealing many tokens under it (and recognising them when they come back): its
 * base64url form, the AAD and its length block.
 */
export interface PreparedHeader {
  header: JweProtectedHeader
  encoded: string
  aad: Buffer
  al: Buffer
}

/**
 * Encodes a protected header for `sealPrepared`.
 * @param enc the content-encryption algorithm
 * @param extraProtectedHeader further header members (e.g. `kid`); `alg`, `enc`, `zip` and `crit` are ignored
 */
export function prepareHeader(
  enc: ContentEncryption,
  extraProtectedHeader?: Readonly<Record<string, unknown>>,
): PreparedHeader {
  const header: Record<string, unknown> = { alg: 'dir', enc }
  if (extraProtectedHeader) {
    for (const [name, value] of Object.entries(extraProtectedHeader)) {
      if (!reservedHeaderMembers.has(name) && value !== undefined) header[name] = value
    }
  }
  const encoded = Buffer.from(JSON.stringify(header), 'utf8').toString('base64url')
  // RFC 7516 §5.1 step 14: the AAD is the ASCII of the encoded header, not the header bytes.
  const aad = Buffer.from(encoded, 'latin1')
  return { header: header as JweProtectedHeader, encoded, aad, al: additionalDataLength(aad) }
}

/**
 * Seals a plaintext as a compact JWE (`alg: "dir"`) under a prepared header.
 * @throws {SessionTokenError} when the key length does not fit the header's `enc` (a programming error)
 */
export function sealPrepared(plaintext: string | Uint8Array, key: Uint8Array, prepared: PreparedHeader): string {
  const { enc } = prepared.header
  const params = encParameters[enc]
  if (!params || key.length !== params.keyLength) {
    throw new SessionTokenError('jwe key length does not match the content encryption', {
      enc,
      expected: params?.keyLength,
      received: key.length,
    })
  }
  const iv = randomBytesPooled(params.ivLength)
  const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext
  const { ciphertext, tag } = encrypt(enc, key, iv, prepared.aad, prepared.al, data)
  return `${prepared.encoded}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`
}

/**
 * Seals a plaintext as a compact JWE (`alg: "dir"`).
 * @param plaintext text (UTF-8 encoded) or bytes
 * @param key the content-encryption key: 64 bytes for `A256CBC-HS512`, 32 for `A256GCM`
 * @param enc the content-encryption algorithm
 * @param extraProtectedHeader further header members (e.g. `kid`); `alg`, `enc`, `zip` and `crit` are ignored
 * @returns the compact serialisation `header..iv.ciphertext.tag`
 * @throws {SessionTokenError} when the key length does not fit `enc` (a programming error, never input-driven)
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.1
 */
export function sealCompactJwe(
  plaintext: string | Uint8Array,
  key: Uint8Array,
  enc: ContentEncryption,
  extraProtectedHeader?: Readonly<Record<string, unknown>>,
): string {
  const params = encParameters[enc]
  if (!params || key.length !== params.keyLength) {
    throw new SessionTokenError('jwe key length does not match the content encryption', {
      enc,
      expected: params?.keyLength,
      received: key.length,
    })
  }
  return sealPrepared(plaintext, key, prepareHeader(enc, extraProtectedHeader))
}

/**
 * Opens a compact JWE (`alg: "dir"`) with the first candidate key that authenticates it.
 * @param jwe the compact serialisation (untrusted)
 * @param candidateKeys keys to try in order, or a function choosing them from the vetted header; keys whose length
 *   does not fit the header's `enc` are skipped
 * @param allowedEncs the content encryptions accepted; any other is refused
 * @returns plaintext, header and the index of the key that opened it; `null` for malformed, unsupported (`zip`,
 *   `crit`, other `alg`/`enc`), wrongly sized or unauthenticated input. Never throws.
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export function openCompactJwe(
  jwe: string,
  candidateKeys: CandidateKeys,
  allowedEncs: readonly ContentEncryption[],
  /** A header this caller seals with: a token carrying exactly it skips parsing the header again. */
  known?: PreparedHeader,
): OpenedJwe | null {
  if (typeof jwe !== 'string') return null
  const parts = jwe.split('.')
  if (parts.length !== 5) return null
  const [encodedHeader, encryptedKey, encodedIv, encodedCiphertext, encodedTag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ]
  // RFC 7518 §4.5: with `dir` the JWE Encrypted Key must be empty.
  if (encryptedKey !== '') return null
  const isKnown = known !== undefined && encodedHeader === known.encoded && allowedEncs.includes(known.header.enc)
  const header = isKnown ? known.header : readProtectedHeader(encodedHeader, allowedEncs)
  if (!header) return null
  const params = encParameters[header.enc]
  // Cheapest check first: a header no key of ours answers to (a foreign `kid`) is refused before any byte of the
  // ciphertext is decoded, so a large foreign token costs a header parse, not a decode and a MAC per key.
  let keys: readonly Uint8Array[]
  try {
    keys = typeof candidateKeys === 'function' ? candidateKeys(header) : candidateKeys
  } catch {
    return null
  }
  if (keys.length === 0) return null
  const iv = decodeBase64url(encodedIv)
  const tag = decodeBase64url(encodedTag)
  const ciphertext = decodeBase64url(encodedCiphertext)
  if (!iv || !tag || !ciphertext) return null
  if (iv.length !== params.ivLength || tag.length !== params.tagLength) return null
  // A CBC ciphertext of no whole blocks is refused by src/session/cbc-hs512.ts, which owns that mode's sizes.
  const aad = isKnown ? known.aad : Buffer.from(encodedHeader, 'latin1')
  const al = isKnown ? known.al : additionalDataLength(aad)
  for (let keyIndex = 0; keyIndex < keys.length; keyIndex++) {
    const key = keys[keyIndex]
    if (!key || key.length !== params.keyLength) continue
    const plaintext = decrypt(header.enc, key, iv, aad, al, ciphertext, tag)
    if (plaintext) return { plaintext, header, keyIndex }
  }
  return null
}
