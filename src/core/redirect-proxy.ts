/**
 * Redirect proxy (`redirectProxyUrl`): preview deployments share one callback URL registered at the provider. The
 * flow's `state` then names the callback URL of the deployment that began the flow; the deployment at the proxy URL
 * receives the provider's callback, reads that name (only a deployment with the same secret can), and sends the
 * browser on to that callback with the provider's parameters unchanged. The beginning deployment then checks `state`
 * against its flow cookie as usual, so the name grants nothing by itself.
 *
 * `state` is written as Auth.js writes it, so an Auth.js deployment and an Authchart deployment can sit on either side
 * of one proxy while an app moves: a JWT encrypted as session tokens are (`dir` + `A256CBC-HS512`, key derived from
 * the first secret with the salt `encodedState`), holding `{ origin: <callback URL>, random }` and expiring after
 * 15 minutes. On the proxy a `state` that cannot be decoded is `InvalidCheck` ("State could not be decoded"), as there.
 *
 * The name must not come from a request header: a forged `Host` at sign-in would otherwise make the proxy hand the
 * victim's code to the attacker's host. So a deployment seals its configured origin (`url` / `AUTH_URL`) and,
 * without one, starts a proxied sign-in only for an origin on `redirectProxyAllowedOrigins`; and the proxy forwards
 * only to origins on that list (Auth.js forwards anywhere: docs/security.md).
 */
import { InvalidCheck, OAuthCallbackError, type AuthError } from '../errors.js'
import { decodeSync, encodeSync } from '../jwt.js'
import { asLoggedRefusal, logRefusal } from '../logger.js'
import { randomToken } from '../security/random.js'
import type { RequestContext } from './context.js'

/** Auth.js's key-derivation salt for an encoded `state`, and its lifetime. */
const stateSalt = 'encodedState'
const stateMaxAge = 15 * 60

/** What Auth.js puts into an encoded `state`: where the callback must go, and randomness of its own. */
interface EncodedState {
  origin?: unknown
  random?: unknown
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
  return encodeSync<EncodedState>({
    token: { origin: callbackUrl, random: randomToken(32) },
    secret: ctx.config.secrets,
    salt: stateSalt,
    maxAge: stateMaxAge,
    now: ctx.now,
  })
}

/** What the proxy does with a callback: nothing (it is this deployment's own), forward it, or refuse it. */
export type ProxiedCallback = { forward: URL } | { refuse: AuthError } | undefined

/**
 * The proxy's part of a callback. Only a deployment at the proxy URL (`proxyCallbackUrl`'s origin is its own) looks
 * at `state`: undefined when this is not the proxy, when the callback has no state, or when the state names this very
 * deployment (its own sign-in, handled as usual); `forward` with the target for another deployment; `refuse` for a
 * state that cannot be decoded (`InvalidCheck`) or that names an origin off the allow-list. Refusals are logged.
 */
export function proxiedCallback(
  ctx: RequestContext,
  proxyCallbackUrl: string | undefined,
  state: string | null,
): ProxiedCallback {
  if (!proxyCallbackUrl || !state || new URL(proxyCallbackUrl).origin !== ctx.origin) return undefined
  const provider = ctx.req.providerId
  const decoded =
    state.length > 4096
      ? null
      : decodeSync<EncodedState>({ token: state, secret: ctx.config.secrets, salt: stateSalt, now: ctx.now })
  const target = typeof decoded?.origin === 'string' ? parseHttpUrl(decoded.origin) : undefined
  if (!target) {
    logRefusal(ctx.config.logger, 'redirect-proxy-state', { provider, reason: 'State could not be decoded' })
    // Auth.js passes this InvalidCheck to `logger.error`; an app's logger gets it too (the built-in one only the warn
    // line above).
    const refusal = asLoggedRefusal(new InvalidCheck('State could not be decoded'))
    ctx.config.logger.error(refusal)
    return { refuse: refusal }
  }
  if (target.origin === ctx.origin) return undefined
  if (!ctx.config.redirectProxyAllows(target.origin)) {
    logRefusal(ctx.config.logger, 'redirect-proxy-target', {
      provider,
      origin: target.origin,
      reason: 'state names an origin not on redirectProxyAllowedOrigins',
    })
    return { refuse: new OAuthCallbackError('State names an origin the proxy does not forward to', { provider }) }
  }
  target.search = ctx.req.url.search
  return { forward: target }
}

function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined
  } catch {
    return undefined
  }
}
