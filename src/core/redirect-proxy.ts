/**
 * Redirect proxy (`redirectProxyUrl`): preview deployments share one callback URL registered at the provider. The
 * flow's `state` is then a sealed note naming the callback URL of the deployment that began the flow; the deployment
 * at the proxy URL receives the provider's callback, opens the note (only a deployment with the same secret can),
 * and sends the browser on to that callback with the provider's parameters unchanged. The beginning deployment then
 * checks `state` against its flow cookie as usual, so the note grants nothing by itself.
 */
import { derivePurposeKey } from '../session/hkdf-keys.js'
import { openCompactJwe, sealCompactJwe } from '../session/jwe.js'
import { randomToken } from '../security/random.js'
import type { RequestContext } from './context.js'

const purpose = 'redirect proxy state'

function keys(ctx: RequestContext): Uint8Array[] {
  return ctx.config.secrets.map((secret) => derivePurposeKey(secret, purpose, 32))
}

/** A fresh `state` that names where the callback must go: this deployment's callback URL for the provider. */
export function sealProxyState(ctx: RequestContext, callbackUrl: string): string {
  return sealCompactJwe(JSON.stringify({ c: callbackUrl, r: randomToken(16) }), keys(ctx)[0] as Uint8Array, 'A256GCM')
}

/**
 * Where a callback arriving at the proxy must go, or undefined when it is not a proxied callback for another
 * deployment (no sealed state, sealed by another secret, or naming this very deployment).
 */
export function proxiedCallbackTarget(ctx: RequestContext, state: string | null): URL | undefined {
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
  target.search = ctx.req.url.search
  return target
}
