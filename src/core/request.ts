/**
 * Parses a web `Request` once into what the actions need: action, provider id, cookies, query and (for POST) the
 * body. Malformed input becomes an `InvalidRequest` or `UnknownAction`, never an exception from a parser.
 */
import { InvalidRequest, UnknownAction } from '../errors.js'
import { isUsableHost } from '../security/origin.js'
import { parseCookieHeader } from '../session/cookie-header.js'
import type { AuthAction } from '../types/index.js'

const actions: ReadonlySet<string> = new Set<AuthAction>([
  'backchannel-logout',
  'callback',
  'csrf',
  'error',
  'providers',
  'session',
  'signin',
  'signout',
  'verify-request',
  'webauthn-options',
])
/** Actions that take a provider id as the next path segment. */
const actionsWithProvider: ReadonlySet<string> = new Set([
  'signin',
  'callback',
  'webauthn-options',
  'backchannel-logout',
])

/** Largest request body read; sign-in forms and session updates are small. */
export const maxBodyBytes = 64 * 1024

/** Methods an action can serve; anything else is answered 405 with this list in `Allow`. */
export const allowedMethods = 'GET, HEAD, POST'

/** Whether `Auth()` serves this method at all (before any routing). */
export function isServedMethod(method: string): boolean {
  return method === 'GET' || method === 'POST' || method === 'HEAD'
}

/** A body over `maxBodyBytes`: answered 413, and the rest of the body is never read. */
export class BodyTooLarge extends InvalidRequest {}

/** A method no action serves: answered 405 with `Allow`. */
export class MethodNotAllowed extends InvalidRequest {}

/** A request whose host cannot name this site (user info, a malformed host): answered 400. */
export class UnusableHost extends InvalidRequest {}

/** Whether a string is one of the actions. */
export function isAuthAction(action: string): action is AuthAction {
  return actions.has(action)
}

export interface AuthRequest {
  request: Request
  url: URL
  method: 'GET' | 'POST'
  action: AuthAction
  providerId?: string
  cookies: Map<string, string>
  query: URLSearchParams
  /** Form or JSON body of a POST, as strings and plain values. */
  body?: Record<string, unknown>
}

/** Splits the path under the base path into action and provider id. */
export function routeOf(pathname: string, basePath: string): { action: AuthAction; providerId?: string } {
  // Auth.js's text first, so a search for it finds these lines; the path is the client's, so it is cut short.
  const cannotParse = (reason: string) =>
    new UnknownAction(`Cannot parse action at ${pathname.slice(0, 120)}: ${reason}`)
  if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
    throw cannotParse(`the path is not under the base path ${basePath}`)
  }
  const rest = pathname.slice(basePath.length).replace(/^\/+/, '').replace(/\/+$/, '')
  const segments = rest === '' ? [] : rest.split('/')
  const [action, providerId, ...extra] = segments
  if (!action || !isAuthAction(action)) throw cannotParse('unknown action')
  if (providerId !== undefined && !actionsWithProvider.has(action))
    throw cannotParse(`action "${action}" takes no provider id`)
  if (extra.length > 0) throw cannotParse('too many path segments')
  let decoded: string | undefined
  if (providerId !== undefined) {
    try {
      decoded = decodeURIComponent(providerId)
    } catch {
      throw cannotParse('the provider id is not valid URL encoding')
    }
  }
  return { action, providerId: decoded }
}

/**
 * The body as text, reading at most `maxBodyBytes`: a streamed body (no Content-Length) that runs past the cap is
 * cancelled there, so a client cannot make the server buffer megabytes.
 */
async function readCappedText(body: ReadableStream<Uint8Array>, declared: string | null): Promise<string> {
  if (declared !== null && Number(declared) > maxBodyBytes) {
    await body.cancel().catch(() => {})
    throw new BodyTooLarge('request body is too large', { declared: declared.slice(0, 20), limit: maxBodyBytes })
  }
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBodyBytes) {
        await reader.cancel().catch(() => {})
        throw new BodyTooLarge('request body is too large', { limit: maxBodyBytes })
      }
      chunks.push(value)
    }
  } catch (err) {
    if (err instanceof BodyTooLarge) throw err
    throw new InvalidRequest('request body could not be read', { err: err instanceof Error ? err : undefined })
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  if (!request.body) return undefined
  const text = await readCappedText(request.body, request.headers.get('content-length'))
  if (text === '') return undefined
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  if (type.includes('application/json')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new InvalidRequest('request body is not valid JSON')
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new InvalidRequest('request body must be a JSON object')
    return parsed as Record<string, unknown>
  }
  // Forms, and bodies without a type, are read as URL-encoded; URLSearchParams never throws on junk.
  return Object.fromEntries(new URLSearchParams(text))
}

/**
 * Parses a request under `basePath`.
 * @throws UnknownAction for a path no action serves; MethodNotAllowed, BodyTooLarge, UnusableHost, or InvalidRequest
 *   for an unreadable body or URL.
 */
export async function parseRequest(
  request: Request,
  basePath: string,
  options: { hostDecidesOrigin: boolean },
): Promise<AuthRequest> {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    throw new InvalidRequest('request URL is not valid')
  }
  // Only a request whose host will become this site's origin needs one that is fit for it.
  if (options.hostDecidesOrigin && (url.username || url.password || !isUsableHost(url.host))) {
    throw new UnusableHost('the request host cannot be used as the origin', { host: url.host.slice(0, 80) })
  }
  const method = request.method.toUpperCase()
  if (!isServedMethod(method)) throw new MethodNotAllowed(`method ${method.slice(0, 10)} is not served`)
  const { action, providerId } = routeOf(url.pathname, basePath)
  return {
    request,
    url,
    method: method === 'POST' ? 'POST' : 'GET',
    action,
    providerId,
    cookies: parseCookieHeader(request.headers.get('cookie')),
    query: url.searchParams,
    body: method === 'POST' ? await readBody(request) : undefined,
  }
}
