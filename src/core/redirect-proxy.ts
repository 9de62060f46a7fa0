/**
 * Redirect proxy (`redirectProxyUrl`): preview deployments share one callback URL registered at the provider. The
 * flow's `state` is then a sealed note naming the callback URL of the deployment that began the flow; the deployment
 * at the proxy URL receives the provider's callback, opens the note (only a deployment with the same secret can),
 * and sends the browser on to that callback with the provider's parameters unchanged. The beginning deployment then
 * checks `state` against its flow cookie as usual, so the note grants nothing by itself.
 *
 * The note's callback must not come from a request header: a forged `Host` at sign-in would otherwise make the proxy
 * hand the victim's code to the attacker's host. So a deployment seals its configured origin (`url` / `AUTH_URL`)
 * and, without one, starts a proxied sign-in only for an origin on `redirectProxyAllowedOrigins`; and the proxy
 * forwards only to origins on that list.
 */
import { derivePurposeKey } from '../session/hkdf-keys.js'
import { openCompactJwe, sealCompactJwe } from '../session/jwe.js'
import { logRefusal } from '../logger.js'
import { randomToken } from '../security/random.js'
import type { RequestContext } from './context.js'

const purpose = 'redirect proxy state'

function keys(ctx: RequestContext): Uint8Array[] {
  return ctx.config.secrets.map((secret) => derivePurposeKey(secret, purpose, 32))
}

/**
 * Whether this deployment may start a proxied sign-in for its current origin: always with a configured origin
 * (nothing came from the request), else only for an allow-listed origin or the proxy's own. Logs the refusal.
 */
export function mayStartProxiedSignIn(
  ctx: RequestContext,
  proxyUrl: string,
  flowId: string,
  providerId: string,
): boolean {
  if (ctx.config.origin !== undefined) return true
  let proxyOrigin: string | undefined
  try {
    proxyOrigin = new URL(proxyUrl).origin
  } catch {
    proxyOrigin = undefined
  }
  if (ctx.origin === proxyOrigin || ctx.config.redirectProxyAllows(ctx.origin)) return true
  logRefusal(ctx.config.logger, 'redirect-proxy-origin', {
    flowId,
    provider: providerId,
    origin: ctx.origin,
    reason: 'origin is neither configured nor allow-listed',
  })
  return false
}

/** A fresh `state` that names where the callback must go: this deployment's callback URL for the provider. */
export function sealProxyState(ctx: RequestContext, callbackUrl: string): string {
  return sealCompactJwe(JSON.stringify({ c: callbackUrl, r: randomToken(16) }), keys(ctx)[0], 'A256GCM')
}

/**
 * Where a callback arriving at the proxy must go; undefined when it is not a proxied callback for another deployment
 * (no sealed state, sealed by another secret, or naming this very deployment); null when it is one, but for an origin
 * the proxy must not forward to (refused and logged).
 */
export function proxiedCallbackTarget(ctx: RequestContext, state: string | null): URL | null | undefined {
  if (!state || state.length > 2048) return undefined
  const opened = openCompactJwe(state, keys(ctx), ['A256GCM'])
  if (!opened) return undefined
  let callback: unknown
  try {
    callback = (JSON.parse(Buffer.from(opened.plaintext).toString('utf8')) as { c?: unknown }).c
  } catch {
    return undefined
  }
  if (typeof callback !== 'string') return undefined
  let target: URL
  try {
    target = new URL(callback)
  } catch {
    return undefined
  }
  if ((target.protocol !== 'https:' && target.protocol !== 'http:') || target.origin === ctx.origin) return undefined
  if (!ctx.config.redirectProxyAllows(target.origin)) {
    logRefusal(ctx.config.logger, 'redirect-proxy-target', {
      provider: ctx.req.providerId,
      origin: target.origin,
      reason: 'sealed callback names an origin not on redirectProxyAllowedOrigins',
    })
    return null
  }
  target.search = ctx.req.url.search
  return target
}
