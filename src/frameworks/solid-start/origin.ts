/**
 * The cross-site check of the binding's POST handler: a browser's POST to the sign-in and sign-out endpoints must
 * come from a page of the app's own origin. Auth()'s double-submit CSRF token refuses such posts too; this check
 * refuses them before any work, with a plain 403, so a forged form never reaches a flow.
 */
import type { AuthConfig } from '../../types/index.js'

/** The origin browsers see the app at: the configured `url` (AUTH_URL), else the request's, as proxies report it. */
export function appOrigin(request: Request, config: Pick<AuthConfig, 'url' | 'trustHost'>): string {
  if (config.url) {
    try {
      return new URL(config.url).origin
    } catch {
      // An unparsable AUTH_URL is reported by Auth() itself; fall back to the request's origin here.
    }
  }
  const url = new URL(request.url)
  if (config.trustHost) {
    const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
    if (host || proto) return `${proto || url.protocol.replace(/:$/, '')}://${host || url.host}`
  }
  return url.origin
}

/** Whether the browser says the request comes from `origin` (the Origin header, else Fetch Metadata). */
export function isSameOrigin(request: Request, origin: string): boolean {
  const sent = request.headers.get('origin')
  if (sent !== null) return sent === origin
  const site = request.headers.get('sec-fetch-site')
  // Non-browser clients send neither header; Auth()'s CSRF token still guards them.
  return site === null || site === 'same-origin' || site === 'none'
}
