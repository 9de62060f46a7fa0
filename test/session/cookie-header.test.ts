import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { InvalidCookieOption } from '../../src/errors.js'
import { parseCookieHeader, serializeCookie, vouchUnreservedValue } from '../../src/session/cookie-header.js'
import { sealSessionToken } from '../../src/session/session-jwe.js'
import type { CookieRecord } from '../../src/types/cookies.js'
// The serializer @auth/core uses internally (not a public export), loaded by path to compare wire output.
import { serialize as authjsSerialize } from '../../node_modules/@auth/core/lib/vendored/cookie.js'

describe('parseCookieHeader', () => {
  it('reads name=value pairs, trimming spaces and tabs', () => {
    expect([...parseCookieHeader('a=1; b = two ;\tc=3')]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['c', '3'],
    ])
  })

  it('returns an empty map for a missing or empty header', () => {
    expect(parseCookieHeader(null).size).toBe(0)
    expect(parseCookieHeader(undefined).size).toBe(0)
    expect(parseCookieHeader('').size).toBe(0)
  })

  it('keeps the first of duplicate names (the most specific path comes first)', () => {
    expect(parseCookieHeader('sid=first; sid=second').get('sid')).toBe('first')
  })

  it('skips empty names and pairs without =', () => {
    expect([...parseCookieHeader('=orphan; flag; ;; a=1; =; b=')]).toEqual([
      ['a', '1'],
      ['b', ''],
    ])
  })

  it('keeps values containing =', () => {
    expect(parseCookieHeader('t=a=b==').get('t')).toBe('a=b==')
  })

  it('decodes %-escapes and leaves bad escapes raw', () => {
    const cookies = parseCookieHeader('a=x%20y; b=%E0%A4%A; c=100%; d=%7C')
    expect(cookies.get('a')).toBe('x y')
    expect(cookies.get('b')).toBe('%E0%A4%A')
    expect(cookies.get('c')).toBe('100%')
    expect(cookies.get('d')).toBe('|')
  })

  it('ignores single values over 8 KB but keeps the rest of the header', () => {
    const cookies = parseCookieHeader(`big=${'x'.repeat(8193)}; edge=${'y'.repeat(8192)}; small=1`)
    expect(cookies.has('big')).toBe(false)
    expect(cookies.get('edge')).toHaveLength(8192)
    expect(cookies.get('small')).toBe('1')
  })

  it('treats names like __proto__ as ordinary cookies', () => {
    const cookies = parseCookieHeader('__proto__=1; constructor=2')
    expect(cookies.get('__proto__')).toBe('1')
    expect(cookies.get('constructor')).toBe('2')
  })

  it('never throws on junk', () => {
    for (let i = 0; i < 2000; i++) {
      const junk = randomBytes(i % 200).toString(i % 3 === 0 ? 'latin1' : i % 3 === 1 ? 'utf8' : 'base64')
      expect(() =>
        parseCookieHeader(junk.replace(/[A-C]/g, ';').replace(/[D-F]/g, '=').replace(/[G-I]/g, '%')),
      ).not.toThrow()
    }
  })
})

describe('serializeCookie', () => {
  const at = new Date(Date.UTC(2030, 0, 2, 3, 4, 5))

  it('writes every attribute', () => {
    const header = serializeCookie({
      name: '__Secure-authjs.session-token',
      value: 'abc.def',
      options: {
        maxAge: 3600,
        domain: 'example.com',
        path: '/',
        expires: at,
        httpOnly: true,
        secure: true,
        partitioned: true,
        priority: 'high',
        sameSite: 'lax',
      },
    })
    expect(header).toBe(
      '__Secure-authjs.session-token=abc.def; Max-Age=3600; Domain=example.com; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; Partitioned; Priority=High; SameSite=Lax',
    )
  })

  it('writes what @auth/core writes for the same record', () => {
    const records: CookieRecord[] = [
      {
        name: 'authjs.session-token',
        value: 'eyJhbGciOiJkaXIifQ..iv.ct.tag',
        options: { httpOnly: true, sameSite: 'lax', path: '/', secure: false, expires: at },
      },
      {
        name: '__Host-authjs.csrf-token',
        value: `${'a'.repeat(64)}|${'b'.repeat(64)}`,
        options: { httpOnly: true, sameSite: 'lax', path: '/', secure: true },
      },
      {
        name: 'authjs.callback-url',
        value: 'http://localhost:3000/a b?x=1;y=2,z=%20',
        options: { sameSite: 'strict', path: '/' },
      },
      {
        name: 'authjs.session-token.3',
        value: '',
        options: { path: '/', maxAge: 0, sameSite: 'none', secure: true, priority: 'low' },
      },
      { name: 'x', value: 'é✓', options: { sameSite: true, domain: '.example.com' } },
    ]
    for (const record of records)
      expect(serializeCookie(record)).toBe(authjsSerialize(record.name, record.value, record.options))
  })

  it('encodes values so that parseCookieHeader reads them back unchanged', () => {
    const values = [
      'plain',
      'a;b',
      'a,b',
      'with space',
      'quote"d',
      'back\\slash',
      '100%',
      '%20',
      'é✓🙂',
      'tab\tnewline\n',
      '',
    ]
    const header = values.map((value, i) => serializeCookie({ name: `c${i}`, value, options: {} })).join('; ')
    const cookies = parseCookieHeader(header)
    values.forEach((value, i) => expect(cookies.get(`c${i}`)).toBe(value))
  })

  it('leaves a JWE untouched', () => {
    const jwe = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abc_-DEF.ghi.jkl'
    expect(serializeCookie({ name: 'n', value: jwe, options: {} })).toBe(`n=${jwe}`)
  })

  it('maps sameSite true to Strict, omits false, and rounds a fractional maxAge down', () => {
    expect(serializeCookie({ name: 'n', value: 'v', options: { sameSite: true } })).toBe('n=v; SameSite=Strict')
    expect(
      serializeCookie({ name: 'n', value: 'v', options: { sameSite: false, httpOnly: false, secure: false } }),
    ).toBe('n=v')
    expect(serializeCookie({ name: 'n', value: 'v', options: { maxAge: 59.9 } })).toBe('n=v; Max-Age=59')
    expect(serializeCookie({ name: 'n', value: 'v', options: { maxAge: 0 } })).toBe('n=v; Max-Age=0')
  })

  const rejects = (record: CookieRecord, attribute: string) => {
    let thrown: unknown
    try {
      serializeCookie(record)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InvalidCookieOption)
    expect(thrown).toMatchObject({ type: 'InvalidCookieOption' })
    expect((thrown as InvalidCookieOption).message).toContain(attribute)
  }

  it.each(['', 'has space', 'semi;colon', 'eq=uals', 'quo"te', 'brack[et]', 'ünïcode', 'tab\t', 'new\nline', 'comma,'])(
    'rejects the invalid name %j',
    (name) => rejects({ name, value: 'v', options: {} }, 'name'),
  )

  it('rejects a value that is not valid unicode (a lone surrogate)', () => {
    rejects({ name: 'n', value: 'a\uD800b', options: {} }, 'value')
  })

  it('rejects invalid attributes', () => {
    const bad: Array<[CookieRecord['options'], string]> = [
      [{ maxAge: Number.NaN }, 'maxAge'],
      [{ maxAge: Number.POSITIVE_INFINITY }, 'maxAge'],
      [{ domain: 'exa mple.com' }, 'domain'],
      [{ domain: 'example.com; Secure' }, 'domain'],
      [{ path: '/a;b' }, 'path'],
      [{ path: '/a\nSet-Cookie: x=y' }, 'path'],
      [{ expires: new Date(Number.NaN) }, 'expires'],
      [JSON.parse('{"priority":"urgent"}') as CookieRecord['options'], 'priority'],
      [JSON.parse('{"sameSite":"loose"}') as CookieRecord['options'], 'sameSite'],
    ]
    for (const [options, attribute] of bad) rejects({ name: 'n', value: 'v', options }, attribute)
  })
})

describe('a value vouched for by a sealer', () => {
  it('is written as it is, and vouching for one value never lets another through unencoded', () => {
    const sealed = sealSessionToken(
      ['a-secret-of-at-least-32-characters!!'],
      'authjs.session-token',
      { sub: 'u' },
      60,
      1,
    )
    expect(serializeCookie({ name: 'authjs.session-token', value: sealed, options: {} })).toBe(
      `authjs.session-token=${sealed}`,
    )
    expect(serializeCookie({ name: 'c', value: 'a b;c', options: {} })).toBe('c=a%20b%3Bc')
    vouchUnreservedValue('x.y')
    expect(serializeCookie({ name: 'c', value: 'x.y z', options: {} })).toBe('c=x.y%20z')
    expect(serializeCookie({ name: 'c', value: sealed, options: {} })).toBe(`c=${sealed}`)
  })
})
