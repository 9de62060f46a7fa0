/**
 * OAuth providers resolved for one origin (their callback URL is part of the protocol), cached per config and
 * origin so discovery caches and validation happen once, not per request.
 */
import type { OAuthConfig, OAuthConfigInternal } from '../types/providers.js'
import { normalizeOAuthProvider } from '../providers-internal/normalize-oauth.js'
import type { ResolvedConfig } from './config.js'
import { actionUrl, type RequestContext } from './context.js'

const byConfig = new WeakMap<ResolvedConfig, Map<string, OAuthConfigInternal>>()
/** Origins a config is seen under are few (the site, perhaps a preview host); the cap only guards against abuse. */
const maxOriginsPerConfig = 64

/** The provider, normalised for this request's origin. */
export function oauthProviderFor(ctx: RequestContext, provider: OAuthConfig): OAuthConfigInternal {
  let cache = byConfig.get(ctx.config)
  if (!cache) {
    cache = new Map()
    byConfig.set(ctx.config, cache)
  }
  const key = `${ctx.origin} ${provider.id}`
  let resolved = cache.get(key)
  if (!resolved) {
    resolved = normalizeOAuthProvider(provider, {
      signinUrl: actionUrl(ctx, 'signin', provider.id),
      callbackUrl: actionUrl(ctx, 'callback', provider.id),
      redirectProxyUrl: ctx.config.redirectProxyUrl,
    })
    if (cache.size >= maxOriginsPerConfig * Math.max(1, ctx.config.providers.length)) cache.clear()
    cache.set(key, resolved)
  }
  return resolved
}
