/**
 * Reads the session of a request the way the browser's `/session` call does: `Auth()` answers it with the request's
 * cookies, so the session and jwt callbacks run as they do for the client. The cookies `Auth()` sets with it (a
 * refreshed session cookie, or the deletion of an unreadable one) are returned for the caller to pass on where it
 * can: a Middleware's and a Route Handler's response, or `cookies()` in a Server Action.
 */
import type { Session } from '../../types/index.js'
import { callAuth } from '../web-handler.js'
import { sessionReadFailure } from '../shared/session-failure.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin, type HeaderSource } from './origin.js'

export interface SessionRead {
  session: Session | null
  /** The Set-Cookie lines of `Auth()`'s answer. */
  setCookies: string[]
}

/** The session of the request whose headers are `headers`; throws what the session endpoint's failure means. */
export async function readSession(headers: HeaderSource, config: NextAuthConfig): Promise<SessionRead> {
  const forwarded = new Headers()
  for (const name of ['cookie', 'x-forwarded-host', 'x-forwarded-proto', 'host']) {
    const value = headers.get(name)
    if (value) forwarded.set(name, value)
  }
  const url = `${appOrigin(headers, config)}${config.basePath}/session`
  const response = await callAuth(new Request(url, { headers: forwarded }), config)
  let data: unknown
  try {
    data = await response.json()
  } catch {
    data = null
  }
  if (response.status !== 200) throw sessionReadFailure(config, response.status, data)
  const setCookies = response.headers.getSetCookie()
  if (typeof data !== 'object' || data === null || Object.keys(data).length === 0) return { session: null, setCookies }
  return { session: data as Session, setCookies }
}
