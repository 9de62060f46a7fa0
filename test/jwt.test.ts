import { decode as authjsDecode, encode as authjsEncode, getToken as authjsGetToken } from '@auth/core/jwt'
import { EncryptJWT, base64url, calculateJwkThumbprint, compactDecrypt, decodeProtectedHeader } from 'jose'
import { hkdfSync } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JWTSessionError, MissingSecret } from '../src/errors.js'
import { decode, decodeSync, encode, encodeSync, getToken } from '../src/jwt.js'
import { chunkCookie } from '../src/session/cookie-chunks.js'
import { serializeCookie } from '../src/session/cookie-header.js'
import { sealCompactJwe } from '../src/session/jwe.js'

const cookieNames = ['authjs.session-token', '__Secure-authjs.session-token']
const secret = 'a-secret-of-reasonable-length-0123456789'
const oldSecret = 'the-previous-secret-before-rotation-9876'
const claims = { name: 'Ada', email: 'ada@example.com', picture: null, sub: 'user-1', roles: ['admin'] }
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The key as Auth.js documents it, derived here independently of src/session/hkdf-keys.ts. */
function authjsKey(secretValue: string, salt: string, length = 64): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secretValue, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

function tamper(token: string): string {
  const parts = token.split('.')
  const ct = Buffer.from(parts[3], 'base64url')
  ct[5] = ct[5] ^ 0x40
  parts[3] = ct.toString('base64url')
  return parts.join('.')
}

describe('the Auth.js wire format (checked against the real @auth/core with jose)', () => {
  it.each(cookieNames)('matches the header, key id and claims @auth/core writes (salt %s)', async (salt) => {
    const theirs = await authjsEncode({ token: claims, secret, salt })
    const ours = encodeSync({ token: claims, secret, salt })
    const key = authjsKey(secret, salt)
    // Auth.js hashes the JWK thumbprint with SHA-(key bits): SHA-512 for the 64-byte A256CBC-HS512 key.
    const kid = await calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(key) }, 'sha512')
    for (const token of [theirs, ours]) {
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'dir', enc: 'A256CBC-HS512', kid })
      const { plaintext } = await compactDecrypt(token, key)
      const payload = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>
      expect(payload).toMatchObject(claims)
      expect(payload.exp).toBe((payload.iat as number) + 2592000)
      expect(payload.jti).toMatch(uuidPattern)
      expect(Object.keys(payload).sort()).toEqual([...Object.keys(claims), 'iat', 'exp', 'jti'].sort())
    }
  })

  it('sets iat from the injected clock, exp from maxAge, and a fresh jti each time', () => {
    const a = decodeSync({
      token: encodeSync({ token: { jti: 'mine', iat: 1 }, secret, salt: 's', maxAge: 60, now: 1000 }),
      secret,
      salt: 's',
      now: 1000,
    })
    const b = decodeSync({
      token: encodeSync({ token: {}, secret, salt: 's', maxAge: 60, now: 1000 }),
      secret,
      salt: 's',
      now: 1000,
    })
    expect(a).toMatchObject({ iat: 1000, exp: 1060 })
    expect(a?.jti).toMatch(uuidPattern)
    expect(a?.jti).not.toBe(b?.jti)
  })
})

describe('interoperability with @auth/core/jwt', () => {
  it.each(cookieNames)('decodes a token @auth/core encoded (salt %s)', async (salt) => {
    const token = await authjsEncode({ token: claims, secret, salt })
    expect(await decode({ token, secret, salt })).toMatchObject(claims)
  })

  it.each(cookieNames)('@auth/core decodes a token we encoded (salt %s)', async (salt) => {
    const token = await encode({ token: claims, secret, salt })
    expect(await authjsDecode({ token, secret, salt })).toMatchObject(claims)
  })

  it('rotated secrets: old tokens still decode, new tokens use the first secret', async () => {
    const salt = cookieNames[1]
    const fromBefore = await authjsEncode({ token: claims, secret: oldSecret, salt })
    expect(await decode({ token: fromBefore, secret: [secret, oldSecret], salt })).toMatchObject(claims)

    const ours = await encode({ token: claims, secret: [secret, oldSecret], salt })
    expect(await authjsDecode({ token: ours, secret: [secret, oldSecret], salt })).toMatchObject(claims)
    expect(await authjsDecode({ token: ours, secret, salt })).toMatchObject(claims)
    await expect(authjsDecode({ token: ours, secret: oldSecret, salt })).rejects.toThrow()

    const theirs = await authjsEncode({ token: claims, secret: [secret, oldSecret], salt })
    expect(await decode({ token: theirs, secret, salt })).toMatchObject(claims)
    // A rotated-out secret: rejected as Auth.js rejects it, a plain Error naming no matching secret.
    const rejection = await decode({ token: theirs, secret: oldSecret, salt }).catch((error: unknown) => error)
    expect(rejection).toEqual(new Error('no matching decryption secret'))
    expect(Object.getPrototypeOf(rejection)).toBe(Error.prototype)
    expect(await authjsDecode({ token: theirs, secret: oldSecret, salt }).catch((error: unknown) => error)).toEqual(
      rejection,
    )
  })

  it('a token that names no key (no kid) is tried with the newest secret only, as Auth.js does (#37)', async () => {
    const salt = cookieNames[0]
    const exp = Math.floor(Date.now() / 1000) + 60
    const kidless = (secretValue: string) =>
      new EncryptJWT({ sub: 'kidless', exp })
        .setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
        .encrypt(authjsKey(secretValue, salt))
    const secrets = [secret, oldSecret]
    // Sealed with the newest secret: both libraries open it.
    const newest = await kidless(secret)
    expect(await decode({ token: newest, secret: secrets, salt })).toMatchObject({ sub: 'kidless' })
    expect(await authjsDecode({ token: newest, secret: secrets, salt })).toMatchObject({ sub: 'kidless' })
    // Sealed with an older one: Auth.js does not try it, and neither does Authchart; one MAC, not one per secret.
    const older = await kidless(oldSecret)
    await expect(authjsDecode({ token: older, secret: secrets, salt })).rejects.toThrow()
    expect(decodeSync({ token: older, secret: secrets, salt })).toBeNull()
  })

  it('rejects expired tokens from either library', async () => {
    const salt = 'authjs.session-token'
    await expect(
      decode({ token: await authjsEncode({ token: claims, secret, salt, maxAge: -60 }), secret, salt }),
    ).rejects.toThrow('"exp" claim timestamp check failed')
    const ours = await encode({ token: claims, secret, salt, maxAge: -60 })
    await expect(decode({ token: ours, secret, salt })).rejects.toThrow('"exp" claim timestamp check failed')
    await expect(authjsDecode({ token: ours, secret, salt })).rejects.toThrow('"exp" claim timestamp check failed')
  })

  it('rejects tampered tokens from either library', async () => {
    const salt = 'authjs.session-token'
    await expect(
      decode({ token: tamper(await authjsEncode({ token: claims, secret, salt })), secret, salt }),
    ).rejects.toThrow(Error)
    const ours = tamper(await encode({ token: claims, secret, salt }))
    await expect(decode({ token: ours, secret, salt })).rejects.toThrow(Error)
    await expect(authjsDecode({ token: ours, secret, salt })).rejects.toThrow()
  })

  it('rejects a token from another secret, or from another cookie name', async () => {
    const token = await authjsEncode({
      token: claims,
      secret: 'someone-elses-secret-000000000000',
      salt: 'authjs.session-token',
    })
    await expect(decode({ token, secret, salt: 'authjs.session-token' })).rejects.toThrow(
      'no matching decryption secret',
    )
    const ours = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    await expect(decode({ token: ours, secret, salt: '__Secure-authjs.session-token' })).rejects.toEqual(
      new Error('no matching decryption secret'),
    )
  })
})

describe('decodeSync', () => {
  const salt = 'authjs.session-token'

  it('allows 15 seconds of clock skew on exp, and no more', () => {
    const token = encodeSync({ token: claims, secret, salt, maxAge: 100, now: 1_000_000 })
    expect(decodeSync({ token, secret, salt, now: 1_000_114 })).not.toBeNull()
    expect(decodeSync({ token, secret, salt, now: 1_000_115 })).toBeNull()
  })

  it('rejects a token that is not yet valid (nbf beyond the tolerance)', () => {
    const token = encodeSync({ token: { nbf: 2000 }, secret, salt, now: 1000 })
    expect(decodeSync({ token, secret, salt, now: 1000 })).toBeNull()
    expect(decodeSync({ token, secret, salt, now: 1985 })).not.toBeNull()
  })

  it('rejects time claims that are not numbers', async () => {
    // encode overwrites iat and exp, so these tokens are written directly with jose.
    for (const bad of [{ exp: 'never' }, { nbf: '0' }, { iat: 'yesterday' }, { exp: null }] as Array<
      Record<string, unknown>
    >) {
      const token = await new EncryptJWT(bad)
        .setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
        .encrypt(authjsKey(secret, salt))
      expect(decodeSync({ token, secret, salt })).toBeNull()
    }
  })

  it('rejects a kid that names none of our keys, even if a key would open it', async () => {
    const token = await new EncryptJWT({ sub: 'x' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'unknown' })
      .encrypt(authjsKey(secret, salt))
    expect(decodeSync({ token, secret, salt })).toBeNull()
  })

  it('reads A256GCM tokens, as Auth.js does', async () => {
    const key = authjsKey(secret, salt, 32)
    const kid = await calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(key) }, 'sha256')
    const token = await new EncryptJWT({ sub: 'gcm' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
      .setExpirationTime('1h')
      .encrypt(key)
    expect(decodeSync({ token, secret, salt })).toMatchObject({ sub: 'gcm' })
    expect(await authjsDecode({ token, secret, salt })).toMatchObject({ sub: 'gcm' })
  })

  it('returns null for absent, malformed or non-object tokens without throwing', async () => {
    const key = authjsKey(secret, salt)
    // A valid token whose header is swapped for `{}` (no alg): refused before any key is tried.
    const headerless = (
      await new EncryptJWT({}).setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' }).encrypt(key)
    ).replace(/^[^.]+/, 'e30')
    for (const token of [undefined, '', 'garbage', 'a.b.c.d.e', '....', headerless]) {
      expect(decodeSync({ token, secret, salt })).toBeNull()
    }
    const notJson = sealCompactJwe('not json', key, 'A256CBC-HS512')
    const array = sealCompactJwe('[1,2]', key, 'A256CBC-HS512')
    expect(decodeSync({ token: notJson, secret, salt })).toBeNull()
    expect(decodeSync({ token: array, secret, salt })).toBeNull()
  })

  it('throws MissingSecret without a secret, and JWTSessionError without a salt', async () => {
    expect(() => decodeSync({ token: 'x', secret: '', salt })).toThrow(MissingSecret)
    expect(() => decodeSync({ token: 'x', secret: [], salt })).toThrow(MissingSecret)
    expect(() => encodeSync({ token: {}, secret: ['', ''], salt })).toThrow(MissingSecret)
    await expect(decode({ token: 'x', secret: '', salt })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ secret: [], salt })).rejects.toMatchObject({ type: 'MissingSecret' })
    const noSalt = JSON.parse('{"secret":"s"}') as { secret: string; salt: string }
    expect(() => decodeSync(noSalt)).toThrow(JWTSessionError)
    expect(() => encodeSync({ ...noSalt, maxAge: Number.NaN })).toThrow(JWTSessionError)
  })
})

describe('getToken', () => {
  let savedEnv: Record<string, string | undefined>
  beforeEach(() => {
    savedEnv = { AUTH_URL: process.env.AUTH_URL, AUTH_SECRET: process.env.AUTH_SECRET }
    delete process.env.AUTH_URL
    delete process.env.AUTH_SECRET
  })
  afterEach(() => {
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  const cookieHeader = (name: string, value: string) =>
    chunkCookie(name, value, { path: '/' }, new Map())
      .map((record) => serializeCookie(record).split(';')[0])
      .join('; ')

  it('reads the session cookie of a Request, and @auth/core reads the same request alike', async () => {
    const token = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    const req = new Request('http://localhost/api', { headers: { cookie: `other=1; authjs.session-token=${token}` } })
    expect(await getToken({ req, secret })).toMatchObject(claims)
    expect(await authjsGetToken({ req, secret })).toMatchObject(claims)
  })

  it('uses the __Secure- cookie for an https request, and AUTH_URL decides when set', async () => {
    const name = '__Secure-authjs.session-token'
    const token = await authjsEncode({ token: claims, secret, salt: name })
    const headers = { cookie: `${name}=${token}` }
    expect(await getToken({ req: new Request('https://app.example/', { headers }), secret })).toMatchObject(claims)
    expect(await getToken({ req: new Request('http://app.example/', { headers }), secret })).toBeNull()
    process.env.AUTH_URL = 'https://app.example/auth'
    expect(await getToken({ req: new Request('http://app.example/', { headers }), secret })).toMatchObject(claims)
    expect(await getToken({ req: { headers }, secret })).toMatchObject(claims)
    expect(await getToken({ req: { headers }, secret, secureCookie: false })).toBeNull()
  })

  it("reassembles a chunked cookie, including one chunked by @auth/core's sizes", async () => {
    const big = { ...claims, blob: 'x'.repeat(9000) }
    const token = await authjsEncode({ token: big, secret, salt: 'authjs.session-token' })
    const cookie = cookieHeader('authjs.session-token', token)
    expect(cookie).toContain('authjs.session-token.2=')
    expect(await getToken({ req: { headers: { cookie } }, secret })).toMatchObject(big)
    expect(await authjsGetToken({ req: { headers: { cookie } }, secret })).toMatchObject(big)
  })

  it('accepts plain-record headers in any case, Headers objects, and array values', async () => {
    const token = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    expect(await getToken({ req: { headers: { Cookie: `authjs.session-token=${token}` } }, secret })).toMatchObject(
      claims,
    )
    expect(
      await getToken({ req: { headers: new Headers({ cookie: `authjs.session-token=${token}` }) }, secret }),
    ).toMatchObject(claims)
    expect(
      await getToken({ req: { headers: { cookie: ['a=1', `authjs.session-token=${token}`] } }, secret }),
    ).toMatchObject(claims)
  })

  it('falls back to an Authorization: Bearer header, URL-decoded', async () => {
    const token = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    expect(
      await getToken({ req: { headers: { authorization: `Bearer ${encodeURIComponent(token)}` } }, secret }),
    ).toMatchObject(claims)
    expect(await getToken({ req: { headers: { authorization: `bearer ${token}` } }, secret })).toMatchObject(claims)
    expect(await getToken({ req: { headers: { authorization: 'Bearer %E0%A4%A' } }, secret })).toBeNull()
    expect(await getToken({ req: { headers: { authorization: `Basic ${token}` } }, secret })).toBeNull()
  })

  it('returns the raw token without needing a secret', async () => {
    const token = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    const raw: string = await getToken({ req: { headers: { cookie: `authjs.session-token=${token}` } }, raw: true })
    expect(raw).toBe(token)
  })

  it('returns null when there is no token, and requires a secret only once there is one', async () => {
    expect(await getToken({ req: { headers: {} } })).toBeNull()
    await expect(getToken({ req: { headers: { cookie: 'authjs.session-token=abc' } } })).rejects.toBeInstanceOf(
      MissingSecret,
    )
    process.env.AUTH_SECRET = secret
    const token = await encode({ token: claims, secret, salt: 'authjs.session-token' })
    expect(await getToken({ req: { headers: { cookie: `authjs.session-token=${token}` } } })).toMatchObject(claims)
  })

  it('honours cookieName, salt and a custom decoder, and treats a throwing decoder as no session', async () => {
    const token = await encode({ token: claims, secret, salt: 'custom-salt' })
    const req = { headers: { cookie: `my-session=${token}` } }
    expect(await getToken({ req, secret, cookieName: 'my-session', salt: 'custom-salt' })).toMatchObject(claims)
    expect(await getToken({ req, secret, cookieName: 'my-session' })).toBeNull()
    const seen: string[] = []
    const decoded = await getToken({
      req,
      secret,
      cookieName: 'my-session',
      decode: ({ token: t }) => {
        seen.push(t ?? '')
        return { sub: 'custom' }
      },
    })
    expect(decoded).toEqual({ sub: 'custom' })
    expect(seen).toEqual([token])
    const debug: unknown[] = []
    const logger = { debug: (...args: unknown[]) => void debug.push(args), warn: () => {}, error: () => {} }
    expect(
      await getToken({
        req,
        secret,
        cookieName: 'my-session',
        logger,
        decode: () => {
          throw new Error('bad')
        },
      }),
    ).toBeNull()
    expect(debug).toHaveLength(1)
  })

  it('rejects a call without req', async () => {
    const params = JSON.parse('{}') as Parameters<typeof getToken>[0]
    await expect(getToken(params)).rejects.toMatchObject({ type: 'InvalidRequest' })
  })
})
