/**
 * The `GET` and `POST` Route Handlers of `app/api/auth/[...nextauth]/route.ts`: each answers with `Auth()`. A POST
 * from another site is refused (403) before any work, except an OAuth / OIDC provider's callback, which providers
 * using `response_mode=form_post` post from their own origin (checked by state, PKCE and nonce).
 */
import type { NextRequest } from 'next/server'
import { decodePathSegment } from '../../core/path-segment.js'
import { createLogger, logRefusal } from '../../logger.js'
import { callAuth, isUnderBasePath } from '../web-handler.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin } from './origin.js'
import { assertNodeRuntime } from './runtime.js'

export type RouteHandler = (request: NextRequest) => Promise<Response>

interface ProviderShape {
  id?: unknown
  type?: unknown
}

function mayComeFromElsewhere(config: NextAuthConfig, action: string): boolean {
  const [name, id] = action.split('/')
  if (name !== 'callback' || !id) return false
  const decoded = decodePathSegment(id)
  if (decoded === undefined) return false
  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry() : entry) as ProviderShape
    if (provider.id === decoded) return provider.type === 'oauth' || provider.type === 'oidc'
  }
  return false
}

/** Whether the browser says the POST comes from `origin`; a client that sends neither header is left to Auth()'s CSRF token. */
function sameOrigin(request: Request, origin: string): boolean {
  const sent = request.headers.get('origin')
  if (sent !== null) return sent === origin
  const site = request.headers.get('sec-fetch-site')
  return site === null || site === 'same-origin' || site === 'none'
}

/**
 * The request as Auth() reads it: at the app's origin (origin.ts), the one the Server Actions, `auth()` and step-up
 * use. The URL Next.js hands a Route Handler names the server's own hostname (`localhost` under `next start`)
 * whatever Host the browser reached, and Auth() takes the site's origin from it when no `url` is configured: a
 * callbackUrl on the browser's origin would not be this site's, and a sign-in would land on another origin.
 */
function atAppOrigin(request: NextRequest, origin: string): Request {
  const url = new URL(request.url)
  if (url.origin === origin) return request
  const body = request.body
  return new Request(`${origin}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    // A streamed body (read by Auth() within its own size and time limits) needs half-duplex.
    ...(body === null ? {} : { body, duplex: 'half' }),
  })
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}

export function createHandlers(resolve: (request?: NextRequest) => Promise<NextAuthConfig>): {
  GET: RouteHandler
  POST: RouteHandler
} {
  async function handle(request: NextRequest, method: 'GET' | 'POST'): Promise<Response> {
    assertNodeRuntime()
    const config = await resolve(request)
    const basePath = config.basePath
    const pathname = request.nextUrl.pathname
    if (!isUnderBasePath(pathname, basePath)) return plain(404, 'Not found')
    const origin = appOrigin(request.headers, config)
    if (method === 'POST') {
      const action = pathname.slice(basePath.length).replace(/^\/+/, '')
      if (!mayComeFromElsewhere(config, action) && !sameOrigin(request, origin)) {
        logRefusal(createLogger(config), 'csrf', { reason: 'cross-site POST to the auth endpoints' })
        return plain(403, 'Cross-site requests to the auth endpoints are refused')
      }
    }
    return callAuth(atAppOrigin(request, origin), config)
  }
  return { GET: (request) => handle(request, 'GET'), POST: (request) => handle(request, 'POST') }
}
