/**
 * GET /webauthn-options/:provider and POST /callback/:provider for WebAuthn providers: the two requests of the
 * WebAuthn machine. The challenge waits in the flow store (the flow cookie, or behind the id it carries).
 */
import { FlowRejected, MissingAdapter, type ErrorType } from '../../errors.js'
import { SpentChallenges } from '../../effects/webauthn-challenges.js'
import { webAuthnEffects } from '../../effects/webauthn/webauthn-flow.js'
import { logRefusal } from '../../logger.js'
import type { WebAuthnConfig } from '../../types/providers.js'
import { randomToken } from '../../security/random.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import type { ResolvedConfig } from '../config.js'
import type { RequestContext } from '../context.js'
import { flowMaxAge } from '../cookie-set.js'
import { effectEnv, runMachine } from '../effect-outcome.js'
import { errorFromType, errorRedirect, unservedMethod } from '../error-response.js'
import { relyingPartyOf } from '../relying-party.js'
import { sessionIssuerFor } from '../session-issuer.js'
import { signedInUserId } from '../user-resolution.js'
import { awaitsSecondFactor, completedSignIn, secondFactorStop, signInAnswer } from './sign-in-answer.js'
import { secondFactorInputFor } from '../second-factor.js'

/** Seconds a challenge may be answered in (the flow store keeps the flow a little longer, so the machine says "expired"). */
export const challengeWindow = 5 * 60

const spentByConfig = new WeakMap<ResolvedConfig, SpentChallenges>()

function spentChallenges(config: ResolvedConfig): SpentChallenges {
  let spent = spentByConfig.get(config)
  if (!spent) spentByConfig.set(config, (spent = new SpentChallenges()))
  return spent
}

function json(status: number, body: Record<string, unknown>, ctx: RequestContext): ResponseInternal {
  return {
    status,
    body,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    cookies: ctx.setCookies,
  }
}

/** Where a refused passkey response sends the browser: back to the sign-in page, whose message invites a retry. */
function refused(ctx: RequestContext, type: ErrorType): ResponseInternal {
  const error = errorFromType(type)
  if (type === 'WebAuthnVerificationError') error.kind = 'signIn'
  return errorRedirect(ctx, error)
}

function webAuthnProviderOf(ctx: RequestContext): WebAuthnConfig | undefined {
  const id = ctx.req.providerId
  const provider = id === undefined ? undefined : ctx.config.providersById.get(id)
  return provider?.kind === 'webauthn' ? provider : undefined
}

function handlersFor(ctx: RequestContext, provider: WebAuthnConfig) {
  const env = effectEnv(ctx)
  const adapter = ctx.config.adapter
  // resolveConfig refuses a WebAuthn provider without an adapter; this keeps the types honest.
  if (!adapter) throw new MissingAdapter('WebAuthn requires an adapter')
  const handlers = webAuthnEffects(env, {
    provider,
    adapter,
    appAdapter: ctx.config.source.adapter,
    relyingParty: relyingPartyOf(ctx, provider),
    query: ctx.req.query,
    issueSession: sessionIssuerFor(ctx.config),
    spent: spentChallenges(ctx.config),
    secondFactor: secondFactorInputFor(ctx),
  })
  return { env, handlers }
}

/** GET /webauthn-options/:provider: decide register or authenticate, answer the options, keep the challenge. */
export async function webAuthnOptionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  if (!ctx.config.webAuthnEnabled)
    return json(
      400,
      {
        error: 'ExperimentalFeatureNotEnabled',
        message: 'WebAuthn is experimental: set experimental.enableWebAuthn to true',
      },
      ctx,
    )
  const provider = webAuthnProviderOf(ctx)
  if (!provider) return json(400, { error: 'InvalidProvider', message: 'Not a WebAuthn provider' }, ctx)
  const action = ctx.req.query.get('action')
  if (action !== null && action !== 'register' && action !== 'authenticate') {
    return json(400, { error: 'InvalidRequest', message: 'action must be "register" or "authenticate"' }, ctx)
  }
  const { handlers } = handlersFor(ctx, provider)
  const flowId = randomToken(9)
  const event = {
    type: 'OPTIONS_REQUESTED',
    flowId,
    providerId: provider.id,
    requested: action ?? undefined,
    signedInUserId: (await signedInUserId(ctx)) ?? undefined,
    // 256 bits; the browser gets it back as base64url in the options.
    challenge: randomToken(32),
    now: ctx.now,
    expiresAt: ctx.now + challengeWindow,
  }
  const result = await runMachine(ctx, ctx.config.machines.webauthn, event, handlers, {
    flowId,
    persistence: { store: ctx.config.flowStore, ref: null, maxAge: flowMaxAge },
  })
  const { options } = result.scratch
  if (result.status === 'active' && result.ref && options) {
    ctx.setCookies.push({ name: ctx.cookies.flow.name, value: result.ref, options: ctx.cookies.flow.options })
    // The flow waits for the browser's response: the action it decided is in the snapshot it keeps.
    return json(200, { action: result.context.action, options }, ctx)
  }
  return json(
    400,
    { error: result.output?.error ?? 'WebAuthnVerificationError', message: 'No passkey options for this request' },
    ctx,
  )
}

/** POST /callback/:provider: resume the flow with the browser's response, verify it, sign the user in. */
export async function webAuthnCallbackAction(ctx: RequestContext, provider: WebAuthnConfig): Promise<ResponseInternal> {
  if (ctx.req.method !== 'POST') return unservedMethod(ctx, provider.id)
  const ref = ctx.req.cookies.get(ctx.cookies.flow.name)
  if (ref)
    ctx.setCookies.push({ name: ctx.cookies.flow.name, value: '', options: { ...ctx.cookies.flow.options, maxAge: 0 } })
  if (!ref) {
    logRefusal(ctx.config.logger, 'webauthn-challenge', {
      provider: provider.id,
      reason: 'WebAuthn response without a challenge (no flow cookie)',
    })
    return refused(ctx, 'WebAuthnVerificationError')
  }
  const { handlers } = handlersFor(ctx, provider)
  const action = ctx.req.body?.action
  const event = {
    type: 'RESPONSE_RECEIVED',
    providerId: provider.id,
    action: typeof action === 'string' ? action : undefined,
    callbackUrl: requestedCallbackUrl(ctx) ?? '',
    csrfVerified: ctx.csrfVerified,
    // Read again now, not taken from the options request: the session may have changed in between.
    signedInUserId: (await signedInUserId(ctx)) ?? undefined,
    now: ctx.now,
  }
  let result
  try {
    result = await runMachine(ctx, ctx.config.machines.webauthn, event, handlers, {
      persistence: { store: ctx.config.flowStore, ref, maxAge: flowMaxAge },
    })
  } catch (error) {
    // The runtime logged the refusal (missing, forged, replayed or expired flow).
    if (!(error instanceof FlowRejected)) throw error
    return refused(ctx, 'WebAuthnVerificationError')
  }
  if (awaitsSecondFactor(result)) return secondFactorStop(ctx, 'webauthn', result)
  if (completedSignIn(result)) return signInAnswer(ctx, result)
  return refused(ctx, result.output?.error ?? 'WebAuthnVerificationError')
}
