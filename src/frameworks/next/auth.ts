/**
 * `auth`, next-auth v5's one function of four uses: `auth()` in a Server Component, Route Handler or Server Action
 * (the session, read from `headers()`); `auth(request)` as the Middleware itself (`export { auth as middleware }`),
 * where the `authorized` callback decides and a refusal redirects to the sign-in page; and `auth(fn)`, which wraps a
 * Middleware or a Route Handler and gives it `request.auth`. Cookies `Auth()` set while reading the session (a
 * refreshed session) go onto the response where there is one, and onto `cookies()` where Next.js allows it.
 */
import { cookies, headers } from 'next/headers'
import { NextResponse, type NextFetchEvent, type NextRequest } from 'next/server'
import { InvalidConfig } from '../../errors.js'
import type { Awaitable, Session } from '../../types/index.js'
import { isUnderBasePath } from '../web-handler.js'
import { parseSetCookie } from '../shared/set-cookie.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin } from './origin.js'
import { assertNodeRuntime } from './runtime.js'
import { readSession } from './session.js'

/** The request a wrapped Middleware or Route Handler receives: Next's, with the session as `auth`. */
export interface NextAuthRequest extends NextRequest {
  auth: Session | null
}

/** A Route Handler's second argument. */
export interface AppRouteHandlerFnContext {
  params: Promise<unknown>
}

export type AppRouteHandlerFn = (request: NextRequest, context: AppRouteHandlerFnContext) => Awaitable<Response | void>

/** A Middleware that `auth(fn)` wraps: it gets the request with `auth` on it. */
export type NextAuthMiddleware = (
  request: NextAuthRequest,
  event: NextFetchEvent,
) => Awaitable<Response | NextResponse | null | undefined | void>

/** A Route Handler that `auth(fn)` wraps. */
export type NextAuthRouteHandler = (
  request: NextAuthRequest,
  context: AppRouteHandlerFnContext,
) => Awaitable<Response | void>

/** What `auth` returns for each use. */
export interface AuthFunction {
  /** The session of the request being rendered or handled (Server Components, Route Handlers, Server Actions). */
  (): Promise<Session | null>
  /** As the Middleware itself: the `authorized` callback decides. */
  (request: NextRequest, event?: NextFetchEvent): Promise<Response>
  /** Wraps a Middleware or a Route Handler: it gets `request.auth`. */
  (wrapped: NextAuthMiddleware | NextAuthRouteHandler): WrappedHandler
}

/** What `auth(fn)` returns: a Middleware (Next passes the event) or a Route Handler (Next passes the params). */
export type WrappedHandler = (
  request: NextRequest,
  context: AppRouteHandlerFnContext | NextFetchEvent,
) => Promise<Response>

type Resolver = (request?: NextRequest) => Promise<NextAuthConfig>

function withCookies(response: Response, lines: string[]): Response {
  // A copy, since a Response's headers may be immutable (Response.redirect); Next's x-middleware-* headers go along.
  const copy = new Response(response.body, response)
  for (const line of lines) copy.headers.append('set-cookie', line)
  return copy
}

/** The sign-in page the Middleware sends a refused request to, with the page it asked for as `callbackUrl`. */
function signInRedirect(request: NextRequest, config: NextAuthConfig): Response | undefined {
  const page = config.pages?.signIn ?? `${config.basePath}/signin`
  const pathname = request.nextUrl.pathname
  // The sign-in page itself and the auth endpoints stay reachable, or a refusal would loop.
  if (pathname === page || isUnderBasePath(pathname, config.basePath)) return undefined
  const origin = appOrigin(request.headers, config)
  const target = new URL(page, origin)
  target.searchParams.set('callbackUrl', `${origin}${pathname}${request.nextUrl.search}`)
  return NextResponse.redirect(target)
}

async function handle(
  resolve: Resolver,
  request: NextRequest,
  context: unknown,
  wrapped: ((request: NextAuthRequest, context: never) => unknown) | undefined,
): Promise<Response> {
  assertNodeRuntime()
  const config = await resolve(request)
  const { session, setCookies } = await readSession(request.headers, config)
  const decide = config.callbacks?.authorized
  const authorized = decide ? await decide({ request, auth: session }) : true
  let response: Response | undefined
  if (authorized instanceof Response) response = authorized
  else if (wrapped) {
    const augmented = request as NextAuthRequest
    augmented.auth = session
    const answer = await wrapped(augmented, context as never)
    response = answer instanceof Response ? answer : undefined
  } else if (authorized === false) response = signInRedirect(request, config)
  return withCookies(response ?? NextResponse.next(), setCookies)
}

/** `auth()` outside Middleware: the session of the request Next.js is rendering or handling. */
async function sessionOfRequest(resolve: Resolver): Promise<Session | null> {
  assertNodeRuntime()
  const config = await resolve()
  const { session, setCookies } = await readSession(await headers(), config)
  if (setCookies.length > 0) {
    const store = await cookies()
    try {
      for (const line of setCookies) {
        const cookie = parseSetCookie(line)
        if (cookie) store.set(cookie.name, cookie.value, cookie.options)
      }
    } catch {
      // A Server Component cannot set cookies (Next.js throws): the browser's next `/session` call refreshes it.
    }
  }
  return session
}

function isRequest(value: unknown): value is NextRequest {
  return value instanceof Request
}

export function createAuth(resolve: Resolver): AuthFunction {
  function auth(): Promise<Session | null>
  function auth(request: NextRequest, event?: NextFetchEvent): Promise<Response>
  function auth(wrapped: NextAuthMiddleware | NextAuthRouteHandler): WrappedHandler
  function auth(...args: unknown[]): unknown {
    if (args.length === 0) return sessionOfRequest(resolve)
    const [first, second] = args
    if (typeof first === 'function') {
      const wrapped = first as (request: NextAuthRequest, context: never) => unknown
      return (request: NextRequest, context: unknown) => handle(resolve, request, context, wrapped)
    }
    if (isRequest(first)) return handle(resolve, first, second, undefined)
    throw new InvalidConfig(
      'auth() takes no argument (Server Components, Route Handlers, Server Actions), a request (as Middleware) or a function to wrap; the Pages Router is not supported',
    )
  }
  return auth
}
