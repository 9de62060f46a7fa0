/**
 * POST /signin/:provider and GET|POST /callback/:provider for e-mail providers: one run of the e-mail machine per
 * request. The request half ends on the verify-request page; the link half shows the confirmation page (GET) or
 * consumes the token and signs in (POST, or GET with `dangerousConsumeOnGet`).
 */
import { MissingAdapter, UntrustedHost } from '../../errors.js'
import { emailFlowEffects } from '../../effects/email/email-flow.js'
import { renderEmailConfirmPage } from '../../pages/email-confirm-page.js'
import {
  defaultEmailRequestLimits,
  MemoryRequestCounter,
  type RequestCounter,
} from '../../providers-internal/email-request-limits.js'
import type { EmailConfig } from '../../types/providers.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import { clientKeyOf } from '../client-key.js'
import { actionUrl, pageUrl, type RequestContext } from '../context.js'
import { pageHeaders, pageLocaleOf } from '../page-locale.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { awaitsSecondFactor, completedSignIn, secondFactorStop, signInAnswer } from './sign-in-answer.js'
import { secondFactorInputFor } from '../second-factor.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { sessionIssuerFor } from '../session-issuer.js'
import { ensureCsrfToken } from './read-only.js'
import { logRefusal } from '../../logger.js'
import { outboundOrigin } from '../outbound-origin.js'
import { passkeysServed, signedInUserId } from '../user-resolution.js'
import { unprovenPasskeyCheck } from '../../effects/webauthn/unproven-passkey-account.js'
import { clearEmailTrace, emailTraceOf, keepEmailTrace } from '../email-trace-cookie.js'

/** One memory counter per provider config object, when the app configured no store. */
const memoryCounters = new WeakMap<EmailConfig, RequestCounter>()

function counterFor(provider: EmailConfig): RequestCounter {
  const configured = provider.rateLimit?.store
  if (configured) return configured
  let counter = memoryCounters.get(provider)
  if (!counter) memoryCounters.set(provider, (counter = new MemoryRequestCounter()))
  return counter
}

function flowInput(
  ctx: RequestContext,
  provider: EmailConfig,
  extra: { postedIdentifier?: unknown; linkToken?: string; linkIdentifier?: string; callbackBase?: string },
) {
  const adapter = ctx.config.adapter
  // Start-up validation refuses an e-mail provider without an adapter, so this is only reached through a bug.
  if (!adapter) throw new MissingAdapter('the e-mail provider needs an adapter')
  return {
    provider,
    adapter,
    secret: provider.secret ?? ctx.config.secrets[0],
    // The link half never builds a link; the request half passes the link's base from `outboundOrigin`.
    callbackBase: actionUrl(ctx, 'callback', provider.id),
    counter: counterFor(provider),
    windowSeconds: provider.rateLimit?.windowSeconds ?? defaultEmailRequestLimits.windowSeconds,
    clientKey: clientKeyOf(ctx, provider.rateLimit?.clientKey),
    issueSession: sessionIssuerFor(ctx.config),
    signedInUserId: () => signedInUserId(ctx),
    isUnprovenPasskeyAccount: unprovenPasskeyCheck(adapter, passkeysServed(ctx)),
    secondFactor: secondFactorInputFor(ctx),
    ...extra,
  }
}

function verifyRequestRedirect(ctx: RequestContext, provider: EmailConfig): ResponseInternal {
  return { redirect: pageUrl(ctx, 'verifyRequest', { provider: provider.id, type: 'email' }), cookies: ctx.setCookies }
}

/** POST /signin/:provider: check the address, store a token, send the link, show verify-request. */
export async function emailSignInAction(ctx: RequestContext, provider: EmailConfig): Promise<ResponseInternal> {
  // The link leaves the request: it is built only from a configured or allow-listed origin, never from `Host` alone.
  const linkOrigin = outboundOrigin(ctx)
  if (linkOrigin === undefined) {
    logRefusal(ctx.config.logger, 'outbound-origin', {
      provider: provider.id,
      origin: ctx.origin,
      reason: 'no url (AUTH_URL) and the request origin is not on allowedOrigins: no link is sent',
    })
    return errorRedirect(ctx, new UntrustedHost('the e-mail link would be built from the request Host'))
  }
  const env = effectEnv(ctx)
  const event = {
    type: 'SIGNIN_REQUESTED',
    providerId: provider.id,
    callbackUrl: requestedCallbackUrl(ctx) ?? '',
    csrfVerified: ctx.csrfVerified,
    now: ctx.now,
    addressLimit: provider.rateLimit?.perAddress ?? defaultEmailRequestLimits.perAddress,
    clientLimit: provider.rateLimit?.perClient ?? defaultEmailRequestLimits.perClient,
    addressCeiling: provider.rateLimit?.perAddressAllClients ?? defaultEmailRequestLimits.perAddressAllClients,
  }
  const handlers = emailFlowEffects(
    env,
    flowInput(ctx, provider, {
      postedIdentifier: ctx.req.body?.email,
      callbackBase: `${linkOrigin}${ctx.config.basePath}/callback/${encodeURIComponent(provider.id)}`,
    }),
  )
  const result = await runMachine(ctx, ctx.config.machines.email, event, handlers)
  const output = result.output
  // The link opened in this browser continues this request's trace (only a sent link comes back to continue it).
  if (result.value === 'verificationSent') keepEmailTrace(ctx, provider, 'request', result.traceparent)
  // Over the limit looks exactly like a sent link: the page tells no one which addresses exist or were asked for.
  if (result.value === 'verificationSent' || result.value === 'throttled') return verifyRequestRedirect(ctx, provider)
  if (result.value === 'redirected' && output?.redirectTo !== undefined)
    return { redirect: output.redirectTo, cookies: ctx.setCookies }
  return errorRedirect(ctx, errorFromType(output?.error ?? 'EmailSignInError'))
}

function linkValue(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.req.method === 'POST' ? ctx.req.body?.[name] : ctx.req.query.get(name)
  return typeof value === 'string' && value !== '' && value.length <= 1024 ? value : undefined
}

/** GET|POST /callback/:provider: the confirmation page, or the token consumed and the session issued. */
export async function emailCallbackAction(ctx: RequestContext, provider: EmailConfig): Promise<ResponseInternal> {
  const env = effectEnv(ctx)
  const linkToken = linkValue(ctx, 'token')
  const linkIdentifier = linkValue(ctx, 'email')
  const callbackUrl = requestedCallbackUrl(ctx) ?? ''
  const base = { providerId: provider.id, callbackUrl, linkIdentifier, hasToken: linkToken !== undefined, now: ctx.now }
  const event =
    ctx.req.method === 'POST'
      ? { type: 'LINK_CONFIRMED', ...base, csrfVerified: ctx.csrfVerified }
      : { type: 'LINK_FOLLOWED', ...base, consumeOnGet: provider.dangerousConsumeOnGet === true }
  const handlers = emailFlowEffects(env, flowInput(ctx, provider, { linkToken, linkIdentifier }))
  const traceparent = emailTraceOf(ctx)
  const result = await runMachine(ctx, ctx.config.machines.email, event, handlers, { traceparent })
  if (result.value === 'awaitingConfirmation') {
    // The POST continues the sign-in's trace: the one the browser brought, else the one this page began.
    if (result.traceparent !== traceparent) keepEmailTrace(ctx, provider, 'confirmation', result.traceparent)
    const locale = pageLocaleOf(ctx)
    const body = renderEmailConfirmPage({
      actionUrl: actionUrl(ctx, 'callback', provider.id),
      csrfToken: ensureCsrfToken(ctx),
      token: linkToken as string,
      email: linkIdentifier,
      callbackUrl: callbackUrl || undefined,
      theme: ctx.config.theme,
      locale,
    })
    // The page carries the token: never cached, never sent on as a Referer. Its one button signs in, so no other
    // site may frame it and trick a click (clickjacking): CSP frame-ancestors, and X-Frame-Options for old browsers.
    return {
      status: 200,
      body,
      headers: {
        ...pageHeaders(ctx, locale),
        'referrer-policy': 'no-referrer',
        'content-security-policy': "frame-ancestors 'none'",
        'x-frame-options': 'DENY',
      },
      cookies: ctx.setCookies,
    }
  }
  // Any other answer ends the sign-in, and its trace.
  clearEmailTrace(ctx)
  if (awaitsSecondFactor(result)) return secondFactorStop(ctx, 'email', result)
  if (completedSignIn(result)) return signInAnswer(ctx, result)
  return errorRedirect(ctx, errorFromType(result.output?.error ?? 'Verification'))
}
