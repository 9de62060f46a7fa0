/**
 * The origin browsers see the app at, and the cross-site check of the Server Actions. The origin is the configured
 * one (`url`, from AUTH_URL) when there is one; else, with `trustHost`, what the proxy reports (X-Forwarded-Host and
 * -Proto), else the Host the server was reached at. A sign-in or sign-out Server Action must come from a page of
 * that origin: Next.js checks a Server Action's Origin against the Host header, which a proxy (or a client) writes,
 * so the binding checks it once more against the configuration, and a forged form signs nobody in (login CSRF).
 */
import type { AuthConfig } from '../../types/index.js'

/** What the binding reads of the request headers (`headers()` of next/headers, or a Request's). */
export interface HeaderSource {
  get(name: string): string | null
}

function first(value: string | null): string | undefined {
  const part = value?.split(',')[0]?.trim()
  return part ? part : undefined
}

/** The configured origin (`url`), or undefined when there is none or it cannot be parsed. */
export function configuredOrigin(config: Pick<AuthConfig, 'url'>): string | undefined {
  if (!config.url) return undefined
  try {
    return new URL(config.url).origin
  } catch {
    return undefined
  }
}

/** The origin of the app for a request with `headers`: see the module's comment. */
export function appOrigin(headers: HeaderSource, config: Pick<AuthConfig, 'url' | 'trustHost'>): string {
  const configured = configuredOrigin(config)
  if (configured) return configured
  const forwardedHost = config.trustHost ? first(headers.get('x-forwarded-host')) : undefined
  const forwardedProto = config.trustHost ? first(headers.get('x-forwarded-proto')) : undefined
  const host = forwardedHost ?? first(headers.get('host')) ?? 'localhost'
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : 'http'
  return `${proto}://${host}`
}

/**
 * Whether the browser says the request comes from `origin`: the Origin header (every browser sends it with a Server
 * Action's POST), else Fetch Metadata's `same-origin`. A request with neither is refused: only a browser calls a
 * Server Action.
 */
export function comesFrom(headers: HeaderSource, origin: string): boolean {
  const sent = headers.get('origin')
  if (sent !== null) return sent === origin
  return headers.get('sec-fetch-site') === 'same-origin'
}
