/**
 * GET /session (the check on every page view), POST /session (the app's `update()`), POST /signout: three events of
 * the session machine, each run through the one runtime.
 */
import { clearEnrolmentPending } from '../enrolment-sign-in.js'
import type { ErrorType } from '../../errors.js'
import { databaseSessionEffects } from '../../effects/session/database-session.js'
import { jwtSessionEffects, type SessionHandlers } from '../../effects/session/jwt-session.js'
import type { SessionScratch } from '../../effects/session/session-scratch.js'
import type { EffectEnv } from '../../effects/shared/effect-env.js'
import type { SessionLogoutInput } from '../../effects/session/provider-logout.js'
import { oauthProviderFor } from '../oauth-providers.js'
import { readChunkedCookie } from '../../session/cookie-chunks.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { applySessionOutcome, effectEnv, runMachine } from '../effect-outcome.js'
import type { FlowResult } from '../../flow/runtime.js'
import type { sessionMachine } from '../../../machines/session.js'
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

interface SessionRunResult {
  state: string
  error?: ErrorType
  redirectTo?: string
  providerLogoutUrl?: string
  /** The cookie writes and the client's session the handlers left in the run's scratch. */
  scratch: Partial<SessionScratch>
}

function sessionRunResult(final: FlowResult<typeof sessionMachine, Partial<SessionScratch>>): SessionRunResult {
  return {
    state: final.value,
    error: final.output?.error,
    redirectTo: final.output?.redirectTo,
    providerLogoutUrl: final.output?.providerLogoutUrl,
    scratch: final.scratch,
  }
}

/** Runs the session machine for this request; without a promise when its handlers answer at once. */
function runSessionMachine(
  ctx: RequestContext,
  effects: SessionHandlers,
  kind: 'read' | 'update' | 'signOut',
): SessionRunResult | Promise<SessionRunResult> {
  // A JWT session's cookie is sealed anew on every check, its expiry moved `maxAge` on, as Auth.js does (Auth.js
  // ignores `updateAge` for JWTs). An app that sets `updateAge` itself has the JWT rewritten at most that often: the
  // check then costs about half as much (docs/sessions.md).
  const jwtEveryCheck = ctx.config.session.strategy === 'jwt' && ctx.config.source.session?.updateAge === undefined
  const updateAge = jwtEveryCheck ? 0 : ctx.config.session.updateAge
  const event =
    kind === 'read'
      ? { type: 'SESSION_REQUESTED', now: ctx.now, updateAge }
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
  const final = runMachine(ctx, ctx.config.machines.session, event, effects)
  return final instanceof Promise ? final.then(sessionRunResult) : sessionRunResult(final)
}

function sessionAnswer(ctx: RequestContext, result: SessionRunResult): ResponseInternal {
  if (result.state === 'failed' && result.error === 'MissingCSRF') {
    return {
      status: 403,
      body: { error: 'MissingCSRF' },
      headers: { 'cache-control': 'no-store' },
      cookies: ctx.setCookies,
    }
  }
  const { scratch } = result
  if (result.state === 'failed') scratch.clearSession = true
  applySessionOutcome(ctx, scratch)
  const body = result.state === 'active' ? (scratch.session ?? null) : null
  return { status: 200, body, headers: privateNoStoreHeaders, cookies: ctx.setCookies }
}

/**
 * GET or POST /session. The check on every page view answers without a promise when nothing in it waits (the
 * built-in callbacks, a JWT session).
 */
export function sessionAction(ctx: RequestContext): ResponseInternal | Promise<ResponseInternal> {
  const effects = sessionEffects(ctx, effectEnv(ctx))
  const result = runSessionMachine(ctx, effects, ctx.req.method === 'POST' ? 'update' : 'read')
  return result instanceof Promise ? result.then((ran) => sessionAnswer(ctx, ran)) : sessionAnswer(ctx, result)
}

/** POST /signout: invalidate the session and go where the redirect callback says. */
export async function signOutAction(ctx: RequestContext): Promise<ResponseInternal> {
  const result = await runSessionMachine(ctx, sessionEffects(ctx, effectEnv(ctx)), 'signOut')
  applySessionOutcome(ctx, result.scratch)
  if (result.state !== 'signedOut' || !result.redirectTo) {
    return errorRedirect(ctx, errorFromType(result.error ?? 'SignOutError'))
  }
  // A sign-in held for enrolment ends with the sign-out too (it is no session, so the machine did not see it).
  clearEnrolmentPending(ctx)
  // RP-initiated logout: the provider first, which sends the browser on to `redirectTo`.
  return { redirect: result.providerLogoutUrl ?? result.redirectTo, cookies: ctx.setCookies }
}
