/**
 * The session as the React client keeps it: one store per page, shared by every `SessionProvider` and by the
 * module's own `signIn` / `signOut` (which refresh it after a sign-in or sign-out that does not leave the page). It
 * knows nothing of React: `SessionProvider` subscribes to it.
 */
import type { Session } from '../../types/index.js'

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated'

export interface SessionState {
  data: Session | null
  status: SessionStatus
}

type Listener = () => void

/** Where the auth endpoints live: next-auth's `/api/auth`, or the `basePath` a `SessionProvider` names. */
export const clientConfig = { basePath: '/api/auth' }

const listeners = new Set<Listener>()

/** Subscribes `listener` to "the session may have changed: read it again"; returns the unsubscribe. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tells every subscribed provider to read the session again. */
export function announceSessionChange(): void {
  for (const listener of [...listeners]) listener()
}

/** The state a session (or its absence) puts the hook in. */
export function stateOf(session: Session | null): SessionState {
  return session ? { data: session, status: 'authenticated' } : { data: null, status: 'unauthenticated' }
}
