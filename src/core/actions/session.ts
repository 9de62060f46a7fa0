/**
 * GET /session (the check on every page view), POST /session (the app's `update()`), POST /signout: three events of
 * the session machine, each run through the one runtime.
 */
import type { ErrorType } from '../../errors.js'
import { databaseSessionEffects } from '../../effects/session/database-session.js'
import { jwtSessionEffects, type SessionHandlers } from '../../effects/session/jwt-session.js'
import type { EffectEnv } from '../../effects/shared/effect-env.js'
import type { SessionLogoutInput } from '../../effects/session/provider-logout.js'
import { oauthProviderFor } from '../oauth-providers.js'
import { readChunkedCookie } from '../../session/cookie-chunks.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { applySessionOutcome, effectEnv, runMachine } from '../effect-outcome.js'
import { privateNoStoreHeaders } from '../response.js'

/** The OIDC providers a sign-out also ends the session at (`endSessionAtProvider`), by id. */
function sessionLogoutInput(ctx: RequestContext): SessionLogoutInput {
  const requested = ctx.req.body?.provider
  return {
    endSessionProvider(id) {
      const configured = ctx.config.providersById.get(id)
      if (configured?.kind !== 'oauth' || configured.type !== 'oidc' || configured.endSessionAtProvider !== true)
        return undefined
      return oauthProviderFor(ctx, configured)
    },
    requestedProvider: typeof requested === 'string' && requested !== '' ? requested : undefined,
    accountsListable: typeof ctx.config.source.adapter?.listAccountsByUserId === 'function',
  }
}

function sessionEffects(ctx: RequestContext, env: EffectEnv): SessionHandlers {
  const raw = readChunkedCookie(ctx.cookies.sessionToken.name, ctx.req.cookies)
  const logout = sessionLogoutInput(ctx)
  if (ctx.config.session.strategy === 'database' && ctx.config.adapter)
    return databaseSessionEffects(env, ctx.config.adapter, raw, logout)
  return jwtSessionEffects(env, raw, logout)
}

async function runSessionMachine(
  ctx: RequestContext,
  env: EffectEnv,
  effects: SessionHandlers,
  kind: 'read' | 'update' | 'signOut',
) {
  const event =
    kind === 'read'
      ? { type: 'SESSION_REQUESTED', now: ctx.now, updateAge: ctx.config.session.updateAge }
      : kind === 'update'
        ? {
            type: 'SESSION_UPDATE_REQUESTED',
            csrfVerified: ctx.csrfVerified,
            now: ctx.now,
            updateAge: ctx.config.session.updateAge,
          }
        : {
            type: 'SIGNOUT_REQUESTED',
            csrfVerified: ctx.csrfVerified,
            callbackUrl: requestedCallbackUrl(ctx) ?? '',
            now: ctx.now,
          }
  const final = await runMachine(ctx, ctx.config.machines.session, event, effects)
  const context = final.context as { error?: ErrorType; redirectTo?: string; providerLogoutUrl?: string }
  return {
    state: final.value,
    error: context.error,
    redirectTo: context.redirectTo,
    providerLogoutUrl: context.providerLogoutUrl,
  }
}

/** GET or POST /session. */
export async function sessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const effects = sessionEffects(ctx, env)
  const isUpdate = ctx.req.method === 'POST'
  const result = await runSessionMachine(ctx, env, effects, isUpdate ? 'update' : 'read')
  if (result.state === 'failed' && result.error === 'MissingCSRF') {
    return {
      status: 403,
      body: { error: 'MissingCSRF' },
      headers: { 'cache-control': 'no-store' },
      cookies: ctx.setCookies,
    }
  }
  if (result.state === 'failed') env.outcome.clearSession = true
  applySessionOutcome(ctx, env.outcome)
  const body = result.state === 'active' ? (env.outcome.session ?? null) : null
  return { status: 200, body, headers: privateNoStoreHeaders, cookies: ctx.setCookies }
}

/** POST /signout: invalidate the session and go where the redirect callback says. */
export async function signOutAction(ctx: RequestContext): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const result = await runSessionMachine(ctx, env, sessionEffects(ctx, env), 'signOut')
  applySessionOutcome(ctx, env.outcome)
  if (result.state !== 'signedOut' || !result.redirectTo) {
    return errorRedirect(ctx, errorFromType(result.error ?? 'SignOutError'))
  }
  // RP-initiated logout: the provider first, which sends the browser on to `redirectTo`.
  return { redirect: result.providerLogoutUrl ?? result.redirectTo, cookies: ctx.setCookies }
}
