/**
 * `authchart/jwt`: issue, read and fetch the session token, API-compatible with `@auth/core/jwt`.
 *
 * The token is the one Auth.js writes, byte-format for byte-format: a compact JWE (`alg: "dir"`,
 * `enc: "A256CBC-HS512"`) whose key is derived from the secret with the cookie name as salt, and whose protected
 * header carries `kid`, the RFC 7638 thumbprint of that key. Sessions issued by Auth.js therefore stay valid after a
 * migration, and the other way round. Unlike Auth.js, the crypto is synchronous `node:crypto`; `encodeSync` and
 * `decodeSync` expose it to the server's hot path.
 * @module jwt
 */
import { InvalidRequest, JWTSessionError, MissingSecret } from './errors.js'
import type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from './types/jwt.js'
import type { LoggerInstance } from './logger.js'
import { readChunkedCookie } from './session/cookie-chunks.js'
import { parseCookieHeader } from './session/cookie-header.js'
import { openSessionToken, sealSessionToken, unopenedTokenReason } from './session/session-jwe.js'

export type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from './types/jwt.js'

/** 30 days, Auth.js's default session lifetime. */
const defaultMaxAgeSeconds = 30 * 24 * 60 * 60

/** Options of the synchronous variants: the clock, injectable so tests and the flow runtime control time. */
export interface TokenClock {
  /** Current time in epoch seconds. Default: the system clock. */
  now?: number
}

/** Parameters of `getToken`. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request, or any object with its headers (a `Headers`, or a plain record as Node and Express give). */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined>; url?: string }
  /** Read the `__Secure-` cookie. Default: whether `AUTH_URL` is https, else whether the request URL is. */
  secureCookie?: boolean
  /** The session cookie's name. Default: `authjs.session-token`, `__Secure-` prefixed when `secureCookie`. */
  cookieName?: string
  /** Return the token string without decoding it. */
  raw?: R
  /** Secret or rotation list. Default: `process.env.AUTH_SECRET`. */
  secret?: string | string[]
  /** Key-derivation salt. Default: the cookie name. */
  salt?: string
  /** A custom decoder (the one configured as `jwt.decode`). Default: `decode`. */
  decode?: JWTOptions['decode']
  logger?: LoggerInstance | Console
}

function epochSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/** One-secret lists by secret, so repeated calls with the same secret reuse one keyring (session-jwe.ts). */
const singleSecretLists = new Map<string, readonly string[]>()

function secretList(secret: unknown): readonly string[] {
  if (typeof secret === 'string' && secret.length > 0) {
    let list = singleSecretLists.get(secret)
    if (!list) {
      // Bounded: a caller cycling through secrets must not grow it without limit.
      if (singleSecretLists.size >= 64) singleSecretLists.clear()
      list = [secret]
      singleSecretLists.set(secret, list)
    }
    return list
  }
  if (Array.isArray(secret) && secret.length > 0 && secret.every((s) => typeof s === 'string' && s.length > 0))
    return secret as string[]
  const list = (Array.isArray(secret) ? secret : [secret]).filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  )
  if (list.length === 0) throw new MissingSecret('a secret is required to encode or decode a session token')
  return list
}

function requireSalt(salt: unknown): string {
  if (typeof salt !== 'string')
    throw new JWTSessionError('a salt (the session cookie name) is required to derive the token key')
  return salt
}

/**
 * Encodes a session token synchronously: the claims of `token` plus `iat`, `exp` and a fresh `jti`, sealed with the
 * key of the first secret.
 * @param params `token`, `secret` (newest first), `salt`, `maxAge` in seconds (default 30 days), `now` (epoch seconds)
 * @returns the compact JWE
 * @throws {MissingSecret} when no secret is given
 * @throws {JWTSessionError} when `salt` is missing or `maxAge` is not a finite number
 */
export function encodeSync<Payload = JWT>(params: JWTEncodeParams<Payload> & TokenClock): string {
  const secrets = secretList(params.secret)
  const salt = requireSalt(params.salt)
  const maxAge = params.maxAge ?? defaultMaxAgeSeconds
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge))
    throw new JWTSessionError('jwt maxAge must be a finite number of seconds')
  return sealSessionToken(secrets, salt, params.token ?? {}, maxAge, params.now ?? epochSeconds())
}

/**
 * Decodes a session token synchronously. Accepts `A256CBC-HS512` and `A256GCM`, as Auth.js does.
 * @param params `token`, `secret` (any of a rotation list opens it), `salt`, `now` (epoch seconds)
 * @returns the claims, or `null` when the token is absent, malformed, not ours, tampered with or expired
 *   (15 s tolerance). Bad input never throws.
 * @throws {MissingSecret} when no secret is given
 * @throws {JWTSessionError} when `salt` is missing
 */
export function decodeSync<Payload = JWT>(params: JWTDecodeParams & TokenClock): Payload | null {
  const secrets = secretList(params.secret)
  const salt = requireSalt(params.salt)
  const { token } = params
  if (typeof token !== 'string' || token.length === 0) return null
  return openSessionToken<Payload>(secrets, salt, token, params.now ?? epochSeconds())
}

/**
 * Issues a session token, as `@auth/core/jwt`'s `encode` does (the work itself is synchronous).
 * @throws {MissingSecret} when no secret is given
 * @see encodeSync
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeSync(params)
}

/**
 * Decodes a session token, as `@auth/core/jwt`'s `decode` does: resolves `null` for an empty token, and rejects when
 * the token cannot be accepted, with a plain `Error` in the words Auth.js rejects with: `no matching decryption
 * secret` when no secret decrypts it (a rotated-out secret, another cookie name), jose's text when it is malformed or
 * expired. `getToken` turns any rejection into `null`; the session check never rejects (it reads with `decodeSync`).
 * @throws {MissingSecret} when no secret is given
 * @throws {Error} when the token cannot be accepted
 * @see decodeSync
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  if (typeof params.token !== 'string' || params.token === '') return null
  const now = epochSeconds()
  const claims = decodeSync<Payload>({ ...params, now })
  if (claims === null)
    throw new Error(unopenedTokenReason(secretList(params.secret), requireSalt(params.salt), params.token, now))
  return claims
}

type HeaderSource = GetTokenParams['req']['headers']

function readHeader(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name)
  const record = headers as Record<string, string | string[] | undefined>
  // Node lower-cases header names, but a hand-built record may not.
  const value = record[name] ?? record[Object.keys(record).find((key) => key.toLowerCase() === name) ?? '']
  if (Array.isArray(value)) return value.join(name === 'cookie' ? '; ' : ', ')
  return typeof value === 'string' ? value : null
}

/** RFC 6750 §2.1; the scheme is case-insensitive (RFC 9110 §11.1). Auth.js URL-decodes the token, so do we. */
function readBearerToken(authorization: string | null): string | null {
  if (!authorization) return null
  const match = /^bearer +([^\s]+) *$/i.exec(authorization)
  if (!match?.[1]) return null
  try {
    return decodeURIComponent(match[1])
  } catch {
    return null
  }
}

function isSecureByDefault(req: GetTokenParams['req']): boolean {
  const authUrl = process.env.AUTH_URL
  if (authUrl) return authUrl.startsWith('https://')
  const url = (req as { url?: unknown }).url
  return typeof url === 'string' && url.startsWith('https:')
}

/**
 * Reads the session token of a request: the session cookie (reassembled from chunks when needed), else an
 * `Authorization: Bearer` header, decoded unless `raw`.
 * @returns the claims (or the raw token with `raw: true`); `null` when there is no token or it does not decode
 * @throws {MissingSecret} when a token is found, `raw` is not set and no secret is given or in `AUTH_SECRET`
 * @throws {InvalidRequest} when `req` is missing
 * @example
 * const token = await getToken({ req, secret: process.env.AUTH_SECRET })
 */
export function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string : JWT | null>
export async function getToken(params: GetTokenParams<boolean>): Promise<string | JWT | null> {
  const { req } = params
  if (!req || typeof req !== 'object' || !req.headers) throw new InvalidRequest('getToken requires `req` with headers')
  const secureCookie = params.secureCookie ?? isSecureByDefault(req)
  const cookieName = params.cookieName ?? `${secureCookie ? '__Secure-' : ''}authjs.session-token`
  const cookies = parseCookieHeader(readHeader(req.headers, 'cookie'))
  const token = readChunkedCookie(cookieName, cookies) ?? readBearerToken(readHeader(req.headers, 'authorization'))
  if (!token) return null
  if (params.raw) return token
  const secret = params.secret ?? process.env.AUTH_SECRET
  if (!secret || (Array.isArray(secret) && secret.length === 0)) {
    throw new MissingSecret('pass `secret` to getToken or set AUTH_SECRET')
  }
  try {
    if (params.decode) return await params.decode({ token, secret, salt: params.salt ?? cookieName })
    const claims = await decode({ token, secret, salt: params.salt ?? cookieName })
    // Every session token Authchart (and Auth.js) issues carries `exp`: one without it would never expire.
    return claims && typeof claims.exp === 'number' ? claims : null
  } catch (error) {
    // A custom decoder may throw on a bad token; for getToken that is the same as no session.
    params.logger?.debug('getToken: the session token did not decode', {
      error: error instanceof Error ? error.message : String(error),
    })
    return null
  }
}
