/**
 * The answer of `Auth()` on the wire: status, headers, Set-Cookie lines and body text, computed once from the internal
 * response and then written either as a web `Response` or straight onto Node's response (the Node and Express
 * bindings), with nothing built that the destination does not need.
 */
import { serializeCookie } from '../session/cookie-header.js'
import type { ResponseInternal } from '../types/index.js'

/**
 * Headers of answers that carry a user's session or CSRF token: no cache, shared or private, may keep them (the
 * headers Auth.js sends, so proxies configured for it behave the same).
 */
export const privateNoStoreHeaders: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'private, no-cache, no-store',
  expires: '0',
  pragma: 'no-cache',
})

/** A response ready to be written: header names in lower case, Set-Cookie lines apart, the body as text. */
export interface WireResponse {
  status: number
  headers: Readonly<Record<string, string>>
  cookies: string[]
  body: string | null
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({})

/** Header records already in wire form, and their JSON-typed variants, for the frozen records actions share. */
const wireForms = new WeakMap<object, Readonly<Record<string, string>>>()
const jsonForms = new WeakMap<object, Readonly<Record<string, string>>>()

function isWireRecord(record: Record<string, unknown>): record is Record<string, string> {
  for (const name in record) {
    if (typeof record[name] !== 'string' || name === 'set-cookie' || name !== name.toLowerCase()) return false
  }
  return true
}

/** The headers of an internal response as a lower-case record; Set-Cookie values go to `cookies`. */
function wireHeaders(init: ResponseInternal['headers'], cookies: string[]): Readonly<Record<string, string>> {
  if (init === undefined) return noHeaders
  const shared = wireForms.get(init)
  if (shared) return shared
  const isPlain = !(init instanceof Headers) && !Array.isArray(init)
  if (isPlain && isWireRecord(init)) {
    if (Object.isFrozen(init)) wireForms.set(init, init)
    return init
  }
  const out: Record<string, string> = {}
  for (const [name, value] of new Headers(init)) {
    if (name === 'set-cookie') cookies.push(value)
    else out[name] = value
  }
  return out
}

function withJsonType(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const cached = jsonForms.get(headers)
  if (cached) return cached
  const typed = Object.freeze({ ...headers, 'content-type': 'application/json' })
  if (Object.isFrozen(headers)) jsonForms.set(headers, typed)
  return typed
}

/**
 * The wire form: JSON for objects and null, text/HTML as given, 302 with Location for redirects.
 * @throws InvalidCookieOption when a configured cookie name or option cannot be serialised
 */
export function toWire(internal: ResponseInternal): WireResponse {
  const cookies: string[] = []
  let headers = wireHeaders(internal.headers, cookies)
  if (internal.cookies) for (const cookie of internal.cookies) cookies.push(serializeCookie(cookie))
  if (internal.redirect) {
    return { status: internal.status ?? 302, headers: { ...headers, location: internal.redirect }, cookies, body: null }
  }
  let body: string | null = null
  if (typeof internal.body === 'string') {
    body = internal.body
  } else if (internal.body !== undefined) {
    body = JSON.stringify(internal.body)
    if (headers['content-type'] === undefined) headers = withJsonType(headers)
  }
  return { status: internal.status ?? 200, headers, cookies, body }
}

/**
 * The web `Response` of a wire response (without a body for HEAD).
 *
 * The headers go straight onto the response's own list. Given in its init, undici converts the record member by
 * member (each value checked as a ByteString) and then appends every one, checking it again: on Node 20 that cost a
 * session check about 1.3 µs, 3 % of it (docs/benchmarks.md, "Headers onto the response").
 */
export function wireToResponse(wire: WireResponse, head = false): Response {
  const response = new Response(head ? null : wire.body, { status: wire.status })
  const { headers } = response
  // Walked in place: an `Object.entries` array of pairs would be one more allocation on every answer.
  for (const name in wire.headers) {
    // A text body has made the response `text/plain` already; the answer's own type takes its place.
    if (name === 'content-type') headers.set(name, wire.headers[name])
    else headers.append(name, wire.headers[name])
  }
  for (const cookie of wire.cookies) headers.append('set-cookie', cookie)
  return response
}

/** Builds the `Response`: JSON for objects and null, text/HTML as given, 302 with Location for redirects. */
export function toResponse(internal: ResponseInternal): Response {
  return wireToResponse(toWire(internal))
}
