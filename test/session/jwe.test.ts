import { createCipheriv, createHmac, randomBytes } from 'node:crypto'
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { SessionTokenError } from '../../src/errors.js'
import { decodeBase64url, openCompactJwe, sealCompactJwe, type ContentEncryption } from '../../src/session/jwe.js'

const cbcKey = randomBytes(64)
const gcmKey = randomBytes(32)
const keyFor = (enc: ContentEncryption) => (enc === 'A256GCM' ? gcmKey : cbcKey)
const both: ContentEncryption[] = ['A256CBC-HS512', 'A256GCM']
const b64 = (data: string | Uint8Array) => Buffer.from(data).toString('base64url')
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

/**
 * An independent GCM sealer that writes any header we like, so the tests can present headers our sealer refuses to
 * write (zip, crit, another alg) with a valid tag: the rejection must then come from the header check.
 */
function forgeGcm(header: unknown, plaintext = '{"a":1}', key: Uint8Array = gcmKey): string {
  const encodedHeader = b64(JSON.stringify(header))
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(encodedHeader))
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `${encodedHeader}..${b64(iv)}.${b64(ct)}.${b64(cipher.getAuthTag())}`
}

/** Replaces one of the five compact segments. */
function withSegment(jwe: string, index: number, value: string): string {
  const parts = jwe.split('.')
  parts[index] = value
  return parts.join('.')
}

/** Flips one bit in the decoded bytes of a segment. */
function flipBit(jwe: string, index: number): string {
  const bytes = Buffer.from(jwe.split('.')[index], 'base64url')
  bytes[0] = bytes[0] ^ 1
  return withSegment(jwe, index, b64(bytes))
}

describe('sealCompactJwe / openCompactJwe', () => {
  it.each(both)('round-trips text and bytes with %s', (enc) => {
    const sealed = sealCompactJwe('héllo wörld', keyFor(enc), enc, { kid: 'k1' })
    const opened = openCompactJwe(sealed, [keyFor(enc)], [enc])
    expect(opened && text(opened.plaintext)).toBe('héllo wörld')
    expect(opened?.header).toEqual({ alg: 'dir', enc, kid: 'k1' })
    const bytes = randomBytes(100)
    expect(
      Buffer.from(openCompactJwe(sealCompactJwe(bytes, keyFor(enc), enc), [keyFor(enc)], [enc])?.plaintext ?? []),
    ).toEqual(bytes)
  })

  it('round-trips an empty plaintext', () => {
    for (const enc of both)
      expect(openCompactJwe(sealCompactJwe('', keyFor(enc), enc), [keyFor(enc)], [enc])?.plaintext).toHaveLength(0)
  })

  it('pins alg and enc and drops zip and crit from the extra header', () => {
    const sealed = sealCompactJwe('x', cbcKey, 'A256CBC-HS512', {
      alg: 'A128KW',
      enc: 'A256GCM',
      zip: 'DEF',
      crit: ['b64'],
      kid: 'k',
    })
    expect(decodeProtectedHeader(sealed)).toEqual({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'k' })
  })

  it('uses a fresh IV each time', () => {
    expect(sealCompactJwe('same', gcmKey, 'A256GCM').split('.')[2]).not.toBe(
      sealCompactJwe('same', gcmKey, 'A256GCM').split('.')[2],
    )
  })

  it('throws SessionTokenError for a key of the wrong length', () => {
    expect(() => sealCompactJwe('x', gcmKey, 'A256CBC-HS512')).toThrow(SessionTokenError)
    expect(() => sealCompactJwe('x', cbcKey, 'A256GCM')).toThrow(SessionTokenError)
  })

  it('reports which candidate key opened it and skips keys of the wrong size', () => {
    const sealed = sealCompactJwe('x', cbcKey, 'A256CBC-HS512')
    const opened = openCompactJwe(sealed, [gcmKey, randomBytes(64), cbcKey], ['A256CBC-HS512'])
    expect(opened?.keyIndex).toBe(2)
  })

  it('lets a function choose the candidates from the vetted header', () => {
    const sealed = sealCompactJwe('x', gcmKey, 'A256GCM', { kid: 'gcm' })
    const seen: unknown[] = []
    const opened = openCompactJwe(
      sealed,
      (header) => {
        seen.push(header)
        return header.kid === 'gcm' ? [gcmKey] : []
      },
      both,
    )
    expect(opened?.keyIndex).toBe(0)
    expect(seen).toEqual([{ alg: 'dir', enc: 'A256GCM', kid: 'gcm' }])
    expect(
      openCompactJwe(
        sealed,
        () => {
          throw new Error('resolver failed')
        },
        both,
      ),
    ).toBeNull()
  })
})

describe('interoperability with jose', () => {
  it.each(both)('jose decrypts what we seal with %s', async (enc) => {
    const sealed = sealCompactJwe('{"sub":"1"}', keyFor(enc), enc, { kid: 'x' })
    const { plaintext, protectedHeader } = await compactDecrypt(sealed, keyFor(enc), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: [enc],
    })
    expect(text(plaintext)).toBe('{"sub":"1"}')
    expect(protectedHeader).toEqual({ alg: 'dir', enc, kid: 'x' })
  })

  it.each(both)('we open what jose encrypts with %s', async (enc) => {
    for (const size of [0, 1, 15, 16, 17, 1000]) {
      const message = 'm'.repeat(size)
      const jwe = await new CompactEncrypt(new TextEncoder().encode(message))
        .setProtectedHeader({ alg: 'dir', enc, cty: 'JWT' })
        .encrypt(keyFor(enc))
      const opened = openCompactJwe(jwe, [keyFor(enc)], [enc])
      expect(opened && text(opened.plaintext)).toBe(message)
      expect(opened?.header.cty).toBe('JWT')
    }
  })
})

describe('openCompactJwe rejects malformed or unauthenticated input with null', () => {
  const good = sealCompactJwe('{"a":1}', cbcKey, 'A256CBC-HS512')
  const goodGcm = sealCompactJwe('{"a":1}', gcmKey, 'A256GCM')
  const open = (jwe: unknown, encs: ContentEncryption[] = both) => openCompactJwe(jwe as string, [cbcKey, gcmKey], encs)

  it('accepts the untouched tokens (so each case below fails for its own reason)', () => {
    expect(open(good)).not.toBeNull()
    expect(open(goodGcm)).not.toBeNull()
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM' }))).not.toBeNull()
  })

  it.each([
    ['an empty string', ''],
    ['a non-string', 42],
    ['four segments', good.split('.').slice(0, 4).join('.')],
    ['six segments', `${good}.x`],
    ['a JWS-shaped token', 'eyJhbGciOiJIUzI1NiJ9.e30.abc'],
  ])('%s', (_name, input) => expect(open(input)).toBeNull())

  it('a non-empty encrypted key with alg dir', () => expect(open(withSegment(good, 1, 'AAAA'))).toBeNull())

  it.each([0, 2, 3, 4])('bad base64url in segment %i', (index) => {
    const segment = good.split('.')[index]
    expect(open(withSegment(good, index, `${segment.slice(0, -2)}+/`))).toBeNull()
    expect(open(withSegment(good, index, `${segment}=`))).toBeNull()
    expect(open(withSegment(good, index, `${segment}A`.slice(0, 4 * Math.floor(segment.length / 4) + 1)))).toBeNull()
  })

  it('a header that is not JSON, or not an object', () => {
    for (const header of ['not json', '[1]', 'null', '"dir"']) {
      expect(open(withSegment(goodGcm, 0, b64(header)))).toBeNull()
    }
  })

  it('an alg other than dir', () => {
    for (const alg of ['A256KW', 'none', 'DIR', undefined]) expect(open(forgeGcm({ alg, enc: 'A256GCM' }))).toBeNull()
  })

  it('an enc that is unknown or not allowed', () => {
    expect(open(goodGcm, ['A256CBC-HS512'])).toBeNull()
    expect(open(good, ['A256GCM'])).toBeNull()
    for (const enc of ['A128GCM', 'toString', '__proto__', 42]) expect(open(forgeGcm({ alg: 'dir', enc }))).toBeNull()
  })

  it('a zip header (compression leaks plaintext length)', () => {
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM', zip: 'DEF' }))).toBeNull()
  })

  it('a crit header (no critical extension is understood)', () => {
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM', crit: ['exp'], exp: 1 }))).toBeNull()
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM', crit: [] }))).toBeNull()
  })

  it('a kid that is not a string', () => {
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM', kid: 7 }))).toBeNull()
  })

  it('a header over the size bound', () => {
    expect(open(forgeGcm({ alg: 'dir', enc: 'A256GCM', pad: 'p'.repeat(1000) }))).toBeNull()
  })

  it('a wrong IV length', () => {
    expect(open(withSegment(good, 2, b64(randomBytes(12))))).toBeNull()
    expect(open(withSegment(goodGcm, 2, b64(randomBytes(16))))).toBeNull()
  })

  it('a wrong tag length', () => {
    const tag = Buffer.from(good.split('.')[4], 'base64url')
    expect(open(withSegment(good, 4, b64(tag.subarray(0, 16))))).toBeNull()
    expect(open(withSegment(good, 4, b64(Buffer.concat([tag, tag]))))).toBeNull()
    expect(open(withSegment(goodGcm, 4, b64(randomBytes(12))))).toBeNull()
  })

  it('a CBC ciphertext that is empty or not whole blocks', () => {
    expect(open(withSegment(good, 3, ''))).toBeNull()
    expect(open(withSegment(good, 3, b64(randomBytes(17))))).toBeNull()
  })

  it.each([
    [2, 'IV'],
    [3, 'ciphertext'],
    [4, 'tag'],
  ])('a flipped bit in the %s (segment %i)', (index) => {
    expect(open(flipBit(good, index))).toBeNull()
    expect(open(flipBit(goodGcm, index))).toBeNull()
  })

  it('a header swapped for another valid one (the header is authenticated as AAD)', () => {
    const otherHeader = sealCompactJwe('x', cbcKey, 'A256CBC-HS512', { kid: 'other' }).split('.')[0]
    expect(open(withSegment(good, 0, otherHeader))).toBeNull()
  })

  it('a token sealed under a key we do not hold', () => {
    expect(open(sealCompactJwe('x', randomBytes(64), 'A256CBC-HS512'))).toBeNull()
    expect(open(sealCompactJwe('x', randomBytes(32), 'A256GCM'))).toBeNull()
  })

  it('a correctly MACed CBC token whose padding is invalid', () => {
    // Built by hand (RFC 7518 §5.2.2.1) so the MAC is valid and only the padding is wrong: no exception may escape.
    const encodedHeader = b64('{"alg":"dir","enc":"A256CBC-HS512"}')
    const iv = randomBytes(16)
    const cipher = createCipheriv('aes-256-cbc', cbcKey.subarray(32), iv).setAutoPadding(false)
    const ct = Buffer.concat([cipher.update(Buffer.alloc(16, 0xff)), cipher.final()])
    const aad = Buffer.from(encodedHeader)
    const al = Buffer.alloc(8)
    al.writeBigUInt64BE(BigInt(aad.length * 8))
    const tag = createHmac('sha512', cbcKey.subarray(0, 32))
      .update(Buffer.concat([aad, iv, ct, al]))
      .digest()
      .subarray(0, 32)
    expect(open(`${encodedHeader}..${b64(iv)}.${b64(ct)}.${b64(tag)}`)).toBeNull()
  })

  it('random junk, without throwing', () => {
    for (let i = 0; i < 500; i++) {
      const junk = randomBytes(i % 120).toString(i % 2 ? 'base64url' : 'latin1')
      expect(open(junk)).toBeNull()
      expect(open(`${junk}.${junk}..${junk}.${junk}`)).toBeNull()
    }
  })
})

describe('decodeBase64url', () => {
  /** The definition: the base64url alphabet only, no padding, no length of 4n + 1. */
  const reference = (segment: string) =>
    segment.length % 4 === 1 || !/^[A-Za-z0-9_-]*$/.test(segment) ? null : Buffer.from(segment, 'base64url')
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

  it('refuses what Node would decode anyway: +, /, =, spaces and characters beyond ASCII', () => {
    for (const segment of [
      'ab+c',
      'ab/c',
      'abc=',
      'ab==',
      'a bc',
      'ab\ncd',
      'ab\u0A4Ec',
      '\u0A4E\u0B2B',
      'abc\u0100',
    ]) {
      expect(decodeBase64url(segment), JSON.stringify(segment)).toBeNull()
    }
    expect(decodeBase64url('')).toEqual(Buffer.alloc(0))
    expect(decodeBase64url('AQID_-8')).toEqual(Buffer.from([1, 2, 3, 255, 239]))
  })

  it('agrees with the alphabet pattern on random segments with random characters put in', () => {
    let seed = 37
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed % n
    }
    for (let trial = 0; trial < 50_000; trial++) {
      let segment = ''
      for (let i = random(14); i > 0; i--) segment += alphabet[random(64)]
      for (let edits = random(3); edits > 0; edits--) {
        const at = random(segment.length + 1)
        const code = random(5) === 0 ? random(0x3000) : random(256)
        segment = segment.slice(0, at) + String.fromCharCode(code) + segment.slice(at + random(2))
      }
      expect(decodeBase64url(segment), JSON.stringify(segment)).toEqual(reference(segment))
    }
  })
})
