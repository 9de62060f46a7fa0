/**
 * Copies the `Set-Cookie` lines of an `Auth()` response onto SvelteKit's `event.cookies`, the only way a form action
 * or a `load` can set cookies (SvelteKit refuses `set-cookie` in `setHeaders`). Attributes are carried over one by
 * one, so a cookie keeps the flags the core chose (HttpOnly, Secure, SameSite, expiry).
 */

/** The part of SvelteKit's `Cookies` the binding uses. */
export interface CookieSink {
  set(name: string, value: string, options: CookieOptions): void
}

export interface CookieOptions {
  path: string
  domain?: string
  expires?: Date
  maxAge?: number
  httpOnly?: boolean
  secure?: boolean
  sameSite?: 'lax' | 'strict' | 'none'
  partitioned?: boolean
}

export interface ParsedCookie {
  name: string
  value: string
  options: CookieOptions
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** One `Set-Cookie` line, or null when it has no `name=`. */
export function parseSetCookie(line: string): ParsedCookie | null {
  const [pair = '', ...attributes] = line.split(';')
  const eq = pair.indexOf('=')
  if (eq <= 0) return null
  const name = pair.slice(0, eq).trim()
  // SvelteKit encodes the value again when it writes the cookie; decoding here keeps it from being encoded twice.
  const value = decoded(pair.slice(eq + 1).trim())
  const options: CookieOptions = { path: '/', httpOnly: false, secure: false }
  for (const attribute of attributes) {
    const at = attribute.indexOf('=')
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase()
    const raw = at < 0 ? '' : attribute.slice(at + 1).trim()
    if (key === 'path') options.path = raw || '/'
    else if (key === 'domain') options.domain = raw
    else if (key === 'expires') {
      const date = new Date(raw)
      if (!Number.isNaN(date.getTime())) options.expires = date
    } else if (key === 'max-age') {
      const seconds = Number(raw)
      if (Number.isFinite(seconds)) options.maxAge = seconds
    } else if (key === 'httponly') options.httpOnly = true
    else if (key === 'secure') options.secure = true
    else if (key === 'partitioned') options.partitioned = true
    else if (key === 'samesite') {
      const mode = raw.toLowerCase()
      if (mode === 'lax' || mode === 'strict' || mode === 'none') options.sameSite = mode
    }
  }
  return { name, value, options }
}

/** Sets every cookie of `response` on `cookies`. */
export function forwardCookies(response: Response, cookies: CookieSink): void {
  for (const line of response.headers.getSetCookie()) {
    const cookie = parseSetCookie(line)
    if (cookie) cookies.set(cookie.name, cookie.value, cookie.options)
  }
}

/** The request's cookie header with the cookies of `response` applied, for a follow-up call inside one request. */
export function mergeCookieHeader(cookieHeader: string | null, response: Response): string {
  const jar = new Map<string, string>()
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  for (const line of response.headers.getSetCookie()) {
    const cookie = parseSetCookie(line)
    if (!cookie) continue
    if (cookie.options.maxAge !== undefined && cookie.options.maxAge <= 0) jar.delete(cookie.name)
    else jar.set(cookie.name, encodeURIComponent(cookie.value))
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}
