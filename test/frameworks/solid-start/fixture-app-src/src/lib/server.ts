'use server'
// Server functions of the pages: they run on the server only (the browser calls them over RPC).
import { getRequestEvent } from 'solid-js/web'
import { getSession, requireSession } from 'authchart/solid-start'
import { authConfig } from './auth'

function request(): Request {
  const event = getRequestEvent()
  if (!event) throw new Error('no request event')
  return event.request
}

/** The signed-in user's name, or null: getSession in a server function. */
export async function signedInAs(): Promise<string | null> {
  const session = await getSession(request(), authConfig)
  return session?.user?.name ?? null
}

/** The user of the protected page; a visitor without a session is redirected to `/`. */
export async function protectedUser(): Promise<string> {
  const session = await requireSession(request(), authConfig)
  return `Protected page for ${session.user.name ?? ''} (${session.user.email ?? ''})`
}

/** Where the auth routes live, for the client's signIn / signOut. */
export async function authPrefix(): Promise<string> {
  return authConfig.prefix ?? '/api/auth'
}
