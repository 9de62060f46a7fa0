/**
 * Step-up: a route that needs a recent sign-in (`requireRecentAuth({ maxAge, factors })`) sends a session whose
 * sign-in is older than `maxAge`, or lacks a method of `factors` in its `amr`, to the sign-in page and back. This is
 * the one module every binding uses (Express, the fetch function, SvelteKit, SolidStart, Qwik, Next); each only turns
 * the answer into its own redirect.
 *
 * It reads the session itself, not the app's session answer: `auth_time` and `amr` are the sign-in's, set when the
 * session was issued (the JWT's claims, a database session's record) and moved by nothing after it, so neither the
 * app's `session` callback nor `update()` data can make an old session pass. Re-authentication is an ordinary
 * sign-in: whoever signs in gets a new session (the old cookie is replaced), and the route checks that fresh one.
 * See docs/step-up.md.
 */
import { InvalidConfig } from '../errors.js'
import { logRefusal } from '../logger.js'
import { databaseSignInRecord } from '../effects/session/session-record.js'
import { isRecentAuthentication } from '../session/authentication-methods.js'
import type { AuthConfig } from '../types/index.js'
import type { ResolvedConfig } from './config.js'
import { liveSessionOf, resolved } from './session-management.js'

/** When and how the request's session was authenticated, as a step-up reads it. */
export interface SessionAuthentication {
  userId: string
  /** Epoch seconds of the sign-in (OpenID Connect's `auth_time`); absent for a session from before it was recorded. */
  authTime?: number
  /** The sign-in's methods (`amr`: `pwd`, `otp`, `mfa`, …; docs/step-up.md lists them). */
  amr?: string[]
}

/** What `requireRecentAuth` asks of a session. */
export interface RequireRecentAuthOptions {
  /** How old the sign-in may be, in seconds. */
  maxAge: number
  /** Methods the sign-in's `amr` must all hold (`['mfa']`, `['otp']`, …); none by default. */
  factors?: readonly string[]
}

/** The `error` value the sign-in page is sent, so that it says why it asks again. */
export const reauthenticationMarker = 'ReauthenticationRequired'

/**
 * The options, checked once when a binding builds its guard, so a typo fails at start-up, not on a request.
 * @throws InvalidConfig for a `maxAge` that is not a finite number of seconds (0 or more) or `factors` that is not a
 *   list of method names
 */
export function checkRecentAuthOptions(options: RequireRecentAuthOptions): RequireRecentAuthOptions {
  // Read as unknown: a JavaScript app (or a lazily built config) can hand over anything.
  const maxAge: unknown = options?.maxAge
  const factors: unknown = options?.factors
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge < 0)
    throw new InvalidConfig('requireRecentAuth: `maxAge` must be a number of seconds, 0 or more')
  if (factors === undefined) return { maxAge }
  const names = Array.isArray(factors) ? factors.filter((f): f is string => typeof f === 'string' && f !== '') : []
  if (!Array.isArray(factors) || names.length !== factors.length)
    throw new InvalidConfig('requireRecentAuth: `factors` must be a list of method names such as ["mfa"]')
  return { maxAge, factors: names }
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function methodsOrUndefined(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : undefined
}

/**
 * The request's session as a step-up reads it, or null when nobody is signed in (no cookie; an unreadable, expired
 * or revoked one: by session management or a back-channel logout, through `liveSessionOf`). A database session's
 * sign-in is read from its record (`databaseSignInRecord`), which needs `sessionManagement`.
 */
export async function sessionAuthenticationOf(
  config: ResolvedConfig,
  request: Request,
): Promise<SessionAuthentication | null> {
  const live = await liveSessionOf(config, request)
  if (!live) return null
  if (live.strategy === 'database') {
    const signIn = await databaseSignInRecord(config, live.row)
    return { userId: live.userId, authTime: numberOrUndefined(signIn?.authTime), amr: methodsOrUndefined(signIn?.amr) }
  }
  const { token } = live
  return { userId: live.userId, authTime: numberOrUndefined(token.auth_time), amr: methodsOrUndefined(token.amr) }
}

/** The URL the request was made to, as the browser sees the site: the configured origin, else the request's. */
function requestedUrl(config: ResolvedConfig, request: Request): string {
  const url = new URL(request.url)
  return `${config.origin ?? url.origin}${url.pathname}${url.search}`
}

/** The sign-in page, told where to come back to and why it is asked. */
function reauthenticationUrl(config: ResolvedConfig, request: Request): string {
  const origin = config.origin ?? new URL(request.url).origin
  const query = new URLSearchParams({ callbackUrl: requestedUrl(config, request), error: reauthenticationMarker })
  return `${origin}${config.basePath}/signin?${query.toString()}`
}

/** What a step-up found: where to send the browser, or the recent sign-in that may pass. */
export type StepUpOutcome =
  | { readonly redirectTo: string; readonly authentication?: undefined }
  | { readonly redirectTo?: undefined; readonly authentication: SessionAuthentication }

/**
 * The step-up of a request: the sign-in page (with `callbackUrl` back to the request's URL and the marker) when its
 * session is not recent enough or lacks a required method, else the session's sign-in. Each refusal is logged once
 * as `refused:step-up`, with the reason and never a token.
 * @throws InvalidConfig for database sessions without `sessionManagement` (nothing records their sign-in: every
 *   request would be sent to sign in again, for ever)
 */
export async function stepUpOf(
  config: ResolvedConfig,
  request: Request,
  options: RequireRecentAuthOptions,
): Promise<StepUpOutcome> {
  if (config.session.strategy === 'database' && !config.sessionManagement)
    throw new InvalidConfig(
      'requireRecentAuth with database sessions needs `sessionManagement: { store }`: the session record keeps the sign-in time',
    )
  const session = await sessionAuthenticationOf(config, request)
  if (session && isRecentAuthentication(session, options)) return { authentication: session }
  logRefusal(config.logger, 'step-up', {
    reason: !session
      ? 'no session'
      : session.authTime === undefined
        ? 'the session records no sign-in time'
        : isRecentAuthentication(session, { maxAge: options.maxAge })
          ? 'a required method is missing from the sign-in'
          : 'the sign-in is older than maxAge',
    maxAge: options.maxAge,
  })
  return { redirectTo: reauthenticationUrl(config, request) }
}

/**
 * The step-up of `request` for a binding (src/frameworks/*): its URL is where the browser comes back to, its
 * `Cookie` header the session. The options are checked first (InvalidConfig for a `maxAge` or `factors` that cannot
 * be right).
 */
export function stepUp(
  request: Request,
  config: AuthConfig,
  options: RequireRecentAuthOptions,
): Promise<StepUpOutcome> {
  const checked = checkRecentAuthOptions(options)
  return stepUpOf(resolved(config), request, checked)
}

/**
 * When and how the request's user signed in (`authTime`, epoch seconds, and `amr`), or null when nobody is signed
 * in. The session answer itself keeps Auth.js's shape; this is where an app reads the sign-in.
 * @param request the app's request (its `Cookie` header carries the session)
 * @param config the configuration `Auth()` is given
 */
export function getSessionAuthentication(request: Request, config: AuthConfig): Promise<SessionAuthentication | null> {
  return sessionAuthenticationOf(resolved(config), request)
}

/**
 * Step-up for a fetch-style server: a redirect `Response` (303 to the sign-in page, which comes back to the request's
 * URL) when the request's session is older than `maxAge` seconds or lacks a method of `factors`; null when it may
 * pass. A request nobody signed in for is sent to sign in too.
 * @example
 * const stepUp = await requireRecentAuth(request, config, { maxAge: 300 })
 * if (stepUp) return stepUp
 */
export async function requireRecentAuth(
  request: Request,
  config: AuthConfig,
  options: RequireRecentAuthOptions,
): Promise<Response | null> {
  const { redirectTo } = await stepUp(request, config, options)
  return redirectTo === undefined ? null : new Response(null, { status: 303, headers: { location: redirectTo } })
}
