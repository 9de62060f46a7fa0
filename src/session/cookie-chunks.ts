/**
 * Splitting a large cookie value (a session JWT with many claims) into `name.0`, `name.1`, ... and putting it back
 * together. Browsers drop a cookie over 4096 bytes, silently, which would sign the user out.
 *
 * The chunk size follows Auth.js: 4096 minus 160, the size Auth.js estimates for an empty serialised chunk with
 * every attribute set. With default attributes our chunks are therefore identical to Auth.js's, and each library
 * reassembles the other's. When the real attributes are longer than that estimate (a long domain or cookie name)
 * the chunks get smaller instead of overflowing.
 */
import { serializeCookie } from './cookie-header.js'
import type { CookieRecord, CookieSerializeOptions } from '../types/cookies.js'

/** The per-cookie limit browsers enforce (RFC 6265 §6.1 asks for at least this much, and they give no more). */
const allowedCookieSize = 4096

/** Auth.js's estimate of an empty serialised session chunk; measured equal with its serializer in the tests. */
const estimatedEmptyCookieSize = 160

/** A canonical chunk index: no sign, no leading zeros, so `name.01` cannot shadow `name.1`. */
const chunkIndexPattern = /^(?:0|[1-9][0-9]{0,3})$/

/** Any all-digit suffix counts as a chunk when cleaning up, so junk like `name.007` is cleared too. */
const digitsPattern = /^[0-9]+$/

/** Chunk sizes by attribute set and name: the session cookie's are asked for on every re-issue. */
const chunkSizes = new WeakMap<CookieSerializeOptions, Map<string, number>>()

/**
 * The largest value one cookie may carry with these attributes. Cached per options object and name when the options
 * are frozen (the config's cookie sets are).
 */
export function cookieChunkSize(name: string, options: CookieSerializeOptions): number {
  let byName = chunkSizes.get(options)
  const known = byName?.get(name)
  if (known !== undefined) return known
  const { expires: _expires, ...rest } = options
  // A fixed-width date stands in for whatever expiry the cookie will carry, so the estimate does not vary per call.
  const empty = serializeCookie({ name: `${name}.0`, value: '', options: { ...rest, expires: new Date(0) } }).length
  const size = allowedCookieSize - Math.max(estimatedEmptyCookieSize, empty)
  if (Object.isFrozen(options)) {
    if (!byName) chunkSizes.set(options, (byName = new Map<string, number>()))
    byName.set(name, size)
  }
  return size
}

/** Clean-up record: same name and scope, empty value, expired now. */
function expiredRecord(name: string, options: CookieSerializeOptions): CookieRecord {
  const { expires: _expires, ...scope } = options
  return { name, value: '', options: { ...scope, maxAge: 0 } }
}

/** Names in `cookies` that belong to the cookie `name`: itself and every `name.<digits>`. */
function ownedCookieNames(name: string, cookies: ReadonlyMap<string, string>): string[] {
  const prefix = `${name}.`
  const owned: string[] = []
  for (const key of cookies.keys()) {
    if (key === name || (key.startsWith(prefix) && digitsPattern.test(key.slice(prefix.length)))) owned.push(key)
  }
  return owned
}

/**
 * The cookies that store `value` under `name`: one cookie when it fits, `name.0` … `name.n` otherwise, followed by
 * `maxAge: 0` records for any cookie of the same name in `existingCookies` that the new set does not overwrite
 * (stale chunks after a shrink, the unchunked cookie after a growth).
 * @param name the cookie name, e.g. `authjs.session-token`
 * @param value a cookie-safe ASCII value (a JWE); chunks are cut by character
 * @param options attributes for every written cookie
 * @param existingCookies the request's cookies (from `parseCookieHeader`)
 * @returns records to serialise onto the response, writes first
 */
export function chunkCookie(
  name: string,
  value: string,
  options: CookieSerializeOptions,
  existingCookies: ReadonlyMap<string, string>,
  /** `cookieChunkSize(name, options)`, when the caller has it from a cached call. */
  chunkSize = cookieChunkSize(name, options),
): CookieRecord[] {
  const records: CookieRecord[] = []
  if (value.length <= chunkSize) {
    records.push({ name, value, options })
  } else {
    for (let index = 0, offset = 0; offset < value.length; index++, offset += chunkSize) {
      records.push({ name: `${name}.${index}`, value: value.slice(offset, offset + chunkSize), options })
    }
  }
  const written = records.length === 1 ? undefined : new Set(records.map((record) => record.name))
  for (const stale of ownedCookieNames(name, existingCookies)) {
    if (written ? !written.has(stale) : stale !== name) records.push(expiredRecord(stale, options))
  }
  return records
}

/**
 * The value stored under `name`, unchunked or reassembled from `name.0` … `name.n`. An unchunked cookie wins when
 * both are present. Chunk suffixes that are not canonical indices are ignored; a missing or empty chunk makes the
 * value unusable, so the result is `undefined` rather than a spliced string.
 * @param name the cookie name
 * @param cookies the request's cookies (from `parseCookieHeader`)
 * @returns the value, or `undefined` when absent or incomplete
 */
export function readChunkedCookie(name: string, cookies: ReadonlyMap<string, string>): string | undefined {
  // The common case, a session that fits one cookie, costs a single lookup.
  const whole = cookies.get(name)
  if (whole) return whole
  const prefix = `${name}.`
  const chunks: string[] = []
  let count = 0
  for (const [key, value] of cookies) {
    if (!key.startsWith(prefix)) continue
    const suffix = key.slice(prefix.length)
    if (!chunkIndexPattern.test(suffix)) continue
    chunks[Number(suffix)] = value
    count++
  }
  if (count === 0 || chunks.length !== count) return undefined
  let joined = ''
  for (const chunk of chunks) {
    if (!chunk) return undefined
    joined += chunk
  }
  return joined
}

/**
 * `maxAge: 0` records for the cookie `name` and each of its chunks present in `cookies` (sign-out, invalid session).
 * @param name the cookie name
 * @param options the attributes the cookie was written with (path and domain must match for the browser to clear it)
 * @param cookies the request's cookies
 * @returns one clean-up record per cookie present; none when nothing is present
 */
export function clearChunkedCookie(
  name: string,
  options: CookieSerializeOptions,
  cookies: ReadonlyMap<string, string>,
): CookieRecord[] {
  return ownedCookieNames(name, cookies).map((owned) => expiredRecord(owned, options))
}
