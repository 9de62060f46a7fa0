import { Auth } from '@auth/core'
import { encode as authjsEncode } from '@auth/core/jwt'
import Credentials from '@auth/core/providers/credentials'
import { describe, expect, it } from 'vitest'
import { decode } from '../../src/jwt.js'
import { chunkCookie, clearChunkedCookie, cookieChunkSize, readChunkedCookie } from '../../src/session/cookie-chunks.js'
import { parseCookieHeader, serializeCookie } from '../../src/session/cookie-header.js'
import type { CookieRecord, CookieSerializeOptions } from '../../src/types/cookies.js'
// @auth/core's own serializer (internal, loaded by path) measures the size it estimates for an empty chunk.
import { serialize as authjsSerialize } from '../../node_modules/@auth/core/lib/vendored/cookie.js'

const name = 'authjs.session-token'
const sessionOptions: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: false }
const secret = 'chunk-test-secret-0123456789abcdef'

/** What a browser would send back after storing these records (clean-ups delete their cookie). */
function browserStore(records: CookieRecord[], jar = new Map<string, string>()): Map<string, string> {
  for (const record of records) {
    if (record.options.maxAge === 0) jar.delete(record.name)
    else jar.set(record.name, record.value)
  }
  return parseCookieHeader([...jar].map(([n, v]) => serializeCookie({ name: n, value: v, options: {} })).join('; '))
}

const valueOf = (size: number) =>
  Array.from(
    { length: size },
    (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'[i % 65],
  ).join('')

describe('cookieChunkSize', () => {
  it('is 4096 minus the 160 bytes @auth/core estimates, which its serializer confirms', () => {
    const estimate = authjsSerialize('__Secure.authjs.session-token.0', '', {
      expires: new Date(),
      httpOnly: true,
      maxAge: Number.MAX_SAFE_INTEGER,
      path: '/',
      sameSite: 'strict',
      secure: true,
      domain: 'example.com',
    }).length
    expect(estimate).toBe(160)
    expect(cookieChunkSize(name, sessionOptions)).toBe(4096 - 160)
    expect(cookieChunkSize(`__Secure-${name}`, { ...sessionOptions, secure: true, expires: new Date() })).toBe(3936)
  })

  it('shrinks when the real attributes are longer than the estimate', () => {
    const options = { ...sessionOptions, domain: `${'sub.'.repeat(40)}example.com`, expires: new Date() }
    const size = cookieChunkSize(name, options)
    expect(size).toBeLessThan(3936)
    for (const record of chunkCookie(name, valueOf(20_000), options, new Map())) {
      expect(serializeCookie(record).length).toBeLessThanOrEqual(4096)
    }
  })
})

describe('chunkCookie / readChunkedCookie', () => {
  it.each([1024, 5 * 1024, 20 * 1024])('round-trips a %i-byte value through Set-Cookie and Cookie headers', (size) => {
    const value = valueOf(size)
    const records = chunkCookie(name, value, { ...sessionOptions, expires: new Date(Date.now() + 60_000) }, new Map())
    expect(records).toHaveLength(Math.ceil(size / 3936))
    if (size <= 3936) expect(records[0]?.name).toBe(name)
    else expect(records.map((r) => r.name)).toEqual(records.map((_, i) => `${name}.${i}`))
    for (const record of records) expect(serializeCookie(record).length).toBeLessThanOrEqual(4096)
    expect(readChunkedCookie(name, browserStore(records))).toBe(value)
  })

  it('writes a value of exactly the chunk size as one cookie, and one byte more as two', () => {
    expect(chunkCookie(name, valueOf(3936), sessionOptions, new Map()).map((r) => r.name)).toEqual([name])
    expect(chunkCookie(name, valueOf(3937), sessionOptions, new Map()).map((r) => r.value.length)).toEqual([3936, 1])
  })

  it('clears stale chunks when the value shrinks', () => {
    const before = browserStore(chunkCookie(name, valueOf(20_000), sessionOptions, new Map()))
    expect(before.size).toBe(6)
    const records = chunkCookie(name, valueOf(5000), sessionOptions, before)
    expect(records.filter((r) => r.options.maxAge === 0).map((r) => r.name)).toEqual([
      `${name}.2`,
      `${name}.3`,
      `${name}.4`,
      `${name}.5`,
    ])
    const after = browserStore(records, new Map(before))
    expect([...after.keys()]).toEqual([`${name}.0`, `${name}.1`])
    expect(readChunkedCookie(name, after)).toBe(valueOf(5000))
  })

  it('clears every chunk when the value fits one cookie again, and the whole cookie when it grows into chunks', () => {
    const chunked = browserStore(chunkCookie(name, valueOf(9000), sessionOptions, new Map()))
    const small = chunkCookie(name, 'small', sessionOptions, chunked)
    expect(small.map((r) => [r.name, r.options.maxAge])).toEqual([
      [name, undefined],
      [`${name}.0`, 0],
      [`${name}.1`, 0],
      [`${name}.2`, 0],
    ])
    const grown = chunkCookie(name, valueOf(5000), sessionOptions, new Map([[name, 'small']]))
    expect(grown.map((r) => [r.name, r.options.maxAge])).toEqual([
      [`${name}.0`, undefined],
      [`${name}.1`, undefined],
      [name, 0],
    ])
  })

  it("gives clean-up records the cookie's scope but no expiry date", () => {
    const options = { ...sessionOptions, domain: 'example.com', expires: new Date(Date.now() + 1e6) }
    const [, clean] = chunkCookie(name, 'v', options, new Map([[`${name}.0`, 'x']]))
    expect(clean).toEqual({
      name: `${name}.0`,
      value: '',
      options: { ...sessionOptions, domain: 'example.com', maxAge: 0 },
    })
  })

  it('reassembles chunks by numeric index whatever their header order', () => {
    const value = valueOf(12 * 3936)
    const records = chunkCookie(name, value, sessionOptions, new Map())
    const shuffled = new Map([...browserStore(records)].reverse())
    expect(readChunkedCookie(name, shuffled)).toBe(value)
  })

  it('ignores junk suffixes and unrelated cookies that share the prefix', () => {
    const cookies = new Map([
      [`${name}.0`, 'A'],
      [`${name}.1`, 'B'],
      [`${name}.x`, 'junk'],
      [`${name}.01`, 'junk'],
      [`${name}.-1`, 'junk'],
      [`${name}.1e1`, 'junk'],
      [`${name}.`, 'junk'],
      [`${name}x.2`, 'junk'],
    ])
    expect(readChunkedCookie(name, cookies)).toBe('AB')
  })

  it('gives undefined for a gap, a missing first chunk or an empty chunk', () => {
    expect(
      readChunkedCookie(
        name,
        new Map([
          [`${name}.0`, 'A'],
          [`${name}.2`, 'C'],
        ]),
      ),
    ).toBeUndefined()
    expect(readChunkedCookie(name, new Map([[`${name}.1`, 'B']]))).toBeUndefined()
    expect(
      readChunkedCookie(
        name,
        new Map([
          [`${name}.0`, 'A'],
          [`${name}.1`, ''],
        ]),
      ),
    ).toBeUndefined()
    expect(
      readChunkedCookie(
        name,
        new Map([
          [`${name}.0`, 'A'],
          [`${name}.99999`, 'Z'],
        ]),
      ),
    ).toBe('A')
    expect(readChunkedCookie(name, new Map())).toBeUndefined()
  })

  it('prefers a whole cookie over chunks, and falls back to chunks when the whole one is empty', () => {
    expect(
      readChunkedCookie(
        name,
        new Map([
          [`${name}.0`, 'A'],
          [name, 'whole'],
        ]),
      ),
    ).toBe('whole')
    expect(
      readChunkedCookie(
        name,
        new Map([
          [name, ''],
          [`${name}.0`, 'A'],
        ]),
      ),
    ).toBe('A')
  })
})

describe('clearChunkedCookie', () => {
  it('expires the cookie and each chunk present, and nothing else', () => {
    const cookies = new Map([
      [name, 'a'],
      [`${name}.0`, 'b'],
      [`${name}.7`, 'c'],
      [`${name}.sig`, 'keep'],
      ['other', 'keep'],
    ])
    expect(clearChunkedCookie(name, sessionOptions, cookies)).toEqual(
      [name, `${name}.0`, `${name}.7`].map((n) => ({ name: n, value: '', options: { ...sessionOptions, maxAge: 0 } })),
    )
    expect(clearChunkedCookie(name, sessionOptions, new Map([['other', 'x']]))).toEqual([])
  })
})

describe('cookies chunked by the real @auth/core', () => {
  it('reassembles and decodes the session cookies of an @auth/core credentials sign-in, chunked as we would chunk them', async () => {
    const config = {
      providers: [
        Credentials({
          credentials: { username: {} },
          authorize: (c: Partial<Record<string, unknown>>) => ({ id: '1', name: String(c.username) }),
        }),
      ],
      secret,
      trustHost: true,
      callbacks: { jwt: () => ({ big: 'x'.repeat(6000), sub: '1' }) },
    }
    const csrfResponse = await Auth(new Request('http://localhost:3000/auth/csrf'), config)
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
    const csrfCookie = csrfResponse.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const signIn = await Auth(
      new Request('http://localhost:3000/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
        body: new URLSearchParams({ csrfToken, username: 'ada', callbackUrl: 'http://localhost:3000/' }),
      }),
      config,
    )
    expect(signIn.status).toBe(302)
    const setCookies = signIn.headers.getSetCookie().filter((c) => c.startsWith(name))
    const jar = parseCookieHeader(setCookies.map((c) => c.split(';')[0]).join('; '))
    expect([...jar.keys()].filter((n) => n.startsWith(name)).sort()).toEqual([`${name}.0`, `${name}.1`, `${name}.2`])

    const token = readChunkedCookie(name, jar)
    expect(token).toBeDefined()
    expect(await decode({ token, secret, salt: name })).toMatchObject({ big: 'x'.repeat(6000), sub: '1' })

    // Our chunks of the same value are the same cookies, byte for byte (attributes aside).
    const ours = chunkCookie(name, token as string, sessionOptions, new Map())
    expect(ours.map((r) => `${r.name}=${r.value}`)).toEqual(setCookies.map((c) => c.split(';')[0]))
  })

  it('reassembles a big @auth/core token chunked at the documented size', async () => {
    const token = await authjsEncode({ token: { blob: 'y'.repeat(12_000) }, secret, salt: name })
    const chunks = new Map<string, string>()
    for (let i = 0; i * 3936 < token.length; i++) chunks.set(`${name}.${i}`, token.slice(i * 3936, (i + 1) * 3936))
    expect(chunks.size).toBeGreaterThan(3)
    expect(await decode({ token: readChunkedCookie(name, chunks), secret, salt: name })).toMatchObject({
      blob: 'y'.repeat(12_000),
    })
  })
})
