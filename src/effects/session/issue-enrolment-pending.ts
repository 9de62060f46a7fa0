/**
 * The `issueSession` command of the completion's `issuingEnrolmentSession` state: the `secondFactor` policy wants a
 * factor this user has not enrolled, so the sign-in is held, not turned into a session. What the full session will
 * need (the user, the account without provider tokens, the sign-in's `auth_time` and kind of passkey) is sealed into
 * the enrolment cookie (src/factors/enrolment-pending-sign-in.ts); any session cookie this browser had is cleared, so
 * no older session stays signed in beside it. The `jwt` callback runs when the first factor turns it into a session.
 */
import { pendingSignInSeconds, sealPendingSignIn } from '../../factors/enrolment-pending-sign-in.js'
import type { EffectEnv } from '../shared/effect-env.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import type { SignInSubject } from './issue-jwt-session.js'

/** Holds the sign-in of `subject` for enrolment; SESSION_FAILED (CallbackRouteError) for a user without an id. */
export function issueEnrolmentPendingSignIn(
  env: EffectEnv,
  subject: SignInSubject,
  scratch: Partial<SessionCookieWrites>,
) {
  const { user, account } = subject
  if (typeof user.id !== 'string' || user.id === '')
    return { type: 'SESSION_FAILED', error: 'CallbackRouteError' } as const
  const expires = env.now + pendingSignInSeconds
  const value = sealPendingSignIn(env.config.secrets, {
    user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null },
    account: account
      ? { provider: account.provider, type: account.type, providerAccountId: account.providerAccountId }
      : null,
    authTime: env.now,
    ...(subject.factors?.passkeyDeviceType ? { passkeyDeviceType: subject.factors.passkeyDeviceType } : {}),
    expiresAt: expires,
  })
  scratch.enrolmentPending = { value, expires }
  scratch.clearSession = true
  return { type: 'SESSION_ISSUED' } as const
}
