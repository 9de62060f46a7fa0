/**
 * The e-mail sign-in's trace cookie. The sign-in's requests (the form post that sends the mail, the link's
 * confirmation page, its POST) keep no flow record between them, so the first one's W3C trace context rides in a
 * cookie of its own, and the link opened in the same browser continues that trace (docs/observability.md).
 *
 * Set only when an OpenTelemetry SDK records the form post: with tracing off the response carries nothing new. The
 * value is the `traceparent` alone (version, trace id, span id, flags), never anything about the person or the flow;
 * the runtime ignores a value that is not one (a new trace begins), so a forged cookie is never an error.
 */
import { verificationTokenMaxAge } from '../effects/email/verification-token.js'
import type { EmailConfig } from '../types/providers.js'
import type { RequestContext } from './context.js'
import { flowMaxAge } from './cookie-set.js'

/** A `traceparent` is 55 characters; anything longer is not one and is not handed on. */
const maxValueLength = 55

/** The trace context the request's cookie carries, for the runtime to continue (or to ignore when malformed). */
export function emailTraceOf(ctx: RequestContext): string | undefined {
  const value = ctx.req.cookies.get(ctx.cookies.emailTrace.name)
  return typeof value === 'string' && value.length <= maxValueLength ? value : undefined
}

/**
 * Keeps the sign-in's trace context for its next request: after the form post until the link comes back (no longer
 * than the link is good for); after a confirmation page that began a trace of its own (the link opened on another
 * device, or with a cookie that was not a trace context) until its POST, like a waiting flow's cookie.
 * @param traceparent the run's context, undefined when no SDK records it (then nothing is set)
 */
export function keepEmailTrace(
  ctx: RequestContext,
  provider: EmailConfig,
  half: 'request' | 'confirmation',
  traceparent: string | undefined,
): void {
  if (traceparent === undefined) return
  const { name, options } = ctx.cookies.emailTrace
  const tokenLife = verificationTokenMaxAge(provider)
  const maxAge = half === 'request' ? tokenLife : Math.min(tokenLife, flowMaxAge)
  ctx.setCookies.push({ name, value: traceparent, options: { ...options, maxAge } })
}

/** The sign-in ended: its trace cookie, if the browser sent one, goes. */
export function clearEmailTrace(ctx: RequestContext): void {
  const { name, options } = ctx.cookies.emailTrace
  if (ctx.req.cookies.has(name)) ctx.setCookies.push({ name, value: '', options: { ...options, maxAge: 0 } })
}
