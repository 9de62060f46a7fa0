/** POST /callback/:provider for a credentials provider: one run of the credentials machine. */
import { credentialsEffects } from '../../effects/credentials/credentials-flow.js'
import type { CredentialsConfig } from '../../types/providers.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { failureLimitsFor, type ResolvedFailureLimits } from '../credentials-failure-limits.js'
import { deviceCookieFor } from '../device-cookie.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { awaitsSecondFactor, completedSignIn, secondFactorStop, signInAnswer } from './sign-in-answer.js'
import { secondFactorInputFor } from '../second-factor.js'
import { sessionIssuerFor } from '../session-issuer.js'
import type { FlowResult } from '../../flow/runtime.js'
import type { credentialsMachine } from '../../../machines/credentials.js'
import type { SignInScratch } from '../../effects/shared/sign-in-scratch.js'

/**
 * A locked-out sign-in: the sign-in page with Auth.js's `CredentialsSignin` and a code, for every account alike. A
 * fetch-based client (`X-Auth-Return-Redirect`) gets 429 with the same `{ url }` Auth.js's `signIn()` reads.
 */
function lockedOutAnswer(ctx: RequestContext, retryAfterSeconds: number): ResponseInternal {
  const redirect = errorRedirect(ctx, errorFromType('CredentialsSignin'), 'too_many_attempts')
  const retryAfter = String(Math.max(1, Math.ceil(retryAfterSeconds)))
  if (ctx.req.header('x-auth-return-redirect')) {
    return {
      status: 429,
      body: { url: redirect.redirect },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': retryAfter },
      cookies: ctx.setCookies,
    }
  }
  return { ...redirect, headers: { 'retry-after': retryAfter } }
}

/** Signs a user in with the credentials they posted. */
export function credentialsCallbackAction(
  ctx: RequestContext,
  provider: CredentialsConfig,
): ResponseInternal | Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const callbackUrl = requestedCallbackUrl(ctx) ?? ''
  const limits = failureLimitsFor(ctx, provider)
  const event = {
    type: 'CREDENTIALS_SUBMITTED',
    providerId: provider.id,
    callbackUrl,
    csrfVerified: ctx.csrfVerified,
    now: ctx.now,
    maxFailures: limits.maxFailures,
    maxClientFailures: limits.maxClientFailures,
    lockoutSeconds: limits.lockoutSeconds,
    accountReadable: !limits.accountMalformed,
    knownDevice: limits.knownDevice,
  }
  const final = runMachine(
    ctx,
    ctx.config.machines.credentials,
    event,
    credentialsEffects(env, provider, sessionIssuerFor(ctx.config), limits.input, secondFactorInputFor(ctx)),
  )
  const answer = (ran: CredentialsResult) => {
    // The password was right (its failures are cleared): the browser is a known device even if the code is still due.
    if (ran.value === 'signedIn' || awaitsSecondFactor(ran)) rememberDevice(ctx, provider.id, limits)
    if (awaitsSecondFactor(ran)) return secondFactorStop(ctx, 'credentials', ran)
    return credentialsAnswer(ctx, ran)
  }
  return final instanceof Promise ? final.then(answer) : answer(final)
}

/**
 * After the right credentials, the browser becomes a known device of the account (a new cookie, unless the one it
 * sent is already known for this account), so a lockout that strangers cause does not lock it out next time.
 */
function rememberDevice(ctx: RequestContext, providerId: string, limits: ResolvedFailureLimits): void {
  if (!limits.input.enabled || limits.input.account === undefined || limits.knownDevice) return
  ctx.setCookies.push(deviceCookieFor(ctx, providerId, limits.input.account))
}

/** A run of the credentials machine, with the session's cookie writes its handlers left in the scratch. */
type CredentialsResult = FlowResult<typeof credentialsMachine, Partial<SignInScratch>>

function credentialsAnswer(ctx: RequestContext, final: CredentialsResult): ResponseInternal {
  if (completedSignIn(final)) return signInAnswer(ctx, final)
  const output = final.output
  if (final.value === 'lockedOut') return lockedOutAnswer(ctx, output?.retryAfterSeconds ?? 1)
  const code = output?.error === 'CredentialsSignin' ? (output.errorCode ?? 'credentials') : undefined
  return errorRedirect(ctx, errorFromType(output?.error ?? 'CallbackRouteError'), code)
}
