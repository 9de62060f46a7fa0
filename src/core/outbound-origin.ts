/**
 * The origin something that leaves the request may be built from: a mailed link, a provider logout's
 * `post_logout_redirect_uri`. The configured URL (`url` / `AUTH_URL`) always; without one, the request's origin only
 * when it is on `allowedOrigins`, since with `trustHost` that origin is whatever `Host` the client sent
 * (docs/security.md, "The origin rule").
 */
import type { RequestContext } from './context.js'

/** The origin to build outgoing URLs from, or undefined when the request's origin is neither configured nor allowed. */
export function outboundOrigin(ctx: Pick<RequestContext, 'config' | 'origin'>): string | undefined {
  if (ctx.config.origin !== undefined) return ctx.config.origin
  return ctx.config.outboundAllows(ctx.origin) ? ctx.origin : undefined
}
