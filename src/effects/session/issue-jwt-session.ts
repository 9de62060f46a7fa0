/**
 * The `issueSession` command for the JWT strategy: the `jwt` callback shapes the token (trigger "signIn", or "signUp"
 * for a user created in this sign-in), then it is sealed for the session cookie.
 */
import { JWTSessionError } from '../../errors.js'
import type { JWT } from '../../types/jwt.js'
import { writeSessionToken } from '../../session/session-token.js'
import type { Account, Profile, User } from '../../types/index.js'
import type { CompletionEvent, completionContract } from '../../../machines/sign-in-completion.js'
import type { EffectEnv } from '../shared/effect-env.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import { defaultJwtCallback } from '../shared/default-callbacks.js'
import { keepTokensInJwt } from '../token-refresh/sign-in-tokens.js'
import { opLogoutClaimName, type OpLogoutClaim } from './op-logout-claim.js'
import { keptSignInClaims, signInClaimsOf, type SignInClaims, type SignInFactors } from './sign-in-authentication.js'
import {
  newSessionIdClaim,
  sealedSessionIdClaim,
  sessionIdClaimName,
  sessionRecordOf,
  writeSessionRecord,
  type SessionIdClaim,
} from './session-record.js'

/** Who is signing in, as the sign-in flows know it. */
export interface SignInSubject {
  user: User
  account: Account | null
  profile?: Profile
  isNewUser?: boolean
  /** What the session keeps so that its OpenID provider can end it, or it can end the provider's session. */
  opLogout?: OpLogoutClaim
  /** What the sign-in passed besides its method (a second factor): part of the session's `amr`. */
  factors?: SignInFactors
  /**
   * When the user signed in, when it was not in this request: a sign-in held for enrolment keeps its own `auth_time`
   * when the first factor turns it into a session.
   */
  authTime?: number
  /** The policy wants a factor this user has not enrolled: the sign-in is held, no session issued (the machine's state). */
  enrolmentPending?: boolean
}

/**
 * How issuing a session may end: the events the shared completion's contract lists for `issueSession`
 * (machines/sign-in-completion.ts), in every sign-in machine. The issuers' own bodies answer exactly these
 * (test/flow/contract-types.test.ts).
 */
export type SessionIssued = Extract<CompletionEvent, { type: (typeof completionContract)['issueSession'][number] }>

/**
 * Issues the session for a subject; the strategy's issuer (JWT cookie or database row). What the HTTP layer writes
 * as cookies goes into `scratch`: the run's (`FlowResult.scratch`), never the machine's context.
 */
export type SessionIssuer = (
  env: EffectEnv,
  subject: SignInSubject,
  scratch: Partial<SessionCookieWrites>,
) => SessionIssued | Promise<SessionIssued>

/**
 * Issues a JWT session for the subject; answers SESSION_ISSUED or SESSION_FAILED with the error type. With the
 * built-in `jwt` callback (which keeps the token as it is) and the built-in encoder, nothing is waited for.
 */
export function issueJwtSession(env: EffectEnv, subject: SignInSubject, scratch: Partial<SessionCookieWrites>) {
  const { config } = env
  const { user, account } = subject
  // When and how the user signed in: set here, at sign-in, and never moved by a session check.
  const signIn = signInClaimsOf(env, account?.type, subject.factors, subject.authTime)
  const initial: JWT = {
    name: user.name,
    email: user.email,
    picture: user.image,
    sub: user.id ?? account?.providerAccountId,
    ...signIn,
  }
  if (config.callbacks.jwt === defaultJwtCallback && !config.jwt.encode)
    return writeIssued(env, subject, initial, signIn, scratch)
  return issueThroughCallback(env, subject, initial, signIn, scratch)
}

async function issueThroughCallback(
  env: EffectEnv,
  subject: SignInSubject,
  initial: JWT,
  signIn: SignInClaims,
  scratch: Partial<SessionCookieWrites>,
) {
  const { config } = env
  const { user, account, profile, isNewUser } = subject
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
    return { type: 'SESSION_FAILED', error: 'JWTSessionError' } as const
  }
  // A jwt callback that answers null at sign-in refuses the session.
  if (!token) return { type: 'SESSION_FAILED', error: 'AccessDenied' } as const
  return writeIssued(env, subject, token, signIn, scratch)
}

/**
 * Adds what the session keeps for token refresh, provider logout and step-up, and seals it for the cookie. The
 * sign-in's `auth_time` and `amr` stay as the app's `jwt` callback left them (it may set its own at sign-in); a
 * callback that built a token without them gets them back, or the session could never pass a step-up.
 */
function writeIssued(
  env: EffectEnv,
  subject: SignInSubject,
  shaped: JWT,
  signIn: SignInClaims,
  scratch: Partial<SessionCookieWrites>,
) {
  const { config } = env
  let token = keepTokensInJwt(config, { ...shaped, ...signIn, ...keptSignInClaims(shaped) }, subject.account)
  if (subject.opLogout) token = { ...token, [opLogoutClaimName]: subject.opLogout }
  const managed = config.sessionManagement ? newSessionIdClaim(env, subject.account?.provider) : undefined
  if (managed) token = { ...token, [sessionIdClaimName]: sealedSessionIdClaim(managed) }
  const failed = (err: unknown) => {
    config.logger.error(
      new JWTSessionError('the session token could not be encoded', { err: err instanceof Error ? err : undefined }),
    )
    return { type: 'SESSION_FAILED', error: 'JWTSessionError' } as const
  }
  try {
    const written = writeSessionToken(config, env.sessionCookieName, token, env.now)
    const sealed = token
    if (written instanceof Promise || managed) {
      return Promise.resolve(written).then(async (issued) => {
        scratch.issuedSession = issued
        if (managed) await recordSignIn(env, subject, sealed, managed, issued.expires)
        return { type: 'SESSION_ISSUED' } as const
      }, failed)
    }
    scratch.issuedSession = written
    return { type: 'SESSION_ISSUED' } as const
  } catch (err) {
    return failed(err)
  }
}

/** The new session's record (session management): who, from which device, how. */
function recordSignIn(
  env: EffectEnv,
  subject: SignInSubject,
  token: JWT,
  claim: SessionIdClaim,
  expires: number,
): Promise<void> {
  if (typeof token.sub !== 'string') return Promise.resolve()
  // Written now: no check writes it again before `updateAge` has passed since the sign-in (`jwtRecordDue`).
  const { auth_time: authTime, amr } = keptSignInClaims(token)
  return writeSessionRecord(
    env,
    sessionRecordOf(env, {
      id: claim.id,
      userId: token.sub,
      createdAt: claim.at,
      expiresAt: expires * 1000,
      method: claim.m,
      amr,
      authTime,
    }),
  )
}
