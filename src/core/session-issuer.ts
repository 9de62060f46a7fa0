/** Which `issueSession` implementation a config uses: the JWT cookie, or a database session row. */
import type { SessionIssuer } from '../effects/credentials.js'
import { issueJwtSession } from '../effects/issue-session.js'
import type { ResolvedConfig } from './config.js'

/** The session issuer of the configured strategy. */
export function sessionIssuerFor(config: ResolvedConfig): SessionIssuer {
  return config.session.strategy === 'jwt' ? issueJwtSession : issueJwtSession
}
