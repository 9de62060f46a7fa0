/**
 * Step-up in SvelteKit (docs/step-up.md): `requireRecentAuth(event, { maxAge, factors })` in a `load` function or a
 * form action throws SvelteKit's redirect (303) to the sign-in page when the session is not recent enough, and gives
 * the session's sign-in when it is. The decision is src/core/step-up.ts's, as for every binding.
 */
import { redirect } from '@sveltejs/kit'
import type { AuthConfig } from '../../types/index.js'
import {
  getSessionAuthentication,
  stepUp,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
} from '../shared/step-up.js'

/** SvelteKit's `redirect` with the third argument SvelteKit 3 added (it is ignored by 2). */
const kitRedirect: (status: 303, location: string, options?: { external: boolean }) => never = redirect

/** What the step-up reads of SvelteKit's `RequestEvent`. */
interface StepUpEvent {
  readonly request: Request
  readonly url: URL
}

export interface StepUpCalls<E extends StepUpEvent> {
  /**
   * The sign-in of the event's session when it is at most `maxAge` seconds old and has every method of `factors`;
   * otherwise throws SvelteKit's redirect to the sign-in page, which brings the browser back to this URL.
   */
  requireRecentAuth(event: E, options: RequireRecentAuthOptions): Promise<SessionAuthentication>
  /** When and how the event's user signed in (`authTime`, `amr`), or null when nobody is signed in. */
  getSessionAuthentication(event: E): Promise<SessionAuthentication | null>
}

export function stepUpCalls<E extends StepUpEvent>(configFor: (event: E) => Promise<AuthConfig>): StepUpCalls<E> {
  return {
    async requireRecentAuth(event, options) {
      const outcome = await stepUp(event.request, await configFor(event), options)
      if (outcome.redirectTo === undefined) return outcome.authentication
      const target = new URL(outcome.redirectTo)
      // A path when the sign-in page is on the event's own origin; else the configured origin's URL, said to be one.
      if (target.origin === event.url.origin) kitRedirect(303, `${target.pathname}${target.search}`)
      return kitRedirect(303, target.href, { external: true })
    },
    getSessionAuthentication: async (event) => getSessionAuthentication(event.request, await configFor(event)),
  }
}
