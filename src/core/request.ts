/**
 * Parses a web `Request` once into what the actions need: action, provider id, cookies, query and (for POST) the
 * body. Malformed input becomes an `InvalidRequest` or `UnknownAction`, never an exception from a parser.
 */
import { InvalidRequest, UnknownAction } from '../errors.js'
import { parseCookieHeader } from '../session/cookie-header.js'
import type { AuthAction } from '../types.js'

const actions: ReadonlySet<string> = new Set<AuthAction>([
  'callback', 'csrf', 'error', 'providers', 'session', 'signin', 'signout', 'verify-request', 'webauthn-options',
])
/** Actions that take a provider id as the next path segment. */
const actionsWithProvider: ReadonlySet<string> = new Set(['signin', 'callback', 'webauthn-options'])

/** Largest request body read; sign-in forms and session updates are small. */
const maxBodyBytes = 64 * 1024

/** Whether a string is one of the nine actions. */
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
  if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
    throw new UnknownAction(`path is not under the base path ${basePath}`)
  }
  const rest = pathname.slice(basePath.length).replace(/^\/+/, '').replace(/\/+$/, '')
  const segments = rest === '' ? [] : rest.split('/')
  const [action, providerId, ...extra] = segments
  if (!action || !isAuthAction(action)) throw new UnknownAction(`unknown action "${(action ?? '').slice(0, 40)}"`)
  if (providerId !== undefined && !actionsWithProvider.has(action)) throw new UnknownAction(`action "${action}" takes no provider id`)
  if (extra.length > 0) throw new UnknownAction('too many path segments')
  let decoded: string | undefined
  if (providerId !== undefined) {
    try {
      decoded = decodeURIComponent(providerId)
    } catch {
      throw new UnknownAction('provider id is not valid URL encoding')
    }
  }
  return { action, providerId: decoded }
}

async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  if (!request.body) return undefined
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > maxBodyBytes) throw new InvalidRequest('request body is too large')
  let text: string
  try {
    text = await request.text()
  } catch (err) {
    throw new InvalidRequest('request body could not be read', { err: err instanceof Error ? err : undefined })
  }
  if (text.length > maxBodyBytes) throw new InvalidRequest('request body is too large')
  if (text === '') return undefined
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  if (type.includes('application/json')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new InvalidRequest('request body is not valid JSON')
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidRequest('request body must be a JSON object')
    return parsed as Record<string, unknown>
  }
  // Forms, and bodies without a type, are read as URL-encoded; URLSearchParams never throws on junk.
  return Object.fromEntries(new URLSearchParams(text))
}

/**
 * Parses a request under `basePath`.
 * @throws UnknownAction for a path or method no action serves; InvalidRequest for an unreadable body or URL.
 */
export async function parseRequest(request: Request, basePath: string): Promise<AuthRequest> {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    throw new InvalidRequest('request URL is not valid')
  }
  const method = request.method.toUpperCase()
  if (method !== 'GET' && method !== 'POST' && method !== 'HEAD') throw new UnknownAction(`method ${method.slice(0, 10)} is not supported`)
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
