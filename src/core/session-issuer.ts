/** Which `issueSession` implementation a config uses: the JWT cookie, or a database session row. */
import { issueJwtSession, type SessionIssuer } from '../effects/session/issue-jwt-session.js'
import { issueDatabaseSession } from '../effects/session/issue-database-session.js'
import { issueEnrolmentPendingSignIn } from '../effects/session/issue-enrolment-pending.js'
import type { ResolvedConfig } from './config.js'

/**
 * The session issuer of the configured strategy. A subject the completion's `issuingEnrolmentSession` state hands
 * over (`enrolmentPending`) gets no session of either strategy: its sign-in is held for enrolment.
 */
export function sessionIssuerFor(config: ResolvedConfig): SessionIssuer {
  const issue = strategyIssuerFor(config)
  return (env, subject, scratch) =>
    subject.enrolmentPending ? issueEnrolmentPendingSignIn(env, subject, scratch) : issue(env, subject, scratch)
}

function strategyIssuerFor(config: ResolvedConfig): SessionIssuer {
  const adapter = config.adapter
  if (config.session.strategy === 'database' && adapter)
    return (env, subject, scratch) => issueDatabaseSession(env, adapter, subject, scratch)
  return issueJwtSession
}
