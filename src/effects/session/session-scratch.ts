/**
 * The session machine's run scratch. What a run leaves in it for the HTTP layer, under either strategy: the cookie
 * writes, and the session the client sees (what the app's `session` callback returned: the app's data, answered to
 * this request only, never part of the machine's context); and what the JWT strategy's steps pass on to each other.
 */
import type { AdapterSession, AdapterUser } from '../../types/adapters.js'
import type { DefaultSession, Session } from '../../types/index.js'
import type { JWT } from '../../types/jwt.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import type { ProviderLogoutTarget } from './provider-logout.js'
import type { managedJwtSession } from './session-record.js'

export interface SessionScratch extends SessionCookieWrites, JwtSessionRun, DatabaseSessionRun {
  // DefaultSession too, since an app's augmented Session may require more.
  session: Session | DefaultSession | Record<string, unknown> | null
}

/**
 * What one step of a JWT session run learns for the next (src/effects/session/jwt-session.ts): in the run's scratch,
 * never in the machine's context, since the token is the session itself.
 */
export interface JwtSessionRun {
  /** The opened token, then as the `jwt` callback left it. */
  token: JWT
  /** When the session expires (epoch seconds): the token's `exp`, then the re-issued cookie's. */
  expires: number
  /** The answer's `expires` when the token was sealed anew by this check. */
  issuedExpiry: string
  /** Session management: the loaded token's id, user and store, read once for the check and the re-issue. */
  managed: { token: JWT; session: ReturnType<typeof managedJwtSession> }
  /** Where a sign-out also ends the session at the provider (with the ID token found for it). */
  providerLogout: ProviderLogoutTarget
}

/** What one step of a database session run learns for the next (src/effects/session/database-session.ts). */
export interface DatabaseSessionRun {
  /** The session row as this request read it (its expiry before any slide). */
  sessionRow: AdapterSession
  /** The row's user. */
  sessionUser: AdapterUser
}
