/**
 * `locals.auth()`: the session of the request's user, or null. `Auth()` answers `/session` with the request's
 * cookies, so every session callback runs as it would for the browser, and a refreshed session cookie is set on
 * the page's response.
 */
import type { RequestEvent } from '@sveltejs/kit'
import type { Session } from '../../types/index.js'
import { basePathOf, callAuth } from '../web-handler.js'
import type { SvelteKitAuthConfig } from './config.js'
import { forwardCookies } from '../shared/set-cookie.js'
import { sessionReadFailure } from '../shared/session-failure.js'

export async function readSession(event: RequestEvent, config: SvelteKitAuthConfig): Promise<Session | null> {
  const headers = new Headers()
  const cookie = event.request.headers.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  const response = await callAuth(new Request(`${event.url.origin}${basePathOf(config)}/session`, { headers }), config)
  let data: unknown
  try {
    data = await response.json()
  } catch {
    data = null
  }
  if (response.status !== 200) throw sessionReadFailure(config, response.status, data)
  forwardCookies(response, event.cookies)
  if (typeof data !== 'object' || data === null || Object.keys(data).length === 0) return null
  return data as Session
}
