/**
 * AES-256-CBC with HMAC-SHA-512 (`A256CBC-HS512`, RFC 7518 §5.2.5) with its AES contexts kept per key, so sealing and
 * opening a session token sets up no OpenSSL cipher context.
 *
 * Why: a session check opens one token and seals the next. Done the usual way that sets up and throws away two AES
 * contexts per check, each with its key schedule and OpenSSL's algorithm fetch: about a quarter of the crypto of a
 * check (docs/benchmarks.md, "AES contexts kept per key"). The MAC is worked the same way, from pads kept per key
 * (`tagOf`).
 *
 * AES-CBC runs on one encrypting and one decrypting context per key, padding off, never finalised. CBC chains each
 * block into the next, so a context left after one message holds that message's last ciphertext block as its chaining
 * value. A new message under its own IV goes through the same context with the difference folded into its first
 * block: encrypting, the first plaintext block is XORed with `iv ⊕ chain` before it goes in (the context XORs `chain`
 * back, so AES sees `P₀ ⊕ iv`); decrypting, the first output block is XORed with `iv ⊕ chain`. The ciphertext is
 * exactly what a fresh context with that IV writes, and the plaintext exactly what one reads
 * (test/session/cbc-hs512.test.ts holds both equal to `createCipheriv`/`createDecipheriv` on random keys, IVs and
 * lengths). PKCS #7 padding is added and checked here, after the MAC, as RFC 7518 orders it.
 *
 * The chaining value is tracked here, from the bytes that went in or came out, never assumed: JavaScript runs one
 * update at a time, each synchronous, so no two messages interleave on a context. A context that ever gives back
 * other than whole blocks is dropped, and the next message gets a new one.
 *
 * Contexts are cached by the key's identity (the derivation cache hands out the same `Uint8Array` for the same secret
 * and salt); a copy of the key is kept with them and compared on each use, so a caller that changed a key's bytes gets
 * new contexts rather than the old key's.
 */
import { createCipheriv, createDecipheriv, hash, timingSafeEqual, type Cipher, type Decipher } from 'node:crypto'

const blockSize = 16
/** RFC 7518 §5.2.5: the tag is the first half of the HMAC-SHA-512 output. */
const tagLength = 32
const macKeyLength = 32
const keyLength = 64
/** SHA-512's block and output sizes: RFC 2104 pads the MAC key to one block. */
const sha512Block = 128
const sha512Length = 64
/**
 * The message size a key's MAC scratch holds: a session token's AAD, IV and ciphertext take under 1 KB, a session
 * cookie of four full chunks about 12 KB (a refused 8 KB cookie is MACed here too, rather than in a buffer of its
 * own). A longer message gets an input of its own.
 */
const innerRoom = 16_384

interface KeyContexts {
  /** A copy of the 64-byte key these contexts were made from (MAC half ‖ AES half). */
  key: Buffer
  /**
   * The inner hash's input: RFC 2104's inner pad (the MAC key zero-filled to a block, XORed with 0x36), written once,
   * then room for a message of up to `innerRoom` bytes.
   */
  innerInput: Buffer
  /** The outer hash's input: the outer pad (the key XORed with 0x5c), then room for the inner hash. */
  outerInput: Buffer
  encrypting: Cipher
  /** The last ciphertext block `encrypting` wrote: its chaining value for the next message. */
  encryptChain: Buffer
  decrypting: Decipher
  /** The last ciphertext block `decrypting` read. */
  decryptChain: Buffer
}

const contexts = new WeakMap<Uint8Array, KeyContexts>()

function makeContexts(key: Uint8Array): KeyContexts {
  const copy = Buffer.from(key)
  const zeroIv = Buffer.alloc(blockSize)
  const aesKey = copy.subarray(macKeyLength)
  const encrypting = createCipheriv('aes-256-cbc', aesKey, zeroIv).setAutoPadding(false)
  const decrypting = createDecipheriv('aes-256-cbc', aesKey, zeroIv).setAutoPadding(false)
  const innerInput = Buffer.alloc(sha512Block + innerRoom)
  innerInput.fill(0x36, 0, sha512Block)
  const outerInput = Buffer.alloc(sha512Block + sha512Length, 0x5c)
  for (let i = 0; i < macKeyLength; i++) {
    innerInput[i] ^= copy[i]
    outerInput[i] ^= copy[i]
  }
  return {
    key: copy,
    innerInput,
    outerInput,
    encrypting,
    encryptChain: Buffer.alloc(blockSize),
    decrypting,
    decryptChain: Buffer.alloc(blockSize),
  }
}

function contextsFor(key: Uint8Array): KeyContexts {
  const known = contexts.get(key)
  if (known && known.key.equals(key)) return known
  const made = makeContexts(key)
  contexts.set(key, made)
  return made
}

/**
 * The `A256CBC-HS512` tag: HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, its first 32 bytes (RFC 7518 §5.2.2.1).
 *
 * The HMAC is RFC 2104's two hashes over the pads kept with the key (the MAC key, 32 bytes, is shorter than SHA-512's
 * block, so it is zero-filled, never hashed first), each one call of `crypto.hash`: a `createHmac` object sets up
 * OpenSSL's digest three times over (HMAC's inner, outer and working contexts), and with its two MACs a session check
 * cost about 6 % more (docs/benchmarks.md, "The MAC as two hashes"). test/session/cbc-hs512.test.ts holds the tag
 * equal to `createHmac`'s.
 */
function tagOf(ctx: KeyContexts, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, al: Uint8Array): Buffer {
  const length = sha512Block + aad.length + iv.length + ciphertext.length + al.length
  // The inputs are this key's scratch: JavaScript runs one tag at a time, and each is computed in one go. Kept rather
  // than taken from Node's buffer pool, whose 8 KB slabs the two MACs of a check otherwise used up every few checks.
  let inner = ctx.innerInput
  if (length > inner.length) {
    inner = Buffer.allocUnsafe(length)
    ctx.innerInput.copy(inner, 0, 0, sha512Block)
  }
  let at = sha512Block
  inner.set(aad, at)
  at += aad.length
  inner.set(iv, at)
  at += iv.length
  inner.set(ciphertext, at)
  inner.set(al, at + ciphertext.length)
  ctx.outerInput.set(hash('sha512', inner.subarray(0, length), 'buffer'), sha512Block)
  return hash('sha512', ctx.outerInput, 'buffer').subarray(0, tagLength)
}

/**
 * Puts whole blocks through a kept context. Padding is off and the input whole blocks, so every block comes straight
 * out; a throw or a shorter output means the context's chaining value is no longer known, so it is dropped.
 */
function throughContext(key: Uint8Array, context: Cipher | Decipher, input: Uint8Array): Buffer | null {
  let output: Buffer
  try {
    output = context.update(input)
  } catch {
    contexts.delete(key)
    return null
  }
  if (output.length === input.length) return output
  contexts.delete(key)
  return null
}

/** Folds `iv ⊕ chain` into the first block of `bytes`, in place. */
function foldFirstBlock(bytes: Buffer, iv: Uint8Array, chain: Buffer): void {
  for (let i = 0; i < blockSize; i++) bytes[i] = bytes[i] ^ iv[i] ^ chain[i]
}

/**
 * Encrypts and authenticates one message.
 * @param key 64 bytes: the MAC key, then the AES-256 key
 * @param iv 16 fresh random bytes
 * @param aad the additional authenticated data (the JWE's encoded protected header), and `al` its bit length block
 */
export function sealCbcHs512(
  key: Uint8Array,
  iv: Uint8Array,
  aad: Uint8Array,
  al: Uint8Array,
  plaintext: Uint8Array,
): { ciphertext: Buffer; tag: Buffer } {
  if (key.length !== keyLength || iv.length !== blockSize)
    throw new RangeError('A256CBC-HS512 takes a 64-byte key, a 16-byte IV')
  const ctx = contextsFor(key)
  // PKCS #7: always 1 to 16 bytes, each holding the count.
  const padding = blockSize - (plaintext.length % blockSize)
  const padded = Buffer.allocUnsafe(plaintext.length + padding)
  padded.set(plaintext, 0)
  padded.fill(padding, plaintext.length)
  foldFirstBlock(padded, iv, ctx.encryptChain)
  const ciphertext = throughContext(key, ctx.encrypting, padded)
  if (!ciphertext) throw new Error('A256CBC-HS512: the cipher context failed')
  ctx.encryptChain.set(ciphertext.subarray(ciphertext.length - blockSize))
  return { ciphertext, tag: tagOf(ctx, aad, iv, ciphertext, al) }
}

/**
 * Verifies the tag, then decrypts (RFC 7518 §5.2.2.2: nothing is decrypted before the MAC holds, so a forged token
 * never reaches the padding check, and the tags are compared in constant time).
 * @returns the plaintext, or null when the tag does not verify, the sizes are wrong or the padding is not PKCS #7
 */
export function openCbcHs512(
  key: Uint8Array,
  iv: Uint8Array,
  aad: Uint8Array,
  al: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Buffer | null {
  if (key.length !== keyLength || iv.length !== blockSize || tag.length !== tagLength) return null
  if (ciphertext.length === 0 || ciphertext.length % blockSize !== 0) return null
  const ctx = contextsFor(key)
  if (!timingSafeEqual(tagOf(ctx, aad, iv, ciphertext, al), tag)) return null
  const padded = throughContext(key, ctx.decrypting, ciphertext)
  if (!padded) return null
  foldFirstBlock(padded, iv, ctx.decryptChain)
  ctx.decryptChain.set(ciphertext.subarray(ciphertext.length - blockSize))
  const padding = padded[padded.length - 1]
  if (padding < 1 || padding > blockSize) return null
  for (let i = padded.length - padding; i < padded.length; i++) if (padded[i] !== padding) return null
  return padded.subarray(0, padded.length - padding)
}
