/** Who the client is, for the request limits: only from a header the app said it trusts, never a guess. */
import type { RequestContext } from './context.js'

/** Longest client key kept: a header can be long, a key need not be. */
const maxClientKeyLength = 200

/**
 * The app's own `clientKey(request)` when it gave one; else, when the config sets `trustHost: true` (a proxy in front
 * sets the header), the last `X-Forwarded-For` hop: the address the proxy nearest the app saw. Earlier hops are
 * whatever the client sent, since proxies append to the header they were given: a key taken from them would let a
 * client escape its limit by sending a new one each time, or lock another client out by sending that client's
 * address. Undefined otherwise, and only per-account or per-address limits apply.
 */
export function clientKeyOf(
  ctx: RequestContext,
  custom: ((request: Request) => string | undefined) | undefined,
): string | undefined {
  if (custom) {
    const key = custom(ctx.req.request)
    return typeof key === 'string' ? key.slice(0, maxClientKeyLength) || undefined : undefined
  }
  if (ctx.config.source.trustHost !== true) return undefined
  const forwarded = ctx.req.header('x-forwarded-for')
  if (!forwarded) return undefined
  return (
    forwarded
      .slice(forwarded.lastIndexOf(',') + 1)
      .trim()
      .slice(0, maxClientKeyLength) || undefined
  )
}
