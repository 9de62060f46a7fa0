/**
 * The sign-in held for enrolment (src/factors/enrolment-pending-sign-in.ts), as the factors endpoints use it: who it
 * is, and turning it into the session once a factor is enrolled. Nothing else reads its cookie, so every other
 * session read (`GET /session`, `auth()`, `requireRecentAuth`) finds nobody signed in until then.
 */
import { openPendingSignIn, type PendingSignIn } from '../factors/enrolment-pending-sign-in.js'
import type { SignInFactors } from '../effects/session/sign-in-authentication.js'
import type { Account } from '../types/index.js'
import type { SessionCookieWrites } from '../effects/shared/session-cookie-writes.js'
import type { RequestContext } from './context.js'
import { applySessionOutcome, effectEnv } from './effect-outcome.js'
import { sessionIssuerFor } from './session-issuer.js'
import { storedUserOf } from './user-resolution.js'

/** This browser's held sign-in, or null (none, expired, or not sealed by this app). */
export function enrolmentPendingOf(ctx: RequestContext): PendingSignIn | null {
  const raw = ctx.req.cookies.get(ctx.cookies.enrolmentPending.name)
  return raw ? openPendingSignIn(ctx.config.secrets, raw, ctx.now) : null
}

/** The held sign-in's cookie, cleared in this response. */
export function clearEnrolmentPending(ctx: RequestContext): void {
  if (!ctx.req.cookies.get(ctx.cookies.enrolmentPending.name)) return
  const { name, options } = ctx.cookies.enrolmentPending
  ctx.setCookies.push({ name, value: '', options: { ...options, maxAge: 0 } })
}

/**
 * Turns the held sign-in into the session it was held from (the configured strategy, the `jwt` callback with
 * trigger "signIn"), with its own `auth_time`; `proved` is the factor the enrolment checked a code of, which joins
 * the `amr`. Answers whether the session was issued; the held cookie is cleared either way (a failure is logged by
 * the issuer, and the user signs in again).
 */
export async function completeEnrolmentSignIn(
  ctx: RequestContext,
  pending: PendingSignIn,
  proved: SignInFactors['secondFactorMethod'],
): Promise<boolean> {
  const account: Account | null = pending.account ? { ...pending.account } : null
  // Issued outside any flow: the issuer leaves the cookie writes here, as it would in a run's scratch.
  const writes: Partial<SessionCookieWrites> = {}
  const issued = await sessionIssuerFor(ctx.config)(
    effectEnv(ctx),
    {
      user: await storedUserOf(ctx, pending.user),
      account,
      isNewUser: false,
      authTime: pending.authTime,
      factors: {
        ...(proved ? { secondFactorMethod: proved } : {}),
        ...(pending.passkeyDeviceType ? { passkeyDeviceType: pending.passkeyDeviceType } : {}),
      },
    },
    writes,
  )
  clearEnrolmentPending(ctx)
  if (issued.type !== 'SESSION_ISSUED') return false
  applySessionOutcome(ctx, writes)
  return true
}
