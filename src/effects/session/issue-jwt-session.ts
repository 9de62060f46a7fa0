/**
 * The `issueSession` command for the JWT strategy: the `jwt` callback shapes the token (trigger "signIn", or "signUp"
 * for a user created in this sign-in), then it is sealed for the session cookie.
 */
import { JWTSessionError } from '../../errors.js'
import type { JWT } from '../../types/jwt.js'
import { writeSessionToken } from '../../session/session-token.js'
import type { Account, Profile, User } from '../../types/index.js'
import type { ErrorType } from '../../errors.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { keepTokensInJwt } from '../token-refresh/sign-in-tokens.js'
import { opLogoutClaimName, type OpLogoutClaim } from './op-logout-claim.js'

/** Who is signing in, as the sign-in flows know it. */
export interface SignInSubject {
  user: User
  account: Account | null
  profile?: Profile
  isNewUser?: boolean
  /** What the session keeps so that its OpenID provider can end it, or it can end the provider's session. */
  opLogout?: OpLogoutClaim
}

/** How issuing a session ended: the same two events in every sign-in machine. */
export type SessionIssued = { type: 'SESSION_ISSUED' } | { type: 'SESSION_FAILED'; error: ErrorType }

/** Issues the session for a subject; the strategy's issuer (JWT cookie or database row). */
export type SessionIssuer = (env: EffectEnv, subject: SignInSubject) => Promise<SessionIssued>

/** Issues a JWT session for the subject; answers SESSION_ISSUED or SESSION_FAILED with the error type. */
export async function issueJwtSession(env: EffectEnv, subject: SignInSubject): Promise<SessionIssued> {
  const { config } = env
  const { user, account, profile, isNewUser } = subject
  const initial: JWT = {
    name: user.name,
    email: user.email,
    picture: user.image,
    sub: user.id ?? account?.providerAccountId,
  }
  let token: JWT | null
  try {
    token = await config.callbacks.jwt({
      token: initial,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? 'signUp' : 'signIn',
    })
  } catch (err) {
    config.logger.error(
      new JWTSessionError('the jwt callback threw during sign-in', { err: err instanceof Error ? err : undefined }),
    )
    return { type: 'SESSION_FAILED', error: 'JWTSessionError' }
  }
  // A jwt callback that answers null at sign-in refuses the session.
  if (!token) return { type: 'SESSION_FAILED', error: 'AccessDenied' }
  token = keepTokensInJwt(config, token, account)
  if (subject.opLogout) token = { ...token, [opLogoutClaimName]: subject.opLogout }
  try {
    env.outcome.issuedSession = await writeSessionToken(config, env.sessionCookieName, token, env.now)
    env.outcome.token = token
  } catch (err) {
    config.logger.error(
      new JWTSessionError('the session token could not be encoded', { err: err instanceof Error ? err : undefined }),
    )
    return { type: 'SESSION_FAILED', error: 'JWTSessionError' }
  }
  return { type: 'SESSION_ISSUED' }
}
