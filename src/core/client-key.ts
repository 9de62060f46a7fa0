/** Who the client is, for the request limits: from configuration and the socket, never from a header alone. */
import { clientAddress, clientLimitKey } from './client-address.js'
import type { RequestContext } from './context.js'

/** Longest client key kept: a header can be long, a key need not be. */
const maxClientKeyLength = 200

/**
 * The app's own `clientKey(request)` when it gave one; else the client's address (client-address.ts): the socket's
 * peer, or behind the proxies the config names in `trustedProxies`, the `X-Forwarded-For` hop the outermost trusted
 * proxy saw; an IPv6 client by its /64 (one host owns a /64). `trustHost` no longer makes the header trusted: it says
 * where the origin may come from, not who the client is. Undefined when the peer is unknown, and then only
 * per-account or per-address limits apply.
 */
export function clientKeyOf(
  ctx: RequestContext,
  custom: ((request: Request) => string | undefined) | undefined,
): string | undefined {
  if (custom) {
    const key = custom(ctx.req.request)
    return typeof key === 'string' ? key.slice(0, maxClientKeyLength) || undefined : undefined
  }
  const { trustedProxies } = ctx.config.source
  const forwarded = trustedProxies === undefined ? null : ctx.req.header('x-forwarded-for')
  const address = clientAddress(ctx.req.peerAddress, forwarded, trustedProxies)
  return address === undefined ? undefined : clientLimitKey(address).slice(0, maxClientKeyLength) || undefined
}
