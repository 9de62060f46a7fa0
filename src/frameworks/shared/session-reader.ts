/**
 * The one session reader of the server bindings (Express `getSession`, SvelteKit `locals.auth()`, SolidStart
 * `getSession`, Qwik `sessionOf`): it runs `Auth()`'s session check in-process, on the request the framework hands
 * over, and takes the session from the internal answer. No web `Request` is built for it, no `Response`, no JSON text
 * written or parsed.
 *
 * One forwarded-header policy: the origin (which decides the cookie names and their `Secure` flag) is the configured
 * `url` / `AUTH_URL` when there is one, else the origin the framework itself reports for the request (its URL, which
 * follows the framework's own proxy settings: Express's `trust proxy`, SvelteKit's `ORIGIN` / `PROTOCOL_HEADER`).
 * The reader never reads an `X-Forwarded-*` header itself. The client is the peer address the framework knows (the
 * socket, or its adapter's); the core walks `X-Forwarded-For` from it only through the configured `trustedProxies`.
 *
 * One error policy, each error named after the part that failed: the app's database (its adapter) that cannot be
 * reached or does not answer in time is `AdapterError`, a store of Authchart's own (the flow or logout store, Redis)
 * is `FlowStoreUnavailable`; both carry `cause.status` 503 (worth a retry; docs/sessions.md shows how a page catches
 * them). A configuration that fails every request is the very error the start-up check logged; anything else the
 * session check could not answer is `InvalidConfig`, with the log saying why.
 */
import { answerInternal, unavailablePartOf } from '../../core/auth.js'
import { configurationFailure } from '../../core/config-assertion.js'
import type { IncomingRequest } from '../../core/request.js'
import { toWire } from '../../core/response.js'
import { AdapterError, FlowStoreUnavailable, InvalidConfig, InvalidRequest } from '../../errors.js'
import { createLogger, hintOf } from '../../logger.js'
import type { AuthConfig, ResponseInternal, Session } from '../../types/index.js'
import { basePathOf } from '../web-handler.js'
import { parseSetCookie, type CookieSink } from './set-cookie.js'

/** What a binding knows of the request whose session is read. */
export interface SessionSource {
  /** The origin the framework reports for the request (`proto://host`); used only when no `url` is configured. */
  readonly origin: string
  /** A header of the request, by its lower-case name (the `Cookie` header carries the session). */
  header(name: string): string | null
  /** The address of the client as the framework knows it (the socket's peer, or its adapter's): never a header. */
  readonly peerAddress?: string
}

/** The session of the request's user (null when nobody is signed in) and the cookies the check re-issued. */
export interface SessionReading {
  readonly session: Session | null
  /** `Set-Cookie` lines (a rolled session cookie, a cleared broken one) for the page's response. */
  readonly setCookie: readonly string[]
}

/**
 * What the session check failed with, as one error for every binding.
 * @param status the status of the check's answer: 503 is a store or adapter that cannot be reached, 400 a request
 *   that cannot be read (a malformed Host with no `url` configured), anything else a failure of the configuration
 * @param part for a 503, which part could not be reached (`unavailablePartOf`)
 */
export function sessionReadFailure(
  config: AuthConfig,
  status: number,
  body: unknown,
  part?: 'adapter' | 'store',
): Error {
  if (status === 503 && part === 'adapter')
    return new AdapterError('the database could not be reached: the session cannot be read', { status: 503 })
  if (status === 503) return new FlowStoreUnavailable('the session store is unavailable', { status: 503 })
  if (status === 400) return new InvalidRequest('the request could not be read', { status })
  const cause = configurationFailure(config)
  if (cause) {
    // Logged with its stack once already, at start-up; from here on only its sentences help: what is wrong, and the
    // hint the start-up log gave with it (what to do). The app's error page then shows that, not frames inside
    // Authchart.
    const hint = hintOf(cause)
    cause.stack = `${cause.name}: ${cause.message}${hint === undefined ? '' : `. ${hint}`}`
    return cause
  }
  const reason = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).error : undefined
  return new InvalidConfig('the session endpoint did not answer', {
    status,
    error: typeof reason === 'string' ? reason : undefined,
  })
}

/** The session check's request: a GET of `<origin><basePath>/session` that reads the framework's request lazily. */
class SessionRequest implements IncomingRequest {
  readonly method = 'GET'
  #request: Request | undefined

  constructor(
    readonly url: string,
    private readonly source: SessionSource,
  ) {}

  header(name: string): string | null {
    return this.source.header(name)
  }

  readBody(): Promise<string | undefined> {
    return Promise.resolve(undefined)
  }

  /** Only for a callback that asks for the request: the session check's own URL and the request's cookies. */
  toRequest(): Request {
    const cookie = this.source.header('cookie')
    return (this.#request ??= new Request(this.url, { headers: cookie ? { cookie } : {} }))
  }

  get peerAddress(): string | undefined {
    return this.source.peerAddress
  }
}

/**
 * `value` as a JSON round trip would leave it (what Auth.js's bindings hand the app, and what the browser's
 * `/session` gets): `toJSON` honoured (a `Date` becomes its ISO text), `undefined`, functions and symbols dropped from
 * objects and `null` in arrays, non-finite numbers `null`. The session callback may return anything; the app gets
 * the same plain data from every binding and from the endpoint.
 * @throws TypeError for what JSON cannot hold (a BigInt, a cycle), as the endpoint's serialising would
 */
export function asJsonValue(value: unknown, key = '', ancestors: object[] = []): unknown {
  let current: unknown = value
  if (typeof current === 'object' && current !== null) {
    const toJSON: unknown = (current as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') current = (toJSON as (key: string) => unknown).call(current, key)
  }
  switch (typeof current) {
    case 'string':
    case 'boolean':
      return current
    case 'number':
      return Number.isFinite(current) ? current : null
    case 'bigint':
      throw new TypeError('a session cannot hold a BigInt: JSON has no such value')
    case 'object': {
      if (current === null) return null
      if (current instanceof Number || current instanceof String || current instanceof Boolean)
        return asJsonValue(current.valueOf(), key, ancestors)
      if (ancestors.includes(current)) throw new TypeError('a session cannot hold a cycle: JSON has no such value')
      ancestors.push(current)
      let plain: unknown
      if (Array.isArray(current)) {
        plain = current.map((item: unknown, index) => asJsonValue(item, String(index), ancestors) ?? null)
      } else {
        const entries: Record<string, unknown> = {}
        for (const [name, item] of Object.entries(current)) {
          const json = asJsonValue(item, name, ancestors)
          if (json !== undefined) entries[name] = json
        }
        plain = entries
      }
      ancestors.pop()
      return plain
    }
    default:
      return undefined
  }
}

/** The reading of a 200 answer. @throws TypeError when the session holds what JSON cannot, or a cookie cannot be written */
function readingOf(internal: ResponseInternal): SessionReading {
  // Set-Cookie lines as the endpoint would write them (serialising checks every configured name and attribute).
  const setCookie = internal.cookies?.length ? toWire({ cookies: internal.cookies }).cookies : []
  const body = asJsonValue(internal.body)
  const session =
    typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length > 0
      ? (body as Session)
      : null
  return { session, setCookie }
}

/** The failure of a check that threw instead of answering (what `Auth()` would have answered 503 or 500). */
function thrownFailure(config: AuthConfig, error: unknown): Error {
  createLogger(config).error(error instanceof Error ? error : new Error(String(error)))
  if (error instanceof AdapterError) return sessionReadFailure(config, 503, undefined, 'adapter')
  return sessionReadFailure(config, error instanceof FlowStoreUnavailable ? 503 : 500, undefined)
}

/**
 * Reads the session of the request `source` describes, as `Auth()`'s `/session` would answer it, in-process.
 * @param config a configuration the binding prepared (environment defaults applied, base path set)
 * @throws FlowStoreUnavailable, the configuration's own error, InvalidConfig or InvalidRequest (see above)
 */
export async function readSession(source: SessionSource, config: AuthConfig): Promise<SessionReading> {
  const request = new SessionRequest(`${source.origin}${basePathOf(config)}/session`, source)
  let internal: ResponseInternal
  try {
    const pending = answerInternal(request, config)
    internal = pending instanceof Promise ? await pending : pending
  } catch (error) {
    throw thrownFailure(config, error)
  }
  const status = internal.status ?? 200
  // Not logged again here: the core logged why it did not answer 200.
  if (status !== 200) throw sessionReadFailure(config, status, internal.body, unavailablePartOf(internal))
  try {
    return readingOf(internal)
  } catch (error) {
    throw thrownFailure(config, error)
  }
}

/** Sets each `Set-Cookie` line of a reading on a framework's cookie API, with the attributes the core chose. */
export function setReadingCookies(reading: SessionReading, cookies: CookieSink): void {
  for (const line of reading.setCookie) {
    const cookie = parseSetCookie(line)
    if (cookie) cookies.set(cookie.name, cookie.value, cookie.options)
  }
}
