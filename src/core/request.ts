/**
 * Parses a web `Request` once into what the actions need: action, provider id, cookies, query and (for POST) the
 * body. Malformed input becomes an `InvalidRequest` or `UnknownAction`, never an exception from a parser.
 */
import { InvalidRequest, UnknownAction } from '../errors.js'
import { fromClientInput } from '../logger.js'
import { isUsableHost } from '../security/origin.js'
import { parseCookieHeader } from '../session/cookie-header.js'
import type { AuthAction } from '../types/index.js'
import { clientAddressOf } from './client-address.js'
import { decodePathSegment } from './path-segment.js'

const actions: ReadonlySet<string> = new Set<AuthAction>([
  'backchannel-logout',
  'callback',
  'csrf',
  'error',
  'providers',
  'session',
  'sessions',
  'factors',
  'second-factor',
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

/** How long a request body may take to arrive when the config sets no `bodyTimeout`. */
export const defaultBodyTimeoutMs = 10_000

/**
 * A body that did not arrive within the deadline: answered 408, and the rest of it is never read. Without a
 * deadline of its own the library would hold a slow client's request for as long as the server allows (Node's
 * `requestTimeout` is 300 s), and a few hundred slow clients hold that many requests open.
 */
export class BodyTimeout extends InvalidRequest {}

/** `read` raced against a deadline: past it, `abandon()` stops the reading and the promise rejects with BodyTimeout. */
export async function withinBodyDeadline<T>(read: Promise<T>, timeoutMs: number, abandon: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon()
      reject(new BodyTimeout('request body did not arrive in time', { limit: timeoutMs }))
    }, timeoutMs)
  })
  try {
    return await Promise.race([read, deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** A method no action serves: answered 405 with `Allow`. */
export class MethodNotAllowed extends InvalidRequest {}

/** A request whose host cannot name this site (user info, a malformed host): answered 400. */
export class UnusableHost extends InvalidRequest {}

/** Whether a string is one of the actions. */
export function isAuthAction(action: string): action is AuthAction {
  return actions.has(action)
}

/**
 * A request as `Auth()` reads it, whichever server produced it: a web `Request` (`fromWebRequest`) or Node's
 * request object (the Node and Express bindings), read lazily. Only the session check's hot path matters here: it
 * reads the method, the URL and the `Cookie` header, and never needs a web `Request`.
 */
export interface IncomingRequest {
  readonly method: string
  /** The absolute URL. */
  readonly url: string
  /** A header by its lower-case name; repeated headers joined as the server joins them. */
  header(name: string): string | null
  /**
   * The body as text, at most `maxBodyBytes` (undefined when there is none), within `timeoutMs`.
   * @throws BodyTooLarge past the cap; BodyTimeout past the deadline; InvalidRequest when it cannot be read
   */
  readBody(timeoutMs?: number): Promise<string | undefined>
  /** The web `Request` the app's callbacks receive (`authorize(credentials, request)` ...), built on first use. */
  toRequest(): Request
  /** The address of the socket's peer, when the host knows it (never read from a header). */
  readonly peerAddress?: string
}

export interface AuthRequest {
  /** The web `Request`, for the app's callbacks; a binding that starts from Node's request builds it on first use. */
  readonly request: Request
  readonly url: URL
  readonly method: 'GET' | 'POST'
  readonly action: AuthAction
  readonly providerId?: string
  readonly cookies: Map<string, string>
  readonly query: URLSearchParams
  /** Form or JSON body of a POST, as strings and plain values. */
  readonly body?: Record<string, unknown>
  /** The address of the socket's peer, when the host knows it (never read from a header). */
  readonly peerAddress?: string
  /** A request header by its lower-case name. */
  header(name: string): string | null
}

/** Auth.js's text first, so a search for it finds these lines; the path is the client's, so it is cut short. */
function cannotParse(pathname: string, reason: string): UnknownAction {
  return new UnknownAction(`Cannot parse action at ${pathname.slice(0, 120)}: ${reason}`)
}

/** Splits the path under the base path into action and provider id. */
export function routeOf(pathname: string, basePath: string): { action: AuthAction; providerId?: string } {
  if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
    throw cannotParse(pathname, `the path is not under the base path ${basePath}`)
  }
  // Leading and trailing slashes are trimmed by hand, and the segments cut without an array: this runs on every
  // request.
  let start = basePath.length
  let end = pathname.length
  while (start < end && pathname.charCodeAt(start) === 47) start++
  while (end > start && pathname.charCodeAt(end - 1) === 47) end--
  const slash = pathname.indexOf('/', start)
  const action = pathname.slice(start, slash === -1 || slash > end ? end : slash)
  if (!action || !isAuthAction(action)) throw cannotParse(pathname, 'unknown action')
  if (slash === -1 || slash >= end) return { action }
  const providerId = pathname.slice(slash + 1, end)
  if (!actionsWithProvider.has(action)) throw cannotParse(pathname, `action "${action}" takes no provider id`)
  if (providerId.includes('/')) throw cannotParse(pathname, 'too many path segments')
  const decoded = decodePathSegment(providerId)
  if (decoded === undefined) throw cannotParse(pathname, 'the provider id is not valid URL encoding')
  return { action, providerId: decoded }
}

/**
 * The body as text, reading at most `maxBodyBytes` within `timeoutMs`: a streamed body (no Content-Length) that runs
 * past the cap, or past the deadline, is cancelled there, so a client can make the server neither buffer megabytes
 * nor wait for minutes.
 */
export async function readCappedText(
  body: ReadableStream<Uint8Array>,
  declared: string | null,
  timeoutMs = defaultBodyTimeoutMs,
): Promise<string> {
  if (declared !== null && Number(declared) > maxBodyBytes) {
    await body.cancel().catch(() => {})
    throw new BodyTooLarge('request body is too large', { declared: declared.slice(0, 20), limit: maxBodyBytes })
  }
  const reader = body.getReader()
  return withinBodyDeadline(readAll(reader), timeoutMs, () => void reader.cancel().catch(() => {}))
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
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

/** The parsed body: JSON objects as given, forms (and bodies without a type) as URL-encoded strings. */
function parseBody(text: string | undefined, contentType: string | null): Record<string, unknown> | undefined {
  if (text === undefined || text === '') return undefined
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('application/json')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw fromClientInput(new InvalidRequest('request body is not valid JSON'))
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw fromClientInput(new InvalidRequest('request body must be a JSON object'))
    return parsed as Record<string, unknown>
  }
  // Forms, and bodies without a type, are read as URL-encoded; URLSearchParams never throws on junk.
  return Object.fromEntries(new URLSearchParams(text))
}

/** A web `Request` as an `IncomingRequest`. */
class WebIncoming implements IncomingRequest {
  constructor(private readonly request: Request) {}

  get method(): string {
    return this.request.method
  }

  get url(): string {
    return this.request.url
  }

  header(name: string): string | null {
    return this.request.headers.get(name)
  }

  readBody(timeoutMs?: number): Promise<string | undefined> {
    const { body } = this.request
    return body
      ? readCappedText(body, this.request.headers.get('content-length'), timeoutMs)
      : Promise.resolve(undefined)
  }

  toRequest(): Request {
    return this.request
  }

  get peerAddress(): string | undefined {
    return clientAddressOf(this.request)
  }
}

/** Reads a web `Request` as `Auth()` does. */
export function fromWebRequest(request: Request): IncomingRequest {
  return new WebIncoming(request)
}

function isIncoming(value: Request | IncomingRequest): value is IncomingRequest {
  return typeof (value as Partial<IncomingRequest>).readBody === 'function'
}

/** The parsed request; the query and the web `Request` are made only when an action asks for them. */
class ParsedRequest implements AuthRequest {
  #request: Request | undefined

  constructor(
    private readonly incoming: IncomingRequest,
    readonly url: URL,
    readonly method: 'GET' | 'POST',
    readonly action: AuthAction,
    readonly providerId: string | undefined,
    readonly cookies: Map<string, string>,
    readonly body: Record<string, unknown> | undefined,
  ) {}

  get request(): Request {
    return (this.#request ??= this.incoming.toRequest())
  }

  get query(): URLSearchParams {
    return this.url.searchParams
  }

  get peerAddress(): string | undefined {
    return this.incoming.peerAddress
  }

  header(name: string): string | null {
    return this.incoming.header(name)
  }
}

/**
 * Parses a request under `basePath`. A request without a body is parsed without a promise; a POST waits for its body.
 * @throws UnknownAction for a path no action serves; MethodNotAllowed, BodyTooLarge, UnusableHost, or InvalidRequest
 *   for an unreadable body or URL (synchronously, or as the rejection of the promise for a POST's body).
 */
export function parseRequest(
  input: Request | IncomingRequest,
  basePath: string,
  options: { hostDecidesOrigin: boolean; bodyTimeoutMs?: number },
): AuthRequest | Promise<AuthRequest> {
  const incoming = isIncoming(input) ? input : fromWebRequest(input)
  let url: URL
  try {
    url = new URL(incoming.url)
  } catch {
    throw new InvalidRequest('request URL is not valid')
  }
  // Only a request whose host will become this site's origin needs one that is fit for it.
  if (options.hostDecidesOrigin && (url.username || url.password || !isUsableHost(url.host))) {
    throw new UnusableHost('the request host cannot be used as the origin', { host: url.host.slice(0, 80) })
  }
  const method = incoming.method.toUpperCase()
  if (!isServedMethod(method)) throw new MethodNotAllowed(`method ${method.slice(0, 10)} is not served`)
  const { action, providerId } = routeOf(url.pathname, basePath)
  const cookies = parseCookieHeader(incoming.header('cookie'))
  if (method !== 'POST') return new ParsedRequest(incoming, url, 'GET', action, providerId, cookies, undefined)
  return incoming
    .readBody(options.bodyTimeoutMs)
    .then(
      (text) =>
        new ParsedRequest(
          incoming,
          url,
          'POST',
          action,
          providerId,
          cookies,
          parseBody(text, incoming.header('content-type')),
        ),
    )
}
