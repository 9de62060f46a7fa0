/**
 * `locals.auth()`: the session of the request's user, or null. `Auth()`'s session check runs in-process with the
 * request's cookies (../shared/session-reader.ts), so every session callback runs as it would for the browser, and a
 * refreshed session cookie is set on the page's response.
 */
import type { RequestEvent } from '@sveltejs/kit'
import type { Session } from '../../types/index.js'
import type { SvelteKitAuthConfig } from './config.js'
import { readSession as readSessionOf, setReadingCookies } from '../shared/session-reader.js'
import { clientAddressOfEvent } from './client-address.js'

export async function readSession(event: RequestEvent, config: SvelteKitAuthConfig): Promise<Session | null> {
  const reading = await readSessionOf(
    {
      origin: event.url.origin,
      header: (name) => event.request.headers.get(name),
      peerAddress: clientAddressOfEvent(event),
    },
    config,
  )
  setReadingCookies(reading, event.cookies)
  return reading.session
}
