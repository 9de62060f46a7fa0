/** POST /callback/:provider for a credentials provider: one run of the credentials machine. */
import type { ErrorType } from '../../errors.js'
import { credentialsEffects } from '../../effects/credentials/credentials-flow.js'
import type { CredentialsConfig } from '../../types/providers.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { applySessionOutcome, effectEnv, runMachine } from '../effect-outcome.js'
import { sessionIssuerFor } from '../session-issuer.js'

/** Signs a user in with the credentials they posted. */
export async function credentialsCallbackAction(
  ctx: RequestContext,
  provider: CredentialsConfig,
): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const callbackUrl = requestedCallbackUrl(ctx) ?? ''
  const event = {
    type: 'CREDENTIALS_SUBMITTED',
    providerId: provider.id,
    callbackUrl,
    csrfVerified: ctx.csrfVerified,
    now: ctx.now,
  }
  const final = await runMachine(
    ctx,
    ctx.config.machines.credentials,
    event,
    credentialsEffects(env, provider, sessionIssuerFor(ctx.config)),
  )
  const context = final.context as { error?: ErrorType; errorCode?: string; redirectTo?: string }
  if (final.value === 'signedIn' || final.value === 'redirected') {
    applySessionOutcome(ctx, env.outcome)
    return { redirect: context.redirectTo as string, cookies: ctx.setCookies }
  }
  const code = context.error === 'CredentialsSignin' ? (context.errorCode ?? 'credentials') : undefined
  return errorRedirect(ctx, errorFromType(context.error ?? 'CallbackRouteError'), code)
}
