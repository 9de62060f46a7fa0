/**
 * The SolidStart binding (`@solidjs/start` 1.x on Vinxi, and 2.x): `SolidAuth(config)` returns the `GET` and `POST`
 * handlers of the catch-all route `src/routes/api/auth/[...solidauth].ts`; `getSession(request, config)` reads the
 * session in a server function; `requireSession` guards a protected page. SolidStart is an optional peer
 * dependency: this entry point imports nothing from it.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import type { SolidAuthConfig } from 'authchart/solid-start'
 * import GitHub from 'authchart/providers/github'
 * export const authConfig: SolidAuthConfig = { providers: [GitHub] }
 * // src/routes/api/auth/[...solidauth].ts
 * import { SolidAuth } from 'authchart/solid-start'
 * import { authConfig } from '~/auth'
 * export const { GET, POST } = SolidAuth(authConfig)
 * ```
 * @module frameworks/solid-start
 */
import { prepareSolidConfig, type SolidAuthConfig } from './config.js'
import { createHandlers, type SolidAuthHandler } from './handlers.js'

export type { SolidAuthConfig } from './config.js'
export type { SolidAuthEvent, SolidAuthHandler } from './handlers.js'
export {
  getSession,
  getSessionAuthentication,
  listSessions,
  requireRecentAuth,
  requireSession,
  revokeOtherSessions,
  revokeSession,
  type RequireSessionOptions,
  type SessionWithUser,
} from './session.js'
export { revokeUserSessions } from '../../core/session-management.js'
export type { ListedSession } from '../../core/session-management.js'
export type { RequireRecentAuthOptions, SessionAuthentication } from '../../core/step-up.js'

/**
 * @param config Auth's configuration with an optional `prefix` (default `/api/auth`; the same as `basePath`).
 *   Environment defaults (AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, provider ids and secrets) are applied to it here.
 * @throws InvalidConfig at once when the configuration has no `providers`, has `raw`, or `prefix` and `basePath`
 *   disagree.
 */
export function SolidAuth(config: SolidAuthConfig): { GET: SolidAuthHandler; POST: SolidAuthHandler } {
  prepareSolidConfig(config)
  return createHandlers(config)
}
