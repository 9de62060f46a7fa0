/**
 * What a run of the session machine leaves in its scratch for the HTTP layer, under either strategy: the cookie
 * writes, and the session the client sees (what the app's `session` callback returned: the app's data, answered to
 * this request only, never part of the machine's context).
 */
import type { DefaultSession, Session } from '../../types/index.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'

export interface SessionScratch extends SessionCookieWrites {
  // DefaultSession too, since an app's augmented Session may require more.
  session: Session | DefaultSession | Record<string, unknown> | null
}
