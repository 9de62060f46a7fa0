/**
 * Reading the `Cookie` request header and writing `Set-Cookie` response headers (RFC 6265). Reading uses the `cookie`
 * package; writing stays our own loop, because `cookie.serialize` costs six times as much per line (about 4.6 µs more,
 * bench/libraries.bench.ts) on a path the session check takes whenever it re-issues the cookie.
 *
 * Values are percent-encoded on the way out and decoded on the way in, as Auth.js does: a cookie written by either
 * library reads the same in the other, and a value holding `;`, `,`, spaces or `%` round-trips unchanged.
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.1
 */
import { parse as parseCookies } from 'cookie'
import { InvalidCookieOption } from '../errors.js'
import type { CookieRecord, CookieSerializeOptions } from '../types/cookies.js'
import { httpDateOf } from './expiry-strings.js'

/** A single cookie value beyond this is not one we wrote (browsers cap a cookie at 4096 bytes); skip, don't parse. */
const maxCookieValueLength = 8192

/** RFC 6265 §4.1.1 cookie-name = token (RFC 7230 §3.2.6 tchar). */
const cookieNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Characters `encodeURIComponent` leaves alone; a value made only of these needs no encoding (JWEs, ids). */
const unreservedValuePattern = /^[A-Za-z0-9\-_.!~*'()]*$/

/** RFC 6265 §5.2.3 / RFC 1034: a host name, optionally with the legacy leading dot. */
const domainPattern = /^\.?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** RFC 6265 §4.1.1 path-value: any CHAR except CTLs and `;`. */
const pathPattern = /^[\u0020-\u003A\u003C-\u007E]*$/

const sameSiteValues = { strict: 'Strict', lax: 'Lax', none: 'None' } as const
const priorityValues = { low: 'Low', medium: 'Medium', high: 'High' } as const

/**
 * Parses a `Cookie` header into name → value, with the `cookie` package (v1, the parser Auth.js and Express use; it
 * costs what our own loop did, bench/libraries.bench.ts). Never throws: pairs without `=` or with an empty name are
 * skipped, bad %-escapes leave the value raw, a repeated name keeps its first value (browsers send the most specific
 * path first), and values over 8 KB are dropped: no cookie we wrote is that long.
 * @param header the `Cookie` header, or null when absent
 * @returns the cookies, in header order
 */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (typeof header !== 'string' || header === '') return cookies
  const parsed = parseCookies(header)
  for (const name in parsed) {
    const value = parsed[name]
    if (value !== undefined && name !== '' && value.length <= maxCookieValueLength) cookies.set(name, value)
  }
  return cookies
}

/**
 * The last value a sealer of this package vouched for as made of unreserved characters only (a session JWE it just
 * sealed: base64url and dots). Checking a 600-character token against the pattern costs about a microsecond on every
 * re-issue; one slot, so nothing outlives the next seal.
 */
let vouchedValue = ''

/** Marks `value` as needing no encoding: only for values built of base64url segments and dots. */
export function vouchUnreservedValue(value: string): void {
  vouchedValue = value
}

function encodeCookieValue(name: string, value: string): string {
  if (value === vouchedValue || unreservedValuePattern.test(value)) return value
  try {
    return encodeURIComponent(value)
  } catch {
    // Only a lone UTF-16 surrogate cannot be encoded; it has no meaning as a cookie value.
    throw new InvalidCookieOption('cookie value is not valid unicode', { name })
  }
}

function invalid(name: string, attribute: string): never {
  throw new InvalidCookieOption(`cookie ${attribute} is invalid`, { name, attribute })
}

function appendAttributes(name: string, options: CookieSerializeOptions): string {
  let out = ''
  if (options.maxAge !== undefined) {
    if (typeof options.maxAge !== 'number' || !Number.isFinite(options.maxAge)) invalid(name, 'maxAge')
    // RFC 6265 §5.2.2: Max-Age is whole seconds; expiry arithmetic often yields fractions.
    out += `; Max-Age=${Math.floor(options.maxAge)}`
  }
  if (options.domain !== undefined) {
    if (typeof options.domain !== 'string' || !domainPattern.test(options.domain)) invalid(name, 'domain')
    out += `; Domain=${options.domain}`
  }
  if (options.path !== undefined) {
    if (typeof options.path !== 'string' || !pathPattern.test(options.path)) invalid(name, 'path')
    out += `; Path=${options.path}`
  }
  if (options.expires !== undefined) {
    if (!(options.expires instanceof Date) || Number.isNaN(options.expires.getTime())) invalid(name, 'expires')
    out += `; Expires=${httpDateOf(options.expires)}`
  }
  if (options.httpOnly) out += '; HttpOnly'
  if (options.secure) out += '; Secure'
  if (options.partitioned) out += '; Partitioned'
  if (options.priority !== undefined) {
    const priority = typeof options.priority === 'string' ? priorityValues[options.priority] : undefined
    if (!priority) invalid(name, 'priority')
    out += `; Priority=${priority}`
  }
  if (options.sameSite !== undefined && options.sameSite !== false) {
    const sameSite =
      options.sameSite === true
        ? 'Strict'
        : typeof options.sameSite === 'string'
          ? sameSiteValues[options.sameSite]
          : undefined
    if (!sameSite) invalid(name, 'sameSite')
    out += `; SameSite=${sameSite}`
  }
  return out
}

/**
 * Serialises a cookie record as a `Set-Cookie` header value. The value is percent-encoded (a JWE or id passes
 * through untouched); `sameSite: true` means `Strict`; a fractional `maxAge` is rounded down.
 * @param record name, value and attributes
 * @returns the header value, e.g. `authjs.session-token=…; Path=/; HttpOnly; SameSite=Lax`
 * @throws {InvalidCookieOption} on a name that is not an RFC 6265 token, a value that is not valid Unicode, or an
 *   invalid `maxAge`, `domain`, `path`, `expires`, `priority` or `sameSite`
 */
export function serializeCookie(record: CookieRecord): string {
  const { name, value, options } = record
  if (typeof name !== 'string' || !cookieNamePattern.test(name)) invalid(String(name), 'name')
  if (typeof value !== 'string') invalid(name, 'value')
  return `${name}=${encodeCookieValue(name, value)}${options ? appendAttributes(name, options) : ''}`
}
