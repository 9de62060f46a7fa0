/**
 * POST /signin/:provider and GET|POST /callback/:provider for OAuth and OIDC providers: the two requests of the
 * OAuth machine. In-flight values (state, nonce, PKCE verifier, callback URL) live in ONE flow cookie (or, with a
 * server-side flow store, behind the random id that cookie carries).
 */
import { FlowRejected } from '../../errors.js'
import { oauthFlowEffects, profileIsTheUser } from '../../effects/oauth/oauth-flow.js'
import { oauthRedirectUri, redirectProxyCallbackUrl } from '../../providers-internal/normalize-oauth.js'
import type { OAuthConfig, OAuthConfigInternal } from '../../types/providers.js'
import { randomToken } from '../../security/random.js'
import type { CookieSerializeOptions } from '../../types/cookies.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { RequestContext } from '../context.js'
import { flowMaxAge } from '../cookie-set.js'
import { logRefusal } from '../../logger.js'
import { errorFromType, errorRedirect } from '../error-response.js'
import { oauthProviderFor } from '../oauth-providers.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { awaitsSecondFactor, completedSignIn, secondFactorStop, signInAnswer } from './sign-in-answer.js'
import { secondFactorInputFor } from '../second-factor.js'
import { sessionIssuerFor } from '../session-issuer.js'
import { mayStartProxiedSignIn, proxiedCallback, sealProxyState } from '../redirect-proxy.js'
import { userResolutionFor } from '../user-resolution.js'

/** Seconds the machine waits for the callback before it answers "expired" (the store keeps the flow a little longer). */
const callbackWindow = 10 * 60

function flowCookieOptions(ctx: RequestContext, provider: OAuthConfigInternal): CookieSerializeOptions {
  const options = { ...ctx.cookies.flow.options }
  // form_post callbacks are cross-site POSTs: a Lax cookie would not come back with them. SameSite=None needs Secure.
  const params = typeof provider.authorization === 'object' ? provider.authorization?.params : undefined
  if (params?.response_mode === 'form_post' && ctx.secure) options.sameSite = 'none'
  return options
}

function clearFlowCookie(ctx: RequestContext): void {
  if (ctx.req.cookies.has(ctx.cookies.flow.name)) {
    ctx.setCookies.push({ name: ctx.cookies.flow.name, value: '', options: { ...ctx.cookies.flow.options, maxAge: 0 } })
  }
}

function authorizationParams(ctx: RequestContext): Record<string, string> {
  const params: Record<string, string> = {}
  for (const [key, value] of ctx.req.query) if (key !== 'callbackUrl') params[key] = value
  return params
}

/** POST /signin/:provider: build the authorization URL, persist the flow, send the browser to the provider. */
export async function oauthSignInAction(ctx: RequestContext, configured: OAuthConfig): Promise<ResponseInternal> {
  const provider = oauthProviderFor(ctx, configured)
  const env = effectEnv(ctx)
  const checks = provider.checks
  const flowId = randomToken(9)
  if (provider.redirectProxyUrl && !mayStartProxiedSignIn(ctx, provider.redirectProxyUrl, flowId, provider.id)) {
    return errorRedirect(ctx, errorFromType('OAuthSignInError'))
  }
  const event = {
    type: 'SIGNIN_STARTED',
    flowId,
    providerId: provider.id,
    csrfVerified: ctx.csrfVerified,
    now: ctx.now,
    expiresAt: ctx.now + callbackWindow,
    callbackUrl: requestedCallbackUrl(ctx) ?? '',
    // 128 bits each: unguessable, and short enough that pkce+state+nonce keep the Cookie header under 700 bytes.
    // Behind a redirect proxy the state is a sealed note naming this deployment's callback (src/core/redirect-proxy.ts).
    state: provider.redirectProxyUrl
      ? sealProxyState(ctx, provider.callbackUrl)
      : checks.includes('state')
        ? randomToken(16)
        : undefined,
    nonce: checks.includes('nonce') ? randomToken(16) : undefined,
    codeVerifier: checks.includes('pkce') ? randomToken() : undefined,
  }
  const handlers = oauthFlowEffects(env, {
    provider,
    redirectUri: oauthRedirectUri(provider),
    authorizationParams: authorizationParams(ctx),
    issueSession: sessionIssuerFor(ctx.config),
    users: profileIsTheUser,
    secondFactor: secondFactorInputFor(ctx),
  })
  const result = await runMachine(ctx, ctx.config.machines.oauth, event, handlers, {
    flowId,
    persistence: { store: ctx.config.flowStore, ref: null, maxAge: flowMaxAge },
  })
  const { authorizationUrl } = result.scratch
  if (result.status === 'active' && result.ref && authorizationUrl) {
    ctx.setCookies.push({ name: ctx.cookies.flow.name, value: result.ref, options: flowCookieOptions(ctx, provider) })
    return { redirect: authorizationUrl, cookies: ctx.setCookies }
  }
  const error = result.output?.error ?? 'OAuthSignInError'
  return errorRedirect(ctx, errorFromType(error))
}

/** Parameters only an authorization response carries (RFC 6749 §4.1.2, §4.1.2.1; JARM's `response`). */
const authorizationResponseParams = ['code', 'error', 'state', 'response', 'id_token']

function callbackParams(ctx: RequestContext): URLSearchParams {
  if (ctx.req.method === 'GET') return ctx.req.query
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(ctx.req.body ?? {})) if (typeof value === 'string') params.set(key, value)
  return params
}

/** GET|POST /callback/:provider: resume the flow, finish the sign-in, forget the flow. */
export async function oauthCallbackAction(ctx: RequestContext, configured: OAuthConfig): Promise<ResponseInternal> {
  if (ctx.req.method === 'GET') {
    // On the redirect proxy, a callback that another deployment began is sent there. Read before the provider is
    // resolved for a sign-in of our own: a proxy needs no client credentials to forward.
    const proxied = proxiedCallback(
      ctx,
      redirectProxyCallbackUrl(configured, ctx.config.redirectProxyUrl),
      ctx.req.query.get('state'),
    )
    if (proxied && 'forward' in proxied) return { redirect: proxied.forward.href, cookies: ctx.setCookies }
    if (proxied) return errorRedirect(ctx, proxied.refuse)
  }
  const provider = oauthProviderFor(ctx, configured)
  const ref = ctx.req.cookies.get(ctx.cookies.flow.name)
  const params = callbackParams(ctx)
  // A link preview or a stray bookmark is no answer from the provider: it must not end a sign-in under way.
  if (!authorizationResponseParams.some((name) => params.has(name))) {
    logRefusal(ctx.config.logger, 'callback-parameters', {
      provider: provider.id,
      reason: 'callback without authorization response parameters',
    })
    return errorRedirect(ctx, errorFromType('OAuthCallbackError'))
  }
  clearFlowCookie(ctx)
  if (!ref) {
    logRefusal(ctx.config.logger, 'flow-missing', { provider: provider.id, reason: 'callback without a flow cookie' })
    return errorRedirect(ctx, errorFromType('OAuthCallbackError'))
  }
  const env = effectEnv(ctx)
  const users = userResolutionFor(ctx, env)
  const event = {
    type: 'CALLBACK_RECEIVED',
    providerId: provider.id,
    state: params.get('state') ?? undefined,
    now: ctx.now,
    dangerousEmailLinking: provider.allowDangerousEmailAccountLinking === true,
  }
  const handlers = oauthFlowEffects(env, {
    provider,
    redirectUri: oauthRedirectUri(provider),
    callbackParams: params,
    issueSession: sessionIssuerFor(ctx.config),
    users,
    secondFactor: secondFactorInputFor(ctx),
  })
  let result
  try {
    result = await runMachine(ctx, ctx.config.machines.oauth, event, handlers, {
      persistence: { store: ctx.config.flowStore, ref, maxAge: flowMaxAge },
    })
  } catch (error) {
    // The runtime logged the refusal.
    if (!(error instanceof FlowRejected)) throw error
    return errorRedirect(ctx, errorFromType('OAuthCallbackError'))
  }
  if (awaitsSecondFactor(result)) return secondFactorStop(ctx, 'oauth', result)
  if (completedSignIn(result)) return signInAnswer(ctx, result)
  const error = result.output?.error
  return errorRedirect(ctx, errorFromType(error ?? 'OAuthCallbackError'))
}
