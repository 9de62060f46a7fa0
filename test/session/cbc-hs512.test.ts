import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openCbcHs512, sealCbcHs512 } from '../../src/session/cbc-hs512.js'

// The reference: A256CBC-HS512 done the usual way, a fresh OpenSSL context per message (RFC 7518 §5.2).
function referenceSeal(key: Uint8Array, iv: Uint8Array, aad: Buffer, al: Buffer, plaintext: Uint8Array) {
  const cipher = createCipheriv('aes-256-cbc', key.subarray(32), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { ciphertext, tag: referenceTag(key, aad, al, iv, ciphertext) }
}

function referenceTag(key: Uint8Array, aad: Buffer, al: Buffer, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  return createHmac('sha512', key.subarray(0, 32))
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest()
    .subarray(0, 32)
}

function lengthBlock(aad: Buffer): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length) * 8n)
  return al
}

const aad = Buffer.from('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0', 'latin1')
const al = lengthBlock(aad)

describe('A256CBC-HS512 on kept contexts', () => {
  it('writes exactly what fresh contexts write, and reads what they write, messages of two keys interleaved', () => {
    const [keyA, keyB] = [randomBytes(64), randomBytes(64)]
    for (let i = 0; i < 400; i++) {
      const key = i % 2 === 0 ? keyA : keyB
      // Lengths around block edges (0, 15, 16, 17 ...) and up to a few blocks.
      const plaintext = randomBytes(randomInt(0, 80))
      const iv = randomBytes(16)
      const ours = sealCbcHs512(key, iv, aad, al, plaintext)
      const reference = referenceSeal(key, iv, aad, al, plaintext)
      expect(ours.ciphertext.equals(reference.ciphertext)).toBe(true)
      expect(ours.tag.equals(reference.tag)).toBe(true)
      expect(openCbcHs512(key, iv, aad, al, reference.ciphertext, reference.tag)?.equals(plaintext)).toBe(true)
    }
  })

  it('tags exactly as createHmac does, for AADs and ciphertexts of any length, two keys interleaved', () => {
    // The MAC is worked from RFC 2104's pads kept per key: every offset of the inner input is exercised here.
    const [keyA, keyB] = [randomBytes(64), randomBytes(64)]
    for (let i = 0; i < 300; i++) {
      const key = i % 2 === 0 ? keyA : keyB
      const header = randomBytes(randomInt(0, 300))
      const headerLength = lengthBlock(header)
      // Now and then a message near or past what the key's MAC scratch holds (16 KB), which then gets an input of its
      // own.
      const plaintext = randomBytes(i % 25 === 0 ? randomInt(15_000, 20_000) : randomInt(0, 600))
      const iv = randomBytes(16)
      const ours = sealCbcHs512(key, iv, header, headerLength, plaintext)
      expect(ours.tag.equals(referenceTag(key, header, headerLength, iv, ours.ciphertext))).toBe(true)
      expect(openCbcHs512(key, iv, header, headerLength, ours.ciphertext, ours.tag)?.equals(plaintext)).toBe(true)
    }
  })

  it('decrypts as a fresh context would, whatever came through the kept context before', () => {
    const key = randomBytes(64)
    for (let i = 0; i < 100; i++) {
      const plaintext = randomBytes(randomInt(1, 200))
      const iv = randomBytes(16)
      const { ciphertext, tag } = referenceSeal(key, iv, aad, al, plaintext)
      const decipher = createDecipheriv('aes-256-cbc', key.subarray(32), iv)
      const expected = Buffer.concat([decipher.update(ciphertext), decipher.final()])
      expect(openCbcHs512(key, iv, aad, al, ciphertext, tag)?.equals(expected)).toBe(true)
    }
  })

  it('refuses a tag, IV, AAD or ciphertext altered by one bit, and keeps working after', () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    const plaintext = Buffer.from('{"sub":"someone"}')
    const { ciphertext, tag } = sealCbcHs512(key, iv, aad, al, plaintext)
    const flipped = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes)
      copy[at] = copy[at] ^ 1
      return copy
    }
    expect(openCbcHs512(key, iv, aad, al, ciphertext, flipped(tag, 31))).toBeNull()
    expect(openCbcHs512(key, flipped(iv, 0), aad, al, ciphertext, tag)).toBeNull()
    expect(openCbcHs512(key, iv, flipped(aad, 3), al, ciphertext, tag)).toBeNull()
    expect(openCbcHs512(key, iv, aad, al, flipped(ciphertext, 20), tag)).toBeNull()
    expect(openCbcHs512(key, iv, aad, al, ciphertext, tag)?.equals(plaintext)).toBe(true)
  })

  it('refuses wrong sizes without touching the contexts', () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    const { ciphertext, tag } = sealCbcHs512(key, iv, aad, al, Buffer.from('x'))
    expect(openCbcHs512(key, iv, aad, al, Buffer.alloc(0), tag)).toBeNull()
    expect(openCbcHs512(key, iv, aad, al, ciphertext.subarray(0, 15), tag)).toBeNull()
    expect(openCbcHs512(key, iv, aad, al, ciphertext, tag.subarray(0, 16))).toBeNull()
    expect(openCbcHs512(key, iv.subarray(0, 12), aad, al, ciphertext, tag)).toBeNull()
    expect(openCbcHs512(key.subarray(0, 32), iv, aad, al, ciphertext, tag)).toBeNull()
    expect(() => sealCbcHs512(key.subarray(0, 32), iv, aad, al, Buffer.from('x'))).toThrow(RangeError)
    expect(openCbcHs512(key, iv, aad, al, ciphertext, tag)?.toString()).toBe('x')
  })

  it('refuses a correctly tagged ciphertext whose padding is not PKCS #7, and keeps working after', () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    // One block ending in 0x11 (17): over the block size, so no valid padding, under a correct tag.
    const block = Buffer.alloc(16, 0x11)
    const cipher = createCipheriv('aes-256-cbc', key.subarray(32), iv).setAutoPadding(false)
    const ciphertext = Buffer.concat([cipher.update(block), cipher.final()])
    expect(openCbcHs512(key, iv, aad, al, ciphertext, referenceTag(key, aad, al, iv, ciphertext))).toBeNull()
    // Padding bytes that disagree: the last says 2, the one before it is 3.
    const uneven = Buffer.alloc(16, 0x41)
    uneven[14] = 3
    uneven[15] = 2
    const cipher2 = createCipheriv('aes-256-cbc', key.subarray(32), iv).setAutoPadding(false)
    const ciphertext2 = Buffer.concat([cipher2.update(uneven), cipher2.final()])
    expect(openCbcHs512(key, iv, aad, al, ciphertext2, referenceTag(key, aad, al, iv, ciphertext2))).toBeNull()
    const good = referenceSeal(key, iv, aad, al, Buffer.from('after'))
    expect(openCbcHs512(key, iv, aad, al, good.ciphertext, good.tag)?.toString()).toBe('after')
  })

  it('follows a key whose bytes changed after use instead of sealing under the old key', () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    sealCbcHs512(key, iv, aad, al, Buffer.from('first'))
    randomBytes(64).copy(key)
    const ours = sealCbcHs512(key, iv, aad, al, Buffer.from('second'))
    const reference = referenceSeal(key, iv, aad, al, Buffer.from('second'))
    expect(ours.ciphertext.equals(reference.ciphertext)).toBe(true)
    expect(ours.tag.equals(reference.tag)).toBe(true)
  })
})
