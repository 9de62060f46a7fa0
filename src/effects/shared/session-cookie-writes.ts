/**
 * What a run leaves in its scratch for the HTTP layer to turn into cookies (src/core/effect-outcome.ts,
 * `applySessionOutcome`): the sealed session or database session token, the cookie cleared, a sign-in held for
 * enrolment. These are secrets, so they travel in the run's scratch, which the runtime returns to the caller only
 * (`FlowResult.scratch`), never in the machine's context or output, which a flow record, `onTransition` and the logs
 * may see (docs/architecture.md, "Stateless handlers: params and the run's scratch").
 */
export interface SessionCookieWrites {
  /** A session to write: the encoded JWT, or a database session token, with its expiry (epoch seconds, fractional for a database session's millisecond expiry). */
  issuedSession: { value: string; expires: number }
  /** The session cookie must be cleared (unless a session was issued after all). */
  clearSession: boolean
  /** A sign-in held until the user enrols a factor: the sealed enrolment cookie, with its expiry (epoch seconds). */
  enrolmentPending: { value: string; expires: number }
}
