/**
 * The `issueSession` command for the database strategy. A credentials user is looked up in the adapter (by id, then
 * by e-mail) before a session row is made for it: Auth.js refuses credentials with database sessions; Authchart
 * supports them for users the adapter knows.
 */
import type { WrappedAdapter } from '../../types/adapters.js'
import { CallbackRouteError, CredentialsSignin } from '../../errors.js'
import { createDatabaseSession } from './database-session.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { sessionKeys } from './op-logout-claim.js'
import type { SignInSubject } from './issue-jwt-session.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import { signInClaimsOf } from './sign-in-authentication.js'
import { keepTokensInAccount } from '../token-refresh/sign-in-tokens.js'

/** Issues a database session for the subject; a credentials user unknown to the adapter gets CredentialsSignin. */
export async function issueDatabaseSession(
  env: EffectEnv,
  adapter: WrappedAdapter,
  subject: SignInSubject,
  scratch: Partial<SessionCookieWrites>,
) {
  let userId = subject.user.id
  if (subject.account?.type === 'credentials') {
    const known =
      (userId ? await adapter.getUser(userId) : null) ??
      (subject.user.email ? await adapter.getUserByEmail(subject.user.email) : null)
    if (!known) {
      // The operator's fix (seed the user) on one warn line; the CredentialsSignin still goes to logger.error as
      // for any refused credentials sign-in. The page stays the generic one: it must not tell who has an account.
      env.config.logger.warn('credentials-user-unknown', { provider: subject.account.provider })
      env.config.logger.error(
        new CredentialsSignin('authorize() returned a user the adapter does not know', {
          provider: subject.account.provider,
        }),
      )
      return { type: 'SESSION_FAILED', error: 'CredentialsSignin' } as const
    }
    userId = known.id
  }
  if (!userId) return { type: 'SESSION_FAILED', error: 'CallbackRouteError' } as const
  await keepTokensInAccount(env, adapter, subject.account)
  // When and how the user signed in, kept with the session's record: never moved when the session slides.
  const { auth_time: authTime, amr } = signInClaimsOf(env, subject.account?.type, subject.factors, subject.authTime)
  const issued = await createDatabaseSession(env, adapter, userId, {
    method: subject.account?.provider,
    amr,
    authTime,
  })
  scratch.issuedSession = issued
  await indexForBackchannelLogout(env, subject, issued.value)
  return { type: 'SESSION_ISSUED' } as const
}

/**
 * Remembers which OP account and OP session the new database session belongs to, so that a back-channel logout
 * can find and delete it (the adapter cannot list a user's sessions). Kept as long as the session's `maxAge`.
 */
async function indexForBackchannelLogout(env: EffectEnv, subject: SignInSubject, sessionToken: string): Promise<void> {
  const store = env.config.backchannelLogout?.store
  const claim = subject.opLogout
  if (!store || !claim) return
  try {
    await store.addSession(sessionKeys(claim), sessionToken, env.config.session.maxAge)
  } catch (err) {
    // Signed in all the same: the session ends at its expiry or sign-out, but a back-channel logout will miss it.
    env.config.logger.error(
      new CallbackRouteError('the session could not be indexed for back-channel logout', {
        provider: claim.p,
        err: err instanceof Error ? err : undefined,
      }),
    )
  }
}
