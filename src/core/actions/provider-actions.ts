/**
 * POST /signin/:provider and GET|POST /callback/:provider, dispatched on the provider's kind. Each sign-in method
 * contributes its own entry; a method that does not serve a request answers with the sign-in page's generic error.
 */
import { InvalidProvider } from '../../errors.js'
import { logClientInput } from '../../logger.js'
import type { ResponseInternal } from '../../types/index.js'
import { pageUrl, type RequestContext } from '../context.js'
import { errorFromType, errorRedirect, unservedMethod } from '../error-response.js'
import type { MergedProvider } from '../provider-setup.js'
import type { ServedKind } from '../served-providers.js'
import { credentialsCallbackAction } from './credentials-callback.js'
import { emailCallbackAction, emailSignInAction } from './email.js'
import { oauthCallbackAction, oauthSignInAction } from './oauth.js'
import { signInPageAction, unknownProviderPageAction } from './read-only.js'
import { webAuthnCallbackAction } from './webauthn.js'

type ProviderHandler = (ctx: RequestContext, provider: MergedProvider) => ResponseInternal | Promise<ResponseInternal>

interface ProviderFlow {
  signIn?: ProviderHandler
  callback?: ProviderHandler
}

/** One entry per served kind (src/core/served-providers.ts): a kind missing or extra here is a type error. */
const flowOf: Readonly<Record<ServedKind, ProviderFlow>> = {
  credentials: {
    // Credentials are posted to the callback; a sign-in request just shows the form.
    signIn: (ctx) => ({ redirect: pageUrl(ctx, 'signIn'), cookies: ctx.setCookies }),
    callback: (ctx, provider) =>
      ctx.req.method === 'POST' && provider.kind === 'credentials'
        ? credentialsCallbackAction(ctx, provider)
        : unservedMethod(ctx, provider.id),
  },
  email: {
    signIn: (ctx, provider) =>
      provider.kind === 'email' && ctx.req.method === 'POST'
        ? emailSignInAction(ctx, provider)
        : unservedMethod(ctx, provider.id),
    callback: (ctx, provider) =>
      provider.kind === 'email' ? emailCallbackAction(ctx, provider) : unservedMethod(ctx, provider.id),
  },
  oauth: {
    signIn: (ctx, provider) =>
      provider.kind === 'oauth' && ctx.req.method === 'POST'
        ? oauthSignInAction(ctx, provider)
        : unservedMethod(ctx, provider.id),
    callback: (ctx, provider) =>
      provider.kind === 'oauth' ? oauthCallbackAction(ctx, provider) : unservedMethod(ctx, provider.id),
  },
  webauthn: {
    // Passkeys start in the browser (GET /webauthn-options); a sign-in request just shows the page.
    signIn: (ctx) => ({ redirect: pageUrl(ctx, 'signIn'), cookies: ctx.setCookies }),
    callback: (ctx, provider) =>
      provider.kind === 'webauthn' ? webAuthnCallbackAction(ctx, provider) : unservedMethod(ctx, provider.id),
  },
}

const flows: Readonly<Partial<Record<MergedProvider['kind'], ProviderFlow>>> = flowOf

export { servedProviderKinds } from '../served-providers.js'

function providerOf(ctx: RequestContext): MergedProvider | undefined {
  const id = ctx.req.providerId
  return id === undefined ? undefined : ctx.config.providersById.get(id)
}

/**
 * A provider id that is not configured: Auth.js's InvalidProvider is logged with the ids that are. A sign-in address
 * is typed or linked by the app, so its page names them too (Auth.js shows a bare "Server error" page). A callback
 * address is the one registered at a provider, so an unknown id there is the app's configuration, not the visitor's
 * doing: Auth.js's `error=Configuration` redirect, as its own tests expect (docs/migrating-from-authjs.md).
 */
function unknownProvider(ctx: RequestContext, route: 'sign-in' | 'callback'): ResponseInternal {
  logClientInput(ctx.config.logger, () => {
    const known = ctx.config.providers.map((p) => p.id).join(', ')
    return new InvalidProvider(
      `no ${route} for provider "${String(ctx.req.providerId ?? '').slice(0, 40)}"; known provider ids: ${known || 'none'}`,
    )
  })
  return route === 'callback' ? errorRedirect(ctx, errorFromType('InvalidProvider')) : unknownProviderPageAction(ctx)
}

/**
 * POST /signin/:provider. The dispatch adds no promise of its own: each one on the way costs the request a turn of the
 * microtask queue.
 */
export function signInAction(ctx: RequestContext): ResponseInternal | Promise<ResponseInternal> {
  const provider = providerOf(ctx)
  if (!provider) return unknownProvider(ctx, 'sign-in')
  const handler = flows[provider.kind]?.signIn
  if (!handler) {
    ctx.config.logger.error(new InvalidProvider(`no sign-in for provider "${provider.id}"`))
    return errorRedirect(ctx, errorFromType('InvalidProvider'))
  }
  return handler(ctx, provider)
}

/** GET /signin and GET /signin/:provider: the page, unless the id names no configured provider. */
export function signInPageForAction(ctx: RequestContext): ResponseInternal {
  return ctx.req.providerId !== undefined && !providerOf(ctx) ? unknownProvider(ctx, 'sign-in') : signInPageAction(ctx)
}

/** GET or POST /callback/:provider. */
export function callbackAction(ctx: RequestContext): ResponseInternal | Promise<ResponseInternal> {
  const provider = providerOf(ctx)
  if (!provider) return unknownProvider(ctx, 'callback')
  const handler = flows[provider.kind]?.callback
  if (!handler) {
    ctx.config.logger.error(new InvalidProvider(`no callback for provider "${provider.id}"`))
    return errorRedirect(ctx, errorFromType('InvalidProvider'))
  }
  return handler(ctx, provider)
}
