/**
 * The login-CSRF check of the bindings' form actions (SvelteKit, Qwik): a sign-in or sign-out POST must come from a
 * page of this origin. The frameworks make a similar check unless an app turns it off or trusts other origins; the
 * actions make it themselves so that they never sign a browser in on another site's say-so.
 */

/** Whether the browser says the request comes from `origin` (the Origin header, else Fetch Metadata). */
export function isSameOrigin(request: Request, origin: string): boolean {
  const sent = request.headers.get('origin')
  if (sent !== null) return sent === origin
  // Browsers send Origin with every form POST; without it only Fetch Metadata can vouch for the request.
  return request.headers.get('sec-fetch-site') === 'same-origin'
}
