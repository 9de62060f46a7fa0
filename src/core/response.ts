/** Turns the internal response into a web `Response`. */
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

/** Builds the `Response`: JSON for objects and null, text/HTML as given, 302 with Location for redirects. */
export function toResponse(internal: ResponseInternal): Response {
  const headers = new Headers(internal.headers)
  for (const cookie of internal.cookies ?? []) headers.append('set-cookie', serializeCookie(cookie))
  if (internal.redirect) {
    headers.set('location', internal.redirect)
    return new Response(null, { status: internal.status ?? 302, headers })
  }
  let body: string | null = null
  if (typeof internal.body === 'string') {
    body = internal.body
  } else if (internal.body !== undefined) {
    body = JSON.stringify(internal.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return new Response(body, { status: internal.status ?? 200, headers })
}
