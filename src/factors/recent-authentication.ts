/**
 * Whether the user proved who they are recently: the one check every "sensitive change" asks (removing the last
 * second factor). It reads the session's `auth_time` (OpenID Connect's name: epoch seconds of the sign-in itself,
 * not of the session's last refresh). A session that does not carry it is not recent: refusing is the safe side, and
 * a fresh sign-in is the way through.
 */

/** What the check reads of a session: the JWT's claims, or what a database session knows. */
export interface AuthenticatedSession {
  /** Epoch seconds of the sign-in; absent when the session does not record it. */
  auth_time?: unknown
}

/** How long after a sign-in a sensitive change is allowed without signing in again, unless the app says otherwise. */
export const defaultRecentAuthenticationSeconds = 5 * 60

/**
 * True when `session` records a sign-in no more than `maxAgeSeconds` before `nowSeconds` (and not in the future,
 * beyond a minute of clock skew).
 */
export function recentAuthentication(
  session: AuthenticatedSession | null | undefined,
  maxAgeSeconds: number,
  nowSeconds: number,
): boolean {
  const authTime = session?.auth_time
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) return false
  return authTime >= nowSeconds - maxAgeSeconds && authTime <= nowSeconds + 60
}
