/**
 * `getSession(request, config)` and `requireSession(request, config)`. `Auth()` answers `/session` with the request's
 * cookies, so the session and jwt callbacks run as they do for the browser. A session cookie `Auth()` would refresh
 * is not written back here: a server function has no response to write it on in every SolidStart version, and the
 * browser's next call to `/session` (or the client) refreshes it.
 */
import type { Session, User } from '../../types/index.js'
import { callAuth } from '../web-handler.js'
import { sessionReadFailure } from '../shared/session-failure.js'
import { prepareSolidConfig, type SolidAuthConfig } from './config.js'

/** The session of the user who sent `request`, or null (signed out, expired, unknown to the database). */
export async function getSession(request: Request, config: SolidAuthConfig): Promise<Session | null> {
  const prefix = prepareSolidConfig(config)
  const headers = new Headers()
  const cookie = request.headers.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  for (const name of ['x-forwarded-host', 'x-forwarded-proto']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const response = await callAuth(new Request(`${new URL(request.url).origin}${prefix}/session`, { headers }), config)
  let data: unknown
  try {
    data = await response.json()
  } catch {
    data = null
  }
  if (response.status !== 200) throw sessionReadFailure(config, response.status, data)
  if (typeof data !== 'object' || data === null || Object.keys(data).length === 0) return null
  return data as Session
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
