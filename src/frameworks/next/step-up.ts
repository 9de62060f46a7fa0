/**
 * Step-up in Next.js (docs/step-up.md): `requireRecentAuth({ maxAge, factors, callbackUrl })` in a Server Component,
 * Server Action or Route Handler. A session signed in more than `maxAge` seconds ago, or without every method of
 * `factors`, gets Next's `redirect()` to the sign-in page, which brings the browser back to `callbackUrl`. A Server
 * Component is not told its own URL, so the app names the path to come back to. The decision is
 * src/core/step-up.ts's, as for every binding.
 */
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { InvalidConfig } from '../../errors.js'
import {
  getSessionAuthentication as getSessionAuthenticationOf,
  stepUp,
  stepUpRequest,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
} from '../shared/step-up.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin } from './origin.js'

/** `requireRecentAuth`'s options in Next.js: the path to come back to as well. */
export interface NextRequireRecentAuthOptions extends RequireRecentAuthOptions {
  /** The path of the page (on this site) the browser comes back to after signing in again: `/account/delete`. */
  callbackUrl: string
}

async function pageRequest(config: NextAuthConfig, path: string): Promise<Request> {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//'))
    throw new InvalidConfig('requireRecentAuth: `callbackUrl` must be a path on this site, such as "/account"')
  const requestHeaders = await headers()
  return stepUpRequest(`${appOrigin(requestHeaders, config)}${path}`, requestHeaders.get('cookie'))
}

/** The step-up; Next's `redirect()` (which throws) when the session must sign in again, else its sign-in. */
export async function requireRecentAuthIn(
  config: NextAuthConfig,
  options: NextRequireRecentAuthOptions,
): Promise<SessionAuthentication> {
  const outcome = await stepUp(await pageRequest(config, options?.callbackUrl), config, options)
  if (outcome.redirectTo !== undefined) redirect(outcome.redirectTo)
  return outcome.authentication
}

/** When and how the request's user signed in (`authTime`, `amr`), or null when nobody is signed in. */
export async function sessionAuthenticationIn(config: NextAuthConfig): Promise<SessionAuthentication | null> {
  return getSessionAuthenticationOf(await pageRequest(config, '/'), config)
}
