/**
 * The request context: the resolved config plus what depends on this one request (origin, secure cookies, the
 * CSRF verdict, the clock), and the cookies the response will set.
 */
import type { CookieRecord } from '../types/cookies.js'
import { isCsrfTokenValid, readCsrfCookie } from '../security/csrf.js'
import type { ResolvedConfig } from './config.js'
import type { CookieSet } from './cookie-set.js'
import type { AuthRequest } from './request.js'

export interface RequestContext {
  config: ResolvedConfig
  req: AuthRequest
  /** The site's origin, the `baseUrl` of the redirect callback. */
  origin: string
  secure: boolean
  cookies: CookieSet
  /** Epoch seconds, read once per request. */
  now: number
  /** The same instant in epoch milliseconds, for dates kept at millisecond precision (database session expiry). */
  nowMs: number
  /** The token of a valid CSRF cookie, if the browser has one (read on first use: the session check never needs it). */
  csrfCookieToken: string | null
  /** Whether this POST carried the CSRF cookie's token (always true when CSRF checks are skipped; false for GET). */
  csrfVerified: boolean
  /** Cookies the response sets (or clears). */
  setCookies: CookieRecord[]
}

/** The context of one request; the CSRF cookie is read and the CSRF verdict reached only when someone asks. */
class Context implements RequestContext {
  readonly origin: string
  readonly secure: boolean
  readonly cookies: CookieSet
  readonly setCookies: CookieRecord[] = []
  #csrfToken: string | null | undefined = undefined
  #verified: boolean | undefined = undefined

  readonly now: number

  constructor(
    readonly config: ResolvedConfig,
    readonly req: AuthRequest,
    readonly nowMs: number,
  ) {
    this.now = Math.floor(nowMs / 1000)
    // The configured URL decides the origin and the cookie prefixes; the request's own URL only when there is none.
    this.origin = config.origin ?? req.url.origin
    this.secure = config.cookies.forced
      ? config.cookies.secure.sessionToken.options.secure === true
      : this.origin.startsWith('https:')
    this.cookies = this.secure ? config.cookies.secure : config.cookies.insecure
  }

  get csrfCookieToken(): string | null {
    return (this.#csrfToken ??= this.config.csrfEnabled
      ? readCsrfCookie(this.req.cookies.get(this.cookies.csrfToken.name), this.config.secrets)
      : null)
  }

  set csrfCookieToken(token: string | null) {
    this.#csrfToken = token
  }

  get csrfVerified(): boolean {
    return (this.#verified ??=
      !this.config.csrfEnabled ||
      (this.req.method === 'POST' && isCsrfTokenValid(this.csrfCookieToken, this.req.body?.csrfToken)))
  }
}

/** Builds the context of one request. */
export function createContext(config: ResolvedConfig, req: AuthRequest, nowMs: number): RequestContext {
  return new Context(config, req, nowMs)
}

/** The absolute URL of an action (and provider) under the base path. */
export function actionUrl(ctx: RequestContext, action: string, providerId?: string): string {
  return `${ctx.origin}${ctx.config.basePath}/${action}${providerId ? `/${encodeURIComponent(providerId)}` : ''}`
}

/** A page's URL: the app's own page when configured, else the built-in one. */
export function pageUrl(
  ctx: RequestContext,
  page: 'signIn' | 'signOut' | 'error' | 'verifyRequest' | 'newUser',
  params?: Record<string, string>,
): string {
  const custom = ctx.config.pages[page]
  const builtIn: Record<typeof page, string> = {
    signIn: 'signin',
    signOut: 'signout',
    error: 'error',
    verifyRequest: 'verify-request',
    newUser: 'signin',
  }
  const base = custom ? new URL(custom, ctx.origin).href : actionUrl(ctx, builtIn[page])
  if (!params || Object.keys(params).length === 0) return base
  const url = new URL(base)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}
