/**
 * The Next.js binding (App Router), in next-auth v5's shape: `NextAuth(config)` returns the Route Handlers, `auth`,
 * `signIn`, `signOut` and `unstable_update`, so an app written for `next-auth` moves by changing its imports
 * (`next-auth` → `authchart/next`). Next.js is an optional peer dependency, needed only by this entry point. It runs
 * in the Node.js runtime (see runtime.ts).
 *
 * @example
 * ```ts
 * // auth.ts
 * import NextAuth from 'authchart/next'
 * import GitHub from 'authchart/providers/github'
 * export const { handlers, auth, signIn, signOut, requireRecentAuth } = NextAuth({ providers: [GitHub] })
 * // app/api/auth/[...nextauth]/route.ts
 * import { handlers } from '@/auth'
 * export const { GET, POST } = handlers
 * // app/account/delete/page.tsx: only a sign-in of the last five minutes gets here (docs/step-up.md)
 * await requireRecentAuth({ maxAge: 300, callbackUrl: '/account/delete' })
 * ```
 * @module frameworks/next
 */
import type { Session } from '../../types/index.js'
import {
  signInAction,
  signOutAction,
  updateAction,
  type AuthorizationParams,
  type SignInOptions,
  type SignOutOptions,
} from './actions.js'
import { createAuth, type AuthFunction } from './auth.js'
import { assertConfigInput, configResolver, type NextAuthConfigInput } from './config.js'
import { createHandlers, type RouteHandler } from './handlers.js'
import { requireRecentAuthIn, sessionAuthenticationIn, type NextRequireRecentAuthOptions } from './step-up.js'
import type { SessionAuthentication } from '../shared/step-up.js'

export type { AuthorizedParams, NextAuthConfig, NextAuthConfigInput } from './config.js'
export type {
  AppRouteHandlerFn,
  AppRouteHandlerFnContext,
  AuthFunction,
  NextAuthMiddleware,
  NextAuthRequest,
  NextAuthRouteHandler,
  WrappedHandler,
} from './auth.js'
export type { AuthorizationParams, SignInOptions, SignOutOptions } from './actions.js'
export { CrossSiteActionRefused } from './actions.js'
export type { NextRequireRecentAuthOptions } from './step-up.js'
export type { RequireRecentAuthOptions, SessionAuthentication } from '../../core/step-up.js'
export { AuthError, CredentialsSignin } from '../../errors.js'
export { customFetch } from '../../types/symbols.js'
export type { Account, DefaultSession, Profile, Session, User } from '../../types/index.js'

/** `signIn` of {@link NextAuthResult}: it redirects (never returns), or with `redirect: false` returns the URL. */
export interface SignIn {
  (provider?: string, options?: SignInOptions<true>, authorizationParams?: AuthorizationParams): Promise<never>
  (provider: string, options: SignInOptions<false>, authorizationParams?: AuthorizationParams): Promise<string>
}

/** `signOut` of {@link NextAuthResult}: it redirects (never returns), or with `redirect: false` returns `{ redirect }`. */
export interface SignOut {
  (options?: SignOutOptions<true>): Promise<never>
  (options: SignOutOptions<false>): Promise<{ redirect: string }>
}

/** What `NextAuth` returns, as next-auth v5 names it. */
export interface NextAuthResult {
  /** The Route Handlers: `export const { GET, POST } = handlers` in `app/api/auth/[...nextauth]/route.ts`. */
  handlers: { GET: RouteHandler; POST: RouteHandler }
  auth: AuthFunction
  /** Server Action: signs in (throws Next's redirect), or returns the URL to go to with `redirect: false`. */
  signIn: SignIn
  /** Server Action: signs out (throws Next's redirect), or returns `{ redirect }` with `redirect: false`. */
  signOut: SignOut
  /** Updates the session from a Server Action or Route Handler: the jwt and session callbacks see `trigger: 'update'`. */
  unstable_update: (data: Partial<Session | { user: Partial<Session['user']> }>) => Promise<Session | null>
  /**
   * Step-up (docs/step-up.md): the request's sign-in when it is at most `maxAge` seconds old and has every method of
   * `factors`; otherwise Next's redirect to the sign-in page, which brings the browser back to `callbackUrl`.
   */
  requireRecentAuth: (options: NextRequireRecentAuthOptions) => Promise<SessionAuthentication>
  /** When and how the request's user signed in (`authTime`, `amr`), or null when nobody is signed in. */
  getSessionAuthentication: () => Promise<SessionAuthentication | null>
}

/**
 * @param config Auth's configuration, or a function of the request (undefined outside one) that returns it.
 *   Environment defaults (AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, AUTH_<PROVIDER>_ID / _SECRET, and next-auth's
 *   NEXTAUTH_URL / NEXTAUTH_SECRET) are applied once per configuration object; the base path defaults to `/api/auth`.
 * @throws InvalidConfig at once when `config` is neither a configuration nor a function.
 */
export default function NextAuth(config: NextAuthConfigInput): NextAuthResult {
  assertConfigInput(config)
  const resolve = configResolver(config)
  function signIn(
    provider?: string,
    options?: SignInOptions<true>,
    authorizationParams?: AuthorizationParams,
  ): Promise<never>
  function signIn(
    provider: string,
    options: SignInOptions<false>,
    authorizationParams?: AuthorizationParams,
  ): Promise<string>
  async function signIn(
    provider?: string,
    options?: SignInOptions<boolean>,
    authorizationParams?: AuthorizationParams,
  ): Promise<string> {
    return signInAction(await resolve(), provider, options, authorizationParams)
  }
  function signOut(options?: SignOutOptions<true>): Promise<never>
  function signOut(options: SignOutOptions<false>): Promise<{ redirect: string }>
  async function signOut(options?: SignOutOptions<boolean>): Promise<{ redirect: string }> {
    return signOutAction(await resolve(), options)
  }
  return {
    handlers: createHandlers(resolve),
    auth: createAuth(resolve),
    signIn,
    signOut,
    unstable_update: async (data) => updateAction(await resolve(), data),
    requireRecentAuth: async (options) => requireRecentAuthIn(await resolve(), options),
    getSessionAuthentication: async () => sessionAuthenticationIn(await resolve()),
  }
}

export { NextAuth }
