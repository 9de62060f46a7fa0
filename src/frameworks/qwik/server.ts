/**
 * The server half of the Qwik binding: everything that calls `Auth()`. The Qwik half (`index.qwik.mts`) loads this
 * module only inside its request hook, loader and actions, so a browser bundle that imports `useSession` never
 * evaluates Authchart's core. It works on the few members of Qwik City's request event it names below.
 */
import { setEnvDefaults } from '../../index.js'
import { InvalidConfig } from '../../errors.js'
import { setClientAddress } from '../../core/client-address.js'
import { decodePathSegment } from '../../core/path-segment.js'
import { hasConfigShape } from '../shared/config-shape.js'
import type { AuthConfig, Session } from '../../types/index.js'
import { basePathOf, callAuth, isUnderBasePath } from '../web-handler.js'
import { isSameOrigin } from '../../security/same-origin.js'
import { mergeCookieHeader, parseSetCookie, type CookieOptions } from '../shared/set-cookie.js'
import { readSession, setReadingCookies } from '../shared/session-reader.js'
import type { SignInRequest, SignOutRequest } from './input.js'
import { stepUp, type RequireRecentAuthOptions, type StepUpOutcome } from '../shared/step-up.js'
import { sessionKey } from './session-key.js'

/** The binding's configuration: Auth's, without `raw` (the binding needs real responses). */
export type QwikAuthConfig = Omit<AuthConfig, 'raw'>

/** The members of Qwik City's request event the binding uses. */
export interface AuthRequestEvent {
  readonly request: Request
  readonly url: URL
  readonly sharedMap: Map<string, unknown>
  readonly cookie: { set(name: string, value: string, options?: CookieOptions): void }
  /** The client connection as Qwik City's adapter knows it: `ip` is the socket's peer (the node adapters). */
  readonly clientConn?: { readonly ip?: string }
}

/**
 * The client's address for the request limits: Qwik City's `clientConn.ip`, which its adapters take from the socket
 * (node) or the platform (`getClientConn` of the adapter's options); undefined when the adapter cannot tell.
 */
function clientIpOf(event: AuthRequestEvent): string | undefined {
  try {
    return event.clientConn?.ip
  } catch {
    // Some adapters (static generation) throw when asked: no peer then, and only per-account limits apply.
    return undefined
  }
}

/** `request`, with the client's address the limits key it by: what the binding hands `Auth()`. */
function withClient(request: Request, event: AuthRequestEvent): Request {
  setClientAddress(request, clientIpOf(event))
  return request
}

const prepared = new WeakSet<object>()

function isConfig(value: unknown): value is QwikAuthConfig {
  return hasConfigShape(value)
}

/** Refuses what cannot be a configuration; applies the environment defaults once per configuration object. */
export function prepare(value: unknown): QwikAuthConfig {
  if (!isConfig(value)) throw new InvalidConfig('the QwikAuth$ function returned no configuration object')
  if ('raw' in value) throw new InvalidConfig('QwikAuth$ needs real responses: remove `raw` from the configuration')
  if (!prepared.has(value)) {
    // Qwik City's node adapters read `event.env` from process.env; the defaults read the same variables.
    setEnvDefaults(typeof process === 'undefined' ? {} : process.env, value, true)
    prepared.add(value)
  }
  return value
}

interface ProviderShape {
  id?: unknown
  type?: unknown
}

/** The configured providers' ids and types. */
export function providersOf(config: QwikAuthConfig): Array<{ id: string; type: string }> {
  const list: Array<{ id: string; type: string }> = []
  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry() : entry) as ProviderShape
    if (typeof provider.id === 'string' && typeof provider.type === 'string')
      list.push({ id: provider.id, type: provider.type })
  }
  return list
}

/** Sets every cookie of `response` on the page's response, with the attributes the core chose. */
export function forwardCookies(response: Response, event: AuthRequestEvent): void {
  for (const line of response.headers.getSetCookie()) {
    const cookie = parseSetCookie(line)
    if (cookie) event.cookie.set(cookie.name, cookie.value, cookie.options)
  }
}

/** `response` without its Set-Cookie lines (they went through `event.cookie`, which Qwik City writes itself). */
function withoutCookies(response: Response): Response {
  const headers = new Headers()
  response.headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') headers.append(name, value)
  })
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Whether a state-changing request to `path` (below the base path) must come from this origin. All must, except an
 * OAuth / OIDC provider's callback: with `response_mode=form_post` the provider itself posts it from its own site,
 * and the callback is bound to the browser by the state / PKCE / nonce checks instead.
 */
function needsSameOrigin(config: QwikAuthConfig, method: string, path: string): boolean {
  if (!stateChanging.has(method)) return false
  const callback = /^\/callback\/([^/]+)$/.exec(path)
  if (!callback) return true
  // An id that cannot be decoded names no provider: the post must come from this origin, and Auth() refuses it.
  const id = decodePathSegment(callback[1] ?? '')
  if (id === undefined) return true
  const type = providersOf(config).find((provider) => provider.id === id)?.type
  return type !== 'oauth' && type !== 'oidc'
}

/**
 * The request hook's part for `basePath`: a Response for requests under it, undefined for the app's own routes.
 * A cross-site state-changing request is answered 403 before `Auth()` sees it; `Auth()` then applies its own
 * double-submit CSRF check, so neither defence depends on the other (nor on Qwik City's `checkOrigin`).
 */
export async function answerAuthRequest(
  event: AuthRequestEvent,
  config: QwikAuthConfig,
): Promise<Response | undefined> {
  const basePath = basePathOf(config)
  if (!isUnderBasePath(event.url.pathname, basePath)) return undefined
  const method = event.request.method.toUpperCase()
  if (
    needsSameOrigin(config, method, event.url.pathname.slice(basePath.length)) &&
    !isSameOrigin(event.request, event.url.origin)
  ) {
    return new Response('Cross-site request refused', {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    })
  }
  const response = await callAuth(withClient(event.request, event), config)
  forwardCookies(response, event)
  return withoutCookies(response)
}

const sessions = new WeakMap<Map<string, unknown>, Promise<Session | null>>()

async function fetchSession(event: AuthRequestEvent, config: QwikAuthConfig): Promise<Session | null> {
  const reading = await readSession(
    { origin: event.url.origin, header: (name) => event.request.headers.get(name), peerAddress: clientIpOf(event) },
    config,
  )
  // A refreshed session cookie (rolling expiry, database `updateAge`) reaches the browser with the page.
  setReadingCookies(reading, event.cookie)
  return reading.session
}

/** The session of the request's user, or null; computed at most once per request and left in `sharedMap`. */
export function sessionOf(event: AuthRequestEvent, config: QwikAuthConfig): Promise<Session | null> {
  let pending = sessions.get(event.sharedMap)
  if (!pending) {
    pending = fetchSession(event, config).then((session) => {
      event.sharedMap.set(sessionKey, session)
      return session
    })
    sessions.set(event.sharedMap, pending)
  }
  return pending
}

/** What posting to `Auth()` came to: where to send the browser, or why not. */
export type AuthOutcome = { url: string } | { error: string; status: number }

/** A CSRF token for this request from `Auth()`, and the cookie header that goes with it. */
async function csrfFor(
  event: AuthRequestEvent,
  config: QwikAuthConfig,
): Promise<{ token: string; cookie: string } | undefined> {
  const cookie = event.request.headers.get('cookie')
  const response = await callAuth(
    new Request(`${event.url.origin}${basePathOf(config)}/csrf`, { headers: cookie ? { cookie } : {} }),
    config,
  )
  const body: unknown = response.ok ? await response.json().catch(() => null) : null
  const token = typeof body === 'object' && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== 'string') return undefined
  forwardCookies(response, event)
  return { token, cookie: mergeCookieHeader(cookie, response) }
}

/**
 * Posts `fields` to `Auth()` at `path`, as the browser's own form would. The action has already checked that the
 * browser's request comes from this origin (its CSRF check), so it takes a token from `Auth()` for this request.
 */
async function postToAuth(
  event: AuthRequestEvent,
  config: QwikAuthConfig,
  path: string,
  fields: URLSearchParams,
): Promise<AuthOutcome> {
  const csrf = await csrfFor(event, config)
  if (!csrf) return { error: 'Sign-in is unavailable right now', status: 503 }
  fields.set('csrfToken', csrf.token)
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    'x-auth-return-redirect': '1',
    origin: event.url.origin,
  })
  if (csrf.cookie) headers.set('cookie', csrf.cookie)
  // The post is the browser's own, made on its behalf: the limits count it against the browser's address.
  const response = await callAuth(
    withClient(new Request(`${event.url.origin}${path}`, { method: 'POST', headers, body: fields }), event),
    config,
  )
  forwardCookies(response, event)
  const body: unknown = await response.json().catch(() => null)
  const url = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined
  if (typeof url !== 'string')
    return { error: 'Sign-in could not be completed', status: response.status >= 500 ? 503 : 400 }
  return { url }
}

/** The sign-in action's work once its input is valid: where the browser goes next. */
export function signIn(event: AuthRequestEvent, config: QwikAuthConfig, input: SignInRequest): Promise<AuthOutcome> {
  const type = providersOf(config).find((provider) => provider.id === input.providerId)?.type
  const fields = new URLSearchParams(input.fields)
  fields.set('callbackUrl', input.redirectTo ?? event.url.pathname)
  const endpoint = type === 'credentials' ? 'callback' : 'signin'
  const search = input.authorizationParams.size > 0 ? `?${input.authorizationParams}` : ''
  return postToAuth(
    event,
    config,
    `${basePathOf(config)}/${endpoint}/${encodeURIComponent(input.providerId)}${search}`,
    fields,
  )
}

/** The sign-out action's work: ends the session; the browser lands on `redirectTo` (default `/`). */
export function signOut(event: AuthRequestEvent, config: QwikAuthConfig, input: SignOutRequest): Promise<AuthOutcome> {
  return postToAuth(
    event,
    config,
    `${basePathOf(config)}/signout`,
    new URLSearchParams({ callbackUrl: input.redirectTo ?? '/' }),
  )
}

/** The action's own CSRF check: the post must come from a page of this origin. */
export function isOwnOriginPost(event: AuthRequestEvent): boolean {
  return isSameOrigin(event.request, event.url.origin)
}

/**
 * The step-up of the event's request (docs/step-up.md): where to send the browser (the sign-in page, back to this
 * URL) or the recent sign-in that may pass. The decision is src/core/step-up.ts's, as for every binding.
 */
export function stepUpOf(
  event: AuthRequestEvent,
  config: QwikAuthConfig,
  options: RequireRecentAuthOptions,
): Promise<StepUpOutcome> {
  return stepUp(event.request, config, options)
}
