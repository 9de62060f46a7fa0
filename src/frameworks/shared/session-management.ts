/**
 * Session management (docs/sessions.md) for a binding whose handlers receive an event of their own (SvelteKit's
 * `RequestEvent`): the four calls of the main entry, taking that event. The session is the one the event's request
 * carries, and the configuration is the one the binding resolves for the event (lazy configurations, environment
 * defaults), so an app's route reads and ends sessions exactly as the binding's own hook would.
 */
import {
  listSessions,
  revokeOtherSessions,
  revokeSession,
  revokeUserSessions,
  type ListedSession,
} from '../../core/session-management.js'
import type { AuthConfig } from '../../types/index.js'

export interface SessionManagementCalls<E> {
  /** The signed-in user's sessions, the event's own marked `current`; null when nobody is signed in. */
  listSessions(event: E): Promise<ListedSession[] | null>
  /** Ends one of the signed-in user's sessions on every instance; false when the user has no session with that id. */
  revokeSession(event: E, id: string): Promise<boolean>
  /** Ends every session of the signed-in user but this one; how many, or null when nobody is signed in. */
  revokeOtherSessions(event: E): Promise<number | null>
  /** Ends every session of `userId` signed in before now (app code: after a password or factor change). */
  revokeUserSessions(event: E, userId: string): Promise<number>
}

export function sessionManagementCalls<E>(
  configFor: (event: E) => Promise<AuthConfig>,
  requestOf: (event: E) => Request,
): SessionManagementCalls<E> {
  return {
    listSessions: async (event) => listSessions(requestOf(event), await configFor(event)),
    revokeSession: async (event, id) => revokeSession(requestOf(event), await configFor(event), id),
    revokeOtherSessions: async (event) => revokeOtherSessions(requestOf(event), await configFor(event)),
    revokeUserSessions: async (event, userId) => revokeUserSessions(await configFor(event), userId),
  }
}
