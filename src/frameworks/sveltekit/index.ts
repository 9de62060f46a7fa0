/**
 * The SvelteKit binding (SvelteKit 2 and 3): `SvelteKitAuth(config)` returns the server hook `handle`, which answers
 * everything under `basePath` (default `/auth`) and gives every request `event.locals.auth()`, and the form actions
 * `signIn` and `signOut`. SvelteKit and Svelte are optional peer dependencies, needed only by this entry point.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from 'authchart/sveltekit'
 * import GitHub from 'authchart/providers/github'
 * import { env } from '$env/dynamic/private'
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] }, { env })
 * // src/hooks.server.ts
 * export { handle } from './auth'
 * // src/routes/signin/+page.server.ts
 * import { signIn } from '../../auth'
 * export const actions = { default: signIn }
 * ```
 * @module frameworks/sveltekit
 */
import type { Action, RequestEvent } from '@sveltejs/kit'
import type { Session } from '../../types/index.js'
import { withClient } from './client-address.js'
import { basePathOf, callAuth, isUnderBasePath } from '../web-handler.js'
import { signInAction, signOutAction } from './actions.js'
import { assertConfigShape, configResolver, type ConfigOrFactory, type SvelteKitAuthOptions } from './config.js'
import { readSession } from './session.js'
import { sessionManagementCalls, type SessionManagementCalls } from '../shared/session-management.js'
import { stepUpCalls, type StepUpCalls } from './step-up.js'

export type { SvelteKitAuthConfig, SvelteKitAuthOptions, ConfigOrFactory } from './config.js'
export { isSameOrigin } from '../../security/same-origin.js'
export type { ListedSession } from '../../core/session-management.js'
export type { RequireRecentAuthOptions, SessionAuthentication } from '../../core/step-up.js'

declare global {
  // SvelteKit's own declaration-merging point for what `handle` puts on `event.locals`: a namespace by SvelteKit's
  // design, which no module syntax can extend.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace App {
    interface Locals {
      /** The session of the request's user, or null; computed at most once per request. */
      auth(): Promise<Session | null>
    }
  }
}

/**
 * The server hook's type, written out here because SvelteKit 2 exports `Handle` from `@sveltejs/kit` and SvelteKit 3
 * from `@sveltejs/kit/hooks`; this one is assignable to either.
 */
export type SvelteKitHandle = (input: {
  event: RequestEvent
  resolve: (event: RequestEvent) => Response | Promise<Response>
}) => Promise<Response>

/** What `SvelteKitAuth` returns. */
export interface SvelteKitAuthResult extends SessionManagementCalls<RequestEvent>, StepUpCalls<RequestEvent> {
  /** The server hook: export it from `src/hooks.server.ts` (or put it in a `sequence`). */
  handle: SvelteKitHandle
  /** Form action for `src/routes/signin/+page.server.ts`. */
  signIn: Action
  /** Form action for `src/routes/signout/+page.server.ts`. */
  signOut: Action
}

/**
 * @param config Auth's configuration, or an async function of the request event that returns it (to read
 *   `event.platform.env` per request). Environment defaults are applied once per configuration object.
 * @param options where environment defaults come from (see {@link SvelteKitAuthOptions}).
 * @throws InvalidConfig at once when `config` is neither a configuration nor a function.
 */
export function SvelteKitAuth(config: ConfigOrFactory, options: SvelteKitAuthOptions = {}): SvelteKitAuthResult {
  assertConfigShape(config)
  const configFor = configResolver(config, options)
  const sessions = new WeakMap<RequestEvent, Promise<Session | null>>()

  function auth(event: RequestEvent): Promise<Session | null> {
    let pending = sessions.get(event)
    if (!pending) {
      pending = configFor(event).then((resolved) => readSession(event, resolved))
      sessions.set(event, pending)
    }
    return pending
  }

  const handle: SvelteKitHandle = async ({ event, resolve }) => {
    const resolved = await configFor(event)
    event.locals.auth = () => auth(event)
    if (isUnderBasePath(event.url.pathname, basePathOf(resolved))) {
      return callAuth(withClient(event.request, event), resolved)
    }
    return resolve(event)
  }

  return {
    handle,
    signIn: async (event) => signInAction(event, await configFor(event)),
    signOut: async (event) => signOutAction(event, await configFor(event)),
    // `listSessions(event)`, `revokeSession(event, id)`, ...: for an app's own "your devices" route (docs/sessions.md).
    ...sessionManagementCalls(configFor, (event: RequestEvent) => event.request),
    // `requireRecentAuth(event, { maxAge })` in a load function or action; `getSessionAuthentication(event)`.
    ...stepUpCalls(configFor),
  }
}
