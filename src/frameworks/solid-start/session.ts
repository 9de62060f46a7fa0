/**
 * `getSession(request, config)` and `requireSession(request, config)`. `Auth()`'s session check runs in-process with
 * the request's cookies (../shared/session-reader.ts), so the session and jwt callbacks run as they do for the browser. A session cookie `Auth()` would refresh
 * is not written back here: a server function has no response to write it on in every SolidStart version, and the
 * browser's next call to `/session` (or the client) refreshes it.
 */
import type { Session, User } from '../../types/index.js'
import { clientAddressOf } from '../../core/client-address.js'
import {
  listSessions as listSessionsOf,
  revokeOtherSessions as revokeOtherSessionsOf,
  revokeSession as revokeSessionOf,
  type ListedSession,
} from '../../core/session-management.js'
import { readSession } from '../shared/session-reader.js'
import {
  getSessionAuthentication as getSessionAuthenticationOf,
  stepUp,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
} from '../shared/step-up.js'
import { prepareSolidConfig, type SolidAuthConfig } from './config.js'

/** The session of the user who sent `request`, or null (signed out, expired, unknown to the database). */
export async function getSession(request: Request, config: SolidAuthConfig): Promise<Session | null> {
  prepareSolidConfig(config)
  const reading = await readSession(
    {
      origin: new URL(request.url).origin,
      header: (name) => request.headers.get(name),
      peerAddress: clientAddressOf(request),
    },
    config,
  )
  return reading.session
}

/** A session that has a user. */
export type SessionWithUser = Session & { user: User }

/** Options of {@link requireSession}. */
export interface RequireSessionOptions {
  /** Where a visitor without a session goes; default `/`, the root path. */
  redirectTo?: string
}

/**
 * The session of a protected page: the session when it has a `user`, else a thrown redirect (302) to `/` (or
 * `redirectTo`). Call it in a server function (`"use server"`, under `query`): SolidStart's router turns the thrown
 * response into a redirect, on the server during rendering as in the browser.
 */
export async function requireSession(
  request: Request,
  config: SolidAuthConfig,
  options: RequireSessionOptions = {},
): Promise<SessionWithUser> {
  const session = await getSession(request, config)
  if (session?.user) return session as SessionWithUser
  // SolidStart's router turns a thrown Response with a Location into a redirect; an Error would be an error page.
  const redirect: unknown = new Response(null, { status: 302, headers: { location: options.redirectTo ?? '/' } })
  throw redirect
}

/**
 * The signed-in user's sessions (session management, docs/sessions.md), the request's own marked `current`; null
 * when nobody is signed in. Call it in a server function, as `getSession`.
 */
export function listSessions(request: Request, config: SolidAuthConfig): Promise<ListedSession[] | null> {
  prepareSolidConfig(config)
  return listSessionsOf(request, config)
}

/** Ends one of the signed-in user's sessions on every instance; false when the user has no session with that id. */
export function revokeSession(request: Request, config: SolidAuthConfig, id: string): Promise<boolean> {
  prepareSolidConfig(config)
  return revokeSessionOf(request, config, id)
}

/** Ends every session of the signed-in user but this one; how many, or null when nobody is signed in. */
export function revokeOtherSessions(request: Request, config: SolidAuthConfig): Promise<number | null> {
  prepareSolidConfig(config)
  return revokeOtherSessionsOf(request, config)
}

/**
 * Step-up (docs/step-up.md): the sign-in of the request's session when it is at most `maxAge` seconds old and has
 * every method of `factors`; otherwise a thrown redirect (303) to the sign-in page, which brings the browser back to
 * the request's URL. Call it in a server function, as `requireSession`.
 */
export async function requireRecentAuth(
  request: Request,
  config: SolidAuthConfig,
  options: RequireRecentAuthOptions,
): Promise<SessionAuthentication> {
  prepareSolidConfig(config)
  const outcome = await stepUp(request, config, options)
  if (outcome.redirectTo === undefined) return outcome.authentication
  const redirect: unknown = new Response(null, { status: 303, headers: { location: outcome.redirectTo } })
  throw redirect
}

/** When and how the request's user signed in (`authTime`, `amr`), or null when nobody is signed in. */
export function getSessionAuthentication(
  request: Request,
  config: SolidAuthConfig,
): Promise<SessionAuthentication | null> {
  prepareSolidConfig(config)
  return getSessionAuthenticationOf(request, config)
}
