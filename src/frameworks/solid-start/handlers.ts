/**
 * The `GET` and `POST` handlers of the catch-all route: each answers the requests under the prefix with `Auth()`,
 * and returns undefined for any other path (a catch-all mounted higher up may serve other things too). The first
 * request that shows the route mounted somewhere other than the prefix is reported in the log, and every such
 * request is answered with a plain 500 naming both paths: the provider callbacks would otherwise reach no route.
 */
import { InvalidConfig } from '../../errors.js'
import { createLogger } from '../../logger.js'
import { setClientAddress } from '../../core/client-address.js'
import { decodePathSegment } from '../../core/path-segment.js'
import { basePathOf, callAuth, isUnderBasePath } from '../web-handler.js'
import type { SolidAuthConfig } from './config.js'
import { mountMismatchMessage, mountPathOf } from './mount.js'
import { appOrigin, isSameOrigin } from './origin.js'

/** What the handlers read of SolidStart's `APIEvent` (1.x and 2.x): the request and the route's parameters. */
export interface SolidAuthEvent {
  request: Request
  params?: Record<string, string | undefined>
  /** The peer address SolidStart's event carries (its `clientAddress`), for the request limits. */
  clientAddress?: string
}

export type SolidAuthHandler = (event: SolidAuthEvent) => Promise<Response | undefined>

interface ProviderShape {
  id?: unknown
  type?: unknown
}

/** The type of the provider `id` (`oauth`, `oidc`, `credentials`, ...), or undefined when there is none. */
function providerType(config: SolidAuthConfig, id: string): string | undefined {
  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry() : entry) as ProviderShape
    if (provider.id === id && typeof provider.type === 'string') return provider.type
  }
  return undefined
}

/**
 * Whether a POST to `action` may come from another site: only an OAuth / OIDC provider's callback, which providers
 * using `response_mode=form_post` (Apple, for one) post from their own origin. It is checked by state, PKCE and nonce.
 */
function mayComeFromElsewhere(config: SolidAuthConfig, action: string): boolean {
  const [name, id] = action.split('/')
  if (name !== 'callback' || !id) return false
  // An id that cannot be decoded names no provider: the post must come from this origin, and Auth() refuses it.
  const decoded = decodePathSegment(id)
  if (decoded === undefined) return false
  const type = providerType(config, decoded)
  return type === 'oauth' || type === 'oidc'
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}

export function createHandlers(config: SolidAuthConfig): { GET: SolidAuthHandler; POST: SolidAuthHandler } {
  const prefix = basePathOf(config)
  let reported = false

  function mismatch(event: SolidAuthEvent, pathname: string): Response | undefined {
    const mounted = mountPathOf(pathname, event.params)
    if (mounted === undefined || mounted === prefix) return undefined
    const message = mountMismatchMessage(mounted, prefix)
    if (!reported) {
      reported = true
      createLogger(config).error(new InvalidConfig(message))
    }
    return plain(500, message)
  }

  async function handle(event: SolidAuthEvent, method: 'GET' | 'POST'): Promise<Response | undefined> {
    const request = event.request
    let pathname: string
    try {
      pathname = new URL(request.url).pathname
    } catch {
      return plain(400, 'Bad request')
    }
    const misplaced = mismatch(event, pathname)
    if (misplaced) return misplaced
    if (!isUnderBasePath(pathname, prefix)) return undefined
    if (method === 'POST') {
      const action = pathname.slice(prefix.length).replace(/^\/+/, '')
      if (!mayComeFromElsewhere(config, action) && !isSameOrigin(request, appOrigin(request, config))) {
        return plain(403, 'Cross-site requests to the auth endpoints are refused')
      }
    }
    setClientAddress(request, event.clientAddress)
    return callAuth(request, config)
  }

  return { GET: (event) => handle(event, 'GET'), POST: (event) => handle(event, 'POST') }
}
