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

/** The base URL last parsed and its origin (undefined when it does not parse): it is the site's own, on every request. */
let lastBase: { url: string; origin: string | undefined; isHttp: boolean } | undefined

function parsedBase(baseUrl: string): { origin: string | undefined; isHttp: boolean } {
  if (lastBase?.url === baseUrl) return lastBase
  let origin: string | undefined
  let isHttp = false
  try {
    const base = new URL(baseUrl)
    origin = base.origin
    isHttp = base.protocol === 'https:' || base.protocol === 'http:'
  } catch {
    origin = undefined
  }
  lastBase = { url: baseUrl, origin, isHttp }
  return lastBase
}

/**
 * The default decision, and whether it is already known to be an http(s) URL a Location header may carry (it came out
 * of a URL parse with that protocol), so that the caller need not parse it again.
 */
export function decideDefaultRedirect(url: string, baseUrl: string): { target: string; navigable: boolean } {
  const base = parsedBase(baseUrl)
  if (base.origin === undefined) return { target: baseUrl, navigable: false }
  if (unsafeCharacters.test(url)) return { target: base.origin, navigable: base.isHttp }
  // A path must start with exactly one slash: `//evil.example` is a protocol-relative URL to another host.
  if (url.startsWith('/') && !url.startsWith('//')) {
    return { target: new URL(url, base.origin).href, navigable: base.isHttp }
  }
  try {
    const target = new URL(url)
    if (
      (target.protocol === 'https:' || target.protocol === 'http:') &&
      target.origin === base.origin &&
      !target.username &&
      !target.password
    ) {
      return { target: target.href, navigable: true }
    }
  } catch {
    // not an absolute URL and not a path: fall through to the base URL
  }
  return { target: baseUrl, navigable: false }
}

/**
 * The default `redirect` callback: a relative path stays on this site, an absolute URL is allowed only on this site's
 * origin, anything else (another origin, `javascript:`, `//host`, user-info tricks) becomes the site's base URL.
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return decideDefaultRedirect(url, baseUrl).target
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
