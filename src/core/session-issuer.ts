/** Which `issueSession` implementation a config uses: the JWT cookie, or a database session row. */
import { issueJwtSession, type SessionIssuer } from '../effects/session/issue-jwt-session.js'
import { issueDatabaseSession } from '../effects/session/issue-database-session.js'
import type { ResolvedConfig } from './config.js'

/** The session issuer of the configured strategy. */
export function sessionIssuerFor(config: ResolvedConfig): SessionIssuer {
  const adapter = config.adapter
  if (config.session.strategy === 'database' && adapter)
    return (env, subject) => issueDatabaseSession(env, adapter, subject)
  return issueJwtSession
}
