/**
 * Open-redirect protection. A callback URL comes from the client (query, form, cookie), so it is untrusted until the
 * app's `redirect` callback has decided; the default decision allows only same-origin URLs and relative paths.
 */

/** Longest callback URL accepted: the value rides in cookies and flow snapshots, so it must stay bounded. */
export const maxCallbackUrlLength = 512

// Control characters and whitespace let a URL parse differently in a browser than in our check: matching them is
// this pattern's whole point.
// eslint-disable-next-line no-control-regex
const unsafeCharacters = /[\u0000-\u001f\u007f\s\\]/

/**
 * Reads a client-supplied callback URL: a bounded string without control characters, or undefined.
 * This is only a sanity filter; `isSameOriginTarget` / the redirect callback decide where a user may go.
 */
export function readCallbackUrlInput(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxCallbackUrlLength) return undefined
  if (unsafeCharacters.test(value)) return undefined
  return value
}

/**
 * The default `redirect` callback: a relative path stays on this site, an absolute URL is allowed only on this site's
 * origin, anything else (another origin, `javascript:`, `//host`, user-info tricks) becomes the site's base URL.
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  let base: URL
  try {
    base = new URL(baseUrl)
  } catch {
    return baseUrl
  }
  if (unsafeCharacters.test(url)) return base.origin
  // A path must start with exactly one slash: `//evil.example` is a protocol-relative URL to another host.
  if (url.startsWith('/') && !url.startsWith('//')) {
    return new URL(url, base.origin).href
  }
  try {
    const target = new URL(url)
    if (
      (target.protocol === 'https:' || target.protocol === 'http:') &&
      target.origin === base.origin &&
      !target.username &&
      !target.password
    ) {
      return target.href
    }
  } catch {
    // not an absolute URL and not a path: fall through to the base URL
  }
  return baseUrl
}

/** Whether a URL, as returned by the app's redirect callback, is something a Location header may carry. */
export function isNavigableUrl(url: string): boolean {
  if (unsafeCharacters.test(url)) return false
  if (url.startsWith('/') && !url.startsWith('//')) return true
  try {
    const target = new URL(url)
    return target.protocol === 'https:' || target.protocol === 'http:'
  } catch {
    return false
  }
}
