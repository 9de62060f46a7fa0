/**
 * `Auth(request, config)`: Request → parsed request → action → internal response → Response. Every failure ends as
 * the documented error page or JSON; the server log gets the whole error, the client only its type.
 */
import { AdapterError, AuthError, errorPresentation, FlowStoreUnavailable, UnknownAction } from '../errors.js'
import { isDebugEnabled, logRefusal, logUnknownAction } from '../logger.js'
import { builtInPageLocales, choosePageLocale } from '../pages/locale.js'
import { renderErrorPage, renderUnavailablePage } from '../pages/simple-pages.js'
import { raw } from '../types/symbols.js'
import type { AuthAction, AuthConfig, ResponseInternal } from '../types/index.js'
import { callbackAction, signInAction, signInPageForAction } from './actions/provider-actions.js'
import {
  csrfAction,
  errorPageAction,
  providersAction,
  signInPageAction,
  signOutPageAction,
  verifyRequestPageAction,
} from './actions/read-only.js'
import { backchannelLogoutAction } from './actions/backchannel-logout.js'
import { sessionAction, signOutAction } from './actions/session.js'
import { revokeSessionsAction, sessionsPageAction } from './actions/sessions.js'
import { factorsAction, factorsPageAction } from './actions/factors.js'
import { secondFactorAction, secondFactorPageAction } from './actions/second-factor.js'
import { webAuthnOptionsAction } from './actions/webauthn.js'
import { resolveConfig, type ResolvedConfig } from './config.js'
import { assertConfig, reportConfigurationProblem, untrustedHost } from './config-assertion.js'
import { createContext, pageUrl, type RequestContext } from './context.js'
import { pageHeaders, pageLocaleOf } from './page-locale.js'
import { configurationErrorBody, errorRedirect } from './error-response.js'
import {
  allowedMethods,
  BodyTimeout,
  BodyTooLarge,
  fromWebRequest,
  MethodNotAllowed,
  parseRequest,
  routeOf,
  UnusableHost,
  type AuthRequest,
  type IncomingRequest,
} from './request.js'
import { toWire, wireToResponse, type WireResponse } from './response.js'

type Handler = (ctx: RequestContext) => ResponseInternal | Promise<ResponseInternal>

const getRoutes: Partial<Record<AuthAction, Handler>> = {
  providers: providersAction,
  csrf: csrfAction,
  session: sessionAction,
  sessions: sessionsPageAction,
  factors: factorsPageAction,
  'second-factor': secondFactorPageAction,
  signin: signInPageForAction,
  signout: signOutPageAction,
  error: errorPageAction,
  'verify-request': verifyRequestPageAction,
  callback: callbackAction,
  'webauthn-options': webAuthnOptionsAction,
}

const postRoutes: Partial<Record<AuthAction, Handler>> = {
  signin: (ctx) => (ctx.req.providerId ? signInAction(ctx) : signInPageAction(ctx)),
  callback: callbackAction,
  session: sessionAction,
  sessions: revokeSessionsAction,
  factors: factorsAction,
  'second-factor': secondFactorAction,
  signout: signOutAction,
  'backchannel-logout': backchannelLogoutAction,
}

/** Actions whose answer is JSON: their errors are JSON too. Every other action answers with pages and redirects. */
const jsonActions: ReadonlySet<AuthAction> = new Set([
  'providers',
  'csrf',
  'session',
  'webauthn-options',
  'backchannel-logout',
])

function json(status: number, body: Record<string, unknown>): ResponseInternal {
  return { status, body, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }
}

/** Whether the client reads JSON: a JSON action, or a fetch-based client that sent `X-Auth-Return-Redirect`. */
function wantsJson(ctx: RequestContext): boolean {
  return jsonActions.has(ctx.req.action) || Boolean(ctx.req.header('x-auth-return-redirect'))
}

/**
 * Which part an unavailable answer stood for: the app's adapter (its database) or a store of Authchart's own (the
 * flow or logout store). Kept beside the answer, not in it (clients are told only to try again), for the bindings'
 * in-process session reader, which throws an error named after the part (`unavailablePartOf`).
 */
const unavailableParts = new WeakMap<ResponseInternal, 'adapter' | 'store'>()

/** The part an unavailable (503) answer stood for, when it was one. */
export function unavailablePartOf(answer: ResponseInternal): 'adapter' | 'store' | undefined {
  return unavailableParts.get(answer)
}

function unavailable(ctx: RequestContext): ResponseInternal {
  // A client that asked for `{ url }` parses the body as JSON (Auth.js's `signIn()` does): an HTML page would break it.
  if (wantsJson(ctx)) {
    const answer = json(503, {
      error: 'ServiceUnavailable',
      message: 'Sign-in is temporarily unavailable. Try again shortly.',
    })
    return { ...answer, headers: { ...answer.headers, 'retry-after': '5' } }
  }
  const locale = pageLocaleOf(ctx)
  const restartUrl = ctx.req.action === 'callback' ? pageUrl(ctx, 'signIn') : undefined
  const body = renderUnavailablePage({ theme: ctx.config.theme, locale, restartUrl })
  return { status: 503, body, headers: { ...pageHeaders(ctx, locale), 'retry-after': '5' } }
}

/** What the user gets for an error an action did not turn into a response itself. */
function answerError(ctx: RequestContext, error: unknown): ResponseInternal {
  // Adapter failures were logged where they happened (the adapter wrapper); everything else is logged here.
  if (!(error instanceof AdapterError))
    ctx.config.logger.error(error instanceof Error ? error : new AuthError(String(error)))
  // A store that cannot be reached is a passing condition, not a configuration error: say "try again".
  if (error instanceof FlowStoreUnavailable || error instanceof AdapterError) {
    const answer = unavailable(ctx)
    unavailableParts.set(answer, error instanceof AdapterError ? 'adapter' : 'store')
    return answer
  }
  if (jsonActions.has(ctx.req.action)) {
    const shown = errorPresentation(error)
    return shown.value === 'Configuration'
      ? json(shown.status, configurationErrorBody)
      : json(shown.status, { error: (error as AuthError).type })
  }
  return errorRedirect(ctx, error)
}

/** Runs the action for the request; an action that answers at once (the CSRF token, the pages) costs no promise. */
function handle(ctx: RequestContext): ResponseInternal | Promise<ResponseInternal> {
  if (isDebugEnabled(ctx.config.logger))
    ctx.config.logger.debug('request', {
      method: ctx.req.method,
      action: ctx.req.action,
      providerId: ctx.req.providerId,
    })
  const routes = ctx.req.method === 'POST' ? postRoutes : getRoutes
  const handler = routes[ctx.req.action]
  if (!handler) {
    logUnknownAction(
      ctx.config.logger,
      new UnknownAction(`Cannot handle action: ${ctx.req.action} (${ctx.req.method})`),
    )
    return json(400, { error: 'UnknownAction', message: `${ctx.req.method} /${ctx.req.action} is not supported` })
  }
  let answer: ResponseInternal | Promise<ResponseInternal>
  try {
    answer = handler(ctx)
  } catch (error) {
    return answerError(ctx, error)
  }
  return answer instanceof Promise ? answer.catch((error: unknown) => answerError(ctx, error)) : answer
}

/** The `X-Auth-Return-Redirect` header asks for `{ url }` instead of a redirect, for clients that navigate themselves. */
function asReturnedRedirect(internal: ResponseInternal): ResponseInternal {
  return {
    status: 200,
    body: { url: internal.redirect },
    headers: { ...Object.fromEntries(new Headers(internal.headers)), 'content-type': 'application/json' },
    cookies: internal.cookies,
  }
}

/**
 * The answer when the config itself is broken: the problem goes to the log (once per config object: it fails every
 * request alike); the client gets the error page for page actions and the generic JSON message for the others.
 */
function configurationFailure(request: IncomingRequest, config: AuthConfig, error: unknown): ResponseInternal {
  reportConfigurationProblem(config, error)
  let action: AuthAction | undefined
  let url: URL | undefined
  try {
    url = new URL(request.url)
    action = routeOf(
      url.pathname,
      typeof config?.basePath === 'string' ? config.basePath.replace(/\/+$/, '') : '/auth',
    ).action
  } catch {
    action = undefined
  }
  if (!url || !action || jsonActions.has(action)) return json(500, configurationErrorBody)
  // Relative links: this page must not echo an origin taken from a request nobody vouched for.
  // The configuration's own locales may be what is broken: this page speaks the built-in languages only.
  const locale = choosePageLocale(builtInPageLocales, request.header('accept-language'))
  const body = renderErrorPage({ error: 'Configuration', homeUrl: '/', signInUrl: '/', locale })
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-language': locale.lang,
    vary: 'Accept-Language',
  }
  return { status: 500, body, headers }
}

/** The answer to a request refused before any action ran (method, body size, host), logged as a refusal. */
function requestRefusal(config: ResolvedConfig, error: unknown): ResponseInternal | undefined {
  if (error instanceof MethodNotAllowed) {
    logRefusal(config.logger, 'method', { reason: error.message })
    const answer = json(405, { error: 'MethodNotAllowed', message: `Use one of ${allowedMethods}` })
    return { ...answer, headers: { ...answer.headers, allow: allowedMethods } }
  }
  if (error instanceof BodyTooLarge) {
    logRefusal(config.logger, 'body-size', { reason: error.message })
    return json(413, { error: 'InvalidRequest', message: 'The request body is too large' })
  }
  if (error instanceof BodyTimeout) {
    logRefusal(config.logger, 'body-timeout', { reason: error.message })
    return json(408, { error: 'InvalidRequest', message: 'The request body did not arrive in time' })
  }
  if (error instanceof UnusableHost) {
    logRefusal(config.logger, 'host', {
      reason: error.message,
      host: (error.cause as { host?: string } | undefined)?.host,
    })
    return json(400, { error: 'InvalidRequest', message: 'The request could not be read' })
  }
  return undefined
}

/** The answer to a request that could not be parsed (refused, or unreadable). */
function unparsedAnswer(resolved: ResolvedConfig, error: unknown): ResponseInternal {
  const refused = requestRefusal(resolved, error)
  if (refused) return refused
  if (error instanceof UnknownAction) logUnknownAction(resolved.logger, error)
  else resolved.logger.error(error instanceof Error ? error : new AuthError(String(error)))
  const type = error instanceof AuthError ? error.type : 'InvalidRequest'
  return json(400, {
    error: type,
    message: type === 'UnknownAction' ? 'Unsupported action or path' : 'The request could not be read',
  })
}

function answerParsed(
  request: IncomingRequest,
  resolved: ResolvedConfig,
  req: AuthRequest,
): ResponseInternal | Promise<ResponseInternal> {
  let ctx: RequestContext
  try {
    ctx = createContext(resolved, req, Date.now())
  } catch (error) {
    return unparsedAnswer(resolved, error)
  }
  const internal = handle(ctx)
  return internal instanceof Promise
    ? internal.then((answer) => returnedRedirectIfAsked(request, answer))
    : returnedRedirectIfAsked(request, internal)
}

function returnedRedirectIfAsked(request: IncomingRequest, internal: ResponseInternal): ResponseInternal {
  if (internal.redirect && request.header('x-auth-return-redirect')) return asReturnedRedirect(internal)
  return internal
}

/**
 * The internal response to a request. Without a promise when nothing in it waits (a GET whose action answers at
 * once): each promise on the way costs every such request a turn of the microtask queue.
 */
function run(request: IncomingRequest, config: AuthConfig): ResponseInternal | Promise<ResponseInternal> {
  // The first request for a config object checks all of it (a binding did so when it was made).
  assertConfig(config, request.url)
  let resolved: ResolvedConfig
  try {
    resolved = resolveConfig(config)
  } catch (error) {
    return configurationFailure(request, config, error)
  }
  if (!resolved.trustHost) return configurationFailure(request, config, untrustedHost(request.url))
  let parsed: AuthRequest | Promise<AuthRequest>
  try {
    parsed = parseRequest(request, resolved.basePath, {
      hostDecidesOrigin: resolved.origin === undefined,
      bodyTimeoutMs: resolved.bodyTimeout,
    })
  } catch (error) {
    return unparsedAnswer(resolved, error)
  }
  if (parsed instanceof Promise) return answerWhenParsed(request, resolved, parsed)
  return answerParsed(request, resolved, parsed)
}

/**
 * A POST, once its body is read. Awaited rather than chained with `then`: a `then` callback that returns the action's
 * promise makes the outer promise adopt it, two more turns of the microtask queue.
 */
async function answerWhenParsed(
  request: IncomingRequest,
  resolved: ResolvedConfig,
  parsed: Promise<AuthRequest>,
): Promise<ResponseInternal> {
  let req: AuthRequest
  try {
    req = await parsed
  } catch (error) {
    return unparsedAnswer(resolved, error)
  }
  const internal = answerParsed(request, resolved, req)
  // Waited for here, and its value returned: returning the promise itself would be adopted (the two turns above).
  const answer = internal instanceof Promise ? await internal : internal
  return answer
}

/** The wire form of an internal response; a serialising failure is a configuration error like any other. */
function wireOf(request: IncomingRequest, config: AuthConfig, internal: ResponseInternal): WireResponse {
  try {
    return toWire(internal)
  } catch (error) {
    // Only a configured cookie name or option can make serialising fail.
    return toWire(configurationFailure(request, config, error))
  }
}

/**
 * The internal response to a request, for a binding that reads the answer in-process (the session reader of
 * src/frameworks/shared/session-reader.ts): the same handling as `Auth()`, with the body as the action left it (no
 * JSON text, no web `Response`). Without a promise when nothing in it waits; never throws for bad input or bad config.
 */
export function answerInternal(
  request: IncomingRequest,
  config: AuthConfig,
): ResponseInternal | Promise<ResponseInternal> {
  return run(request, config)
}

/**
 * `Auth()` for the bindings that start from something other than a web `Request` (Node's request object): the same
 * handling, answered in wire form for the binding to write. Never throws for bad input or bad config.
 */
export async function answerIncoming(request: IncomingRequest, config: AuthConfig): Promise<WireResponse> {
  const internal = run(request, config)
  return wireOf(request, config, internal instanceof Promise ? await internal : internal)
}

/**
 * Handles one request to the auth endpoints.
 * @param request a web `Request` whose URL lies under `config.basePath` (default `/auth`)
 * @param config the configuration; with `raw` set to the exported `raw` marker, the internal response is returned
 * @returns a `Response` (or `ResponseInternal` in raw mode); never throws for bad input or bad config
 */
export async function Auth(request: Request, config: AuthConfig & { raw: typeof raw }): Promise<ResponseInternal>
export async function Auth(request: Request, config: Omit<AuthConfig, 'raw'>): Promise<Response>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  const incoming = fromWebRequest(request)
  if (config?.raw === raw) return run(incoming, config)
  const pending = run(incoming, config)
  const internal = pending instanceof Promise ? await pending : pending
  return wireToResponse(wireOf(incoming, config, internal), request.method === 'HEAD')
}
