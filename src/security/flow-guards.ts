/**
 * Security checks as named guards for the machines. They are inline guards (not extension points): `provide()`
 * cannot replace them, and the diagrams show their names.
 */

/** OWASP double-submit cookie: the HTTP layer compared the form's token with the CSRF cookie and put the verdict in the event. */
export function isCsrfVerified({ event }: { event: object }): boolean {
  return 'csrfVerified' in event && event.csrfVerified === true
}

/** Whether the flow outlived its own deadline (`expiresAt`, epoch seconds), checked with the request's `now`. */
export function isFlowExpired({ context, event }: { context: object; event: object }): boolean {
  const expiresAt = 'expiresAt' in context ? context.expiresAt : undefined
  const now = 'now' in event ? event.now : undefined
  return typeof expiresAt !== 'number' || typeof now !== 'number' || now >= expiresAt
}
