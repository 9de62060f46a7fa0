/**
 * Step-up for the bindings (docs/step-up.md). Every binding takes its request to `stepUp` of src/core/step-up.ts,
 * the one module that reads the session, decides and builds the sign-in URL; a binding only turns the answer into its
 * framework's redirect (Express's `res.redirect`, SvelteKit's `redirect`, a thrown `Response` in SolidStart, Qwik's
 * `event.redirect`, Next's `redirect`). This module gives them the request to hand over.
 */
export {
  getSessionAuthentication,
  stepUp,
  type RequireRecentAuthOptions,
  type SessionAuthentication,
  type StepUpOutcome,
} from '../../core/step-up.js'

/**
 * The request a step-up reads, for a binding that has no web `Request` of the page (Express, Next's server
 * components): the URL the browser asked for (where it comes back after signing in) and the `Cookie` header, nothing
 * else.
 */
export function stepUpRequest(url: string, cookie: string | null | undefined): Request {
  const headers = new Headers()
  if (cookie) headers.set('cookie', cookie)
  return new Request(url, { headers })
}
