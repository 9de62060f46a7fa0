/**
 * The Express binding (Express 5; Express 4 shares every API used here): a middleware that answers the auth
 * endpoints under the path it is mounted at (or `config.basePath`), and `getSession` for the app's own routes. Express itself is never imported at
 * run time, only its types.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { ExpressAuth, getSession } from 'authchart/express'
 * const authConfig = { providers: [GitHub], secret: process.env.AUTH_SECRET }
 * const app = express()
 * app.set('trust proxy', true) // behind a proxy: origin from X-Forwarded-Proto / X-Forwarded-Host
 * app.use(ExpressAuth(authConfig))
 * app.get('/me', async (req, res) => res.json(await getSession(req, authConfig)))
 * app.get('/repos', async (req, res) => {
 *   const { accessToken } = await getAccessToken(req, authConfig, 'github', res) // needs tokenRefresh on GitHub
 *   …
 * })
 * ```
 * @module frameworks/express
 */
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { answerIncoming } from '../core/auth.js'
import { allowedMethods, isServedMethod, UnusableHost } from '../core/request.js'
import { setClientAddress } from '../core/client-address.js'
import { createLogger, logRefusal, type LoggerInstance } from '../logger.js'
import { isUsableHost, originOfUrl } from '../security/origin.js'
import { getAccessToken as getAccessTokenOf } from '../core/access-token.js'
import {
  listSessions as listSessionsOf,
  revokeOtherSessions as revokeOtherSessionsOf,
  revokeSession as revokeSessionOf,
  type ListedSession,
} from '../core/session-management.js'
import {
  getSessionAuthentication as getSessionAuthenticationOf,
  stepUp,
  stepUpRequest as stepUpRequestOf,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
} from './shared/step-up.js'
import { checkRecentAuthOptions } from '../core/step-up.js'
import type { AccessTokenResult, AuthConfig, Session } from '../types/index.js'
import { NodeIncoming, readNodeStream, writeWire } from './shared/node-io.js'
import { scalarText } from '../security/scalar-text.js'
import { mountedBasePaths } from './express-mount.js'
import { prepareConfig } from './web-handler.js'
import { readSession } from './shared/session-reader.js'

/** The request's host, from X-Forwarded-Host only when Express's `trust proxy` setting trusts the peer. */
function hostOf(req: ExpressRequest): string | undefined {
  const trust: unknown = req.app.get('trust proxy fn')
  const forwarded = req.get('x-forwarded-host')
  if (forwarded && typeof trust === 'function') {
    // Express compiles `trust proxy` into this function (address, hop index) => boolean.
    const trusts = trust as (address: string | undefined, hop: number) => boolean
    if (!trusts(req.socket.remoteAddress, 0)) return req.get('host')
    return forwarded.split(',')[0]?.trim()
  }
  return req.get('host')
}

/**
 * The origin for the web `Request`: the configured `url` / `AUTH_URL` when there is one (no header is read then),
 * else `proto://host` as the browser sees it (`req.protocol` already honours `trust proxy` for X-Forwarded-Proto).
 */
function originOf(req: ExpressRequest, config: AuthConfig): string {
  if (config.url) {
    // A malformed configured URL is reported by Auth() as a configuration error; any well-formed origin gets it there.
    return originOfUrl(config.url) ?? 'http://localhost'
  }
  const host = hostOf(req)
  if (host === undefined || !isUsableHost(host))
    throw new UnusableHost('the Host header is missing or malformed', { host: host?.slice(0, 80) })
  return `${req.protocol}://${host}`
}

/** Form fields as the `extended` (qs) parser nests them, flattened back to `a[b]=c` pairs. */
function appendField(form: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) {
    for (const item of value) appendField(form, key, item)
  } else if (typeof value === 'object') {
    for (const [child, nested] of Object.entries(value)) appendField(form, `${key}[${child}]`, nested)
  } else {
    form.append(key, scalarText(value))
  }
}

/** The body a parser already read, encoded again in the request's own content type. */
function reencode(body: unknown, contentType: string): string | Uint8Array | undefined {
  if (Buffer.isBuffer(body)) return body
  if (typeof body === 'string') return body
  if (typeof body !== 'object' || body === null) return undefined
  if (contentType.includes('json')) return JSON.stringify(body)
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(body)) appendField(form, key, value)
  return form.toString()
}

/** The body for the web `Request`: the raw stream when nobody read it, else what a body parser left in `req.body`. */
async function bodyOf(req: ExpressRequest): Promise<string | Uint8Array | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined
  const consumed = req.readableEnded || req.readableDidRead
  if (!consumed) return readNodeStream(req)
  return reencode((req as { body?: unknown }).body, (req.get('content-type') ?? '').toLowerCase())
}

export { AuthError, CredentialsSignin } from '../errors.js'
export { customFetch } from '../types/symbols.js'
export type { AccessTokenResult, Account, DefaultSession, Profile, Session, User } from '../types/index.js'

/** The configuration of `ExpressAuth`: `Auth()`'s, as `@auth/express` names it. */
export type ExpressAuthConfig = Omit<AuthConfig, 'raw'>

/** What `getSession` resolves to, as `@auth/express` names it. */
export type GetSessionResult = Promise<Session | null>

/**
 * The client's address for the request limits: Express's own `req.ip` (which follows the app's `trust proxy`
 * setting) unless the config names `trustedProxies`, which then start from the socket's peer.
 */
function peerOf(req: ExpressRequest, config: AuthConfig): string | undefined {
  return config.trustedProxies === undefined ? req.ip : req.socket?.remoteAddress
}

/** Converts an Express request into a web `Request` for `Auth()` (`config` supplies the configured origin). */
export async function toWebRequest(req: ExpressRequest, config: AuthConfig = {}): Promise<Request> {
  const incoming = new NodeIncoming(req, `${originOf(req, config)}${req.originalUrl}`, bodyOf, peerOf(req, config))
  await incoming.readBody()
  const request = incoming.toRequest()
  setClientAddress(request, incoming.peerAddress)
  return request
}

/** Writes a web `Response` to Express: status, every header, each Set-Cookie on its own line, the body. */
export async function writeWebResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status)
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  // append, not set: cookies that earlier middleware set on this response are kept.
  if (cookies.length > 0) res.append('Set-Cookie', cookies)
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  res.end(body)
}

function refuse(res: ExpressResponse, status: number, error: string, message: string): void {
  res
    .status(status)
    .set({ 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ error, message }))
}

/**
 * The auth middleware. Mounted at a path, it answers under that path, as `@auth/express` does:
 * `app.use('/api/auth', ExpressAuth(config))`, or `app.use('/api/auth/*', ...)` (Express 4) /
 * `app.use('/api/auth/{*splat}', ...)` (Express 5). Added without a path, `app.use(ExpressAuth(config))`, it answers
 * under `config.basePath` (default `/auth`) and passes the other requests on. A configured `basePath` (or the path
 * of `AUTH_URL`) always wins over the mount path (see ./express-mount.ts).
 * Body parsers before it are fine: a body they consumed is encoded again for `Auth()`.
 */
export function ExpressAuth(config: AuthConfig): RequestHandler {
  prepareConfig(config)
  let logger: LoggerInstance | undefined
  const log = () => (logger ??= createLogger(config))
  const servedConfig = mountedBasePaths(config, log)
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    // originalUrl, not url: a mount path (`app.use('/auth', …)`) strips the prefix from `url`.
    const pathname = req.originalUrl.split('?', 1)[0] ?? '/'
    const decision = servedConfig(req, pathname)
    if ('pass' in decision) return next()
    const served = decision.serve
    // Checked before a web Request exists: undici refuses to even build one for TRACE or CONNECT.
    if (!isServedMethod(req.method)) {
      logRefusal(log(), 'method', { reason: `method ${req.method.slice(0, 10)} is not served` })
      res.setHeader('allow', allowedMethods)
      return refuse(res, 405, 'MethodNotAllowed', `Use one of ${allowedMethods}`)
    }
    let incoming: NodeIncoming<ExpressRequest>
    try {
      // The body is read by Auth() when an action needs it (a refused one is answered 413 there, and logged).
      incoming = new NodeIncoming(req, `${originOf(req, served)}${req.originalUrl}`, bodyOf, peerOf(req, served))
    } catch (error) {
      if (error instanceof UnusableHost) {
        logRefusal(log(), 'host', { reason: error.message, host: (error.cause as { host?: string } | undefined)?.host })
        return refuse(res, 400, 'InvalidRequest', 'The request could not be read')
      }
      return next(error)
    }
    try {
      const wire = await answerIncoming(incoming, served)
      // A client that went away mid-body needs no answer.
      if (res.socket === null || res.socket.destroyed) return
      // After a refused body the rest of it is never read, so this connection cannot carry another request.
      writeWire(res, wire, { head: req.method === 'HEAD', close: incoming.bodyRefused })
    } catch (error) {
      if (!res.headersSent) next(error)
    }
  }
}

/**
 * The session of the request's user, or `null` when nobody is signed in: `Auth()`'s session check run in-process
 * with the request's cookies (./shared/session-reader.ts), so every session callback runs as it would for the
 * browser. A session cookie the check re-issues is not written: `getSession` has no response (the browser's next
 * `/session` call rolls it).
 * @throws AdapterError when the database (the adapter) cannot be reached or does not answer within `adapterTimeout`,
 *   FlowStoreUnavailable when a store of Authchart's own (the logout store) cannot be reached: both carry
 *   `cause.status` 503, worth retrying (docs/sessions.md, "When a store is down");
 *   InvalidConfig when the server could not answer for another reason (the log says why); InvalidRequest for a
 *   malformed Host when no `url` / `AUTH_URL` is configured.
 */
export async function getSession(req: ExpressRequest, config: AuthConfig): GetSessionResult {
  prepareConfig(config)
  const reading = await readSession(
    { origin: originOf(req, config), header: (name) => req.get(name) ?? null, peerAddress: peerOf(req, config) },
    config,
  )
  return reading.session
}

/**
 * A provider's access token for the request's signed-in user, renewed first when it is about to expire
 * (docs/token-refresh.md): `getAccessToken()` of the main entry, for an Express request.
 * @param req the app's request (its cookies carry the session)
 * @param config the configuration `ExpressAuth` is given
 * @param providerId an OAuth / OIDC provider with the `tokenRefresh` option
 * @param res when given, the re-issued session cookie (JWT sessions) is appended to it; `setCookie` holds it too
 * @returns `{ accessToken, expiresAt, refreshed, setCookie }`, or `{ error, setCookie }`; never throws, except for a
 *   malformed Host when no `url` / `AUTH_URL` is configured (InvalidRequest)
 */
export async function getAccessToken(
  req: ExpressRequest,
  config: AuthConfig,
  providerId: string,
  res?: ExpressResponse,
): Promise<AccessTokenResult> {
  prepareConfig(config)
  // Only the origin (it decides the cookie names) and the cookies matter; the app's own path plays no part.
  const headers = new Headers()
  const cookie = req.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  const result = await getAccessTokenOf(new Request(`${originOf(req, config)}/`, { headers }), config, providerId)
  if (res && result.setCookie.length > 0) res.append('Set-Cookie', result.setCookie)
  return result
}

export { revokeUserSessions } from '../core/session-management.js'
export type { ListedSession } from '../core/session-management.js'
export type { RequireRecentAuthOptions, SessionAuthentication } from '../core/step-up.js'

/** The web `Request` the session-management calls read: the site's origin and the request's cookies, nothing else. */
function sessionRequest(req: ExpressRequest, config: AuthConfig): Request {
  prepareConfig(config)
  const headers = new Headers()
  const cookie = req.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  return new Request(`${originOf(req, config)}/`, { headers })
}

/**
 * The signed-in user's sessions (session management, docs/sessions.md), the request's own marked `current`; null
 * when nobody is signed in.
 */
export function listSessions(req: ExpressRequest, config: AuthConfig): Promise<ListedSession[] | null> {
  return listSessionsOf(sessionRequest(req, config), config)
}

/** Ends one of the signed-in user's sessions on every instance; false when the user has no session with that id. */
export function revokeSession(req: ExpressRequest, config: AuthConfig, id: string): Promise<boolean> {
  return revokeSessionOf(sessionRequest(req, config), config, id)
}

/** Ends every session of the signed-in user but this one; how many, or null when nobody is signed in. */
export function revokeOtherSessions(req: ExpressRequest, config: AuthConfig): Promise<number | null> {
  return revokeOtherSessionsOf(sessionRequest(req, config), config)
}

/** The web `Request` a step-up reads: the site's origin, the path and query the browser asked for, its cookies. */
function stepUpRequest(req: ExpressRequest, config: AuthConfig): Request {
  prepareConfig(config)
  return stepUpRequestOf(`${originOf(req, config)}${req.originalUrl}`, req.get('cookie'))
}

/**
 * When and how the request's user signed in (`authTime`, epoch seconds, and `amr`), or null when nobody is signed
 * in (docs/step-up.md). The session answer keeps Auth.js's shape; this is where a route reads the sign-in.
 */
export function getSessionAuthentication(
  req: ExpressRequest,
  config: AuthConfig,
): Promise<SessionAuthentication | null> {
  return getSessionAuthenticationOf(stepUpRequest(req, config), config)
}

/**
 * Step-up middleware (docs/step-up.md): a request whose session was signed in more than `maxAge` seconds ago, or
 * without every method of `factors`, is redirected (303) to the sign-in page, which brings it back here once the
 * user has signed in again; a request nobody signed in for is sent to sign in too.
 * @example
 * app.post('/account/delete', requireRecentAuth(authConfig, { maxAge: 300 }), deleteAccount)
 * @throws InvalidConfig at once for a `maxAge` or `factors` that cannot be right
 */
export function requireRecentAuth(config: AuthConfig, options: RequireRecentAuthOptions): RequestHandler {
  const checked = checkRecentAuthOptions(options)
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request
    try {
      request = stepUpRequest(req, config)
    } catch (err) {
      next(err)
      return
    }
    stepUp(request, config, checked).then(({ redirectTo }) => {
      if (redirectTo === undefined) return next()
      res.redirect(303, redirectTo)
    }, next)
  }
}
