/**
 * The callback URL a request asks for: the form's or JSON body's `callbackUrl`, else the query's, else (for pages)
 * the callback-url cookie. A value that is present but unusable (too long, control characters) is logged as the
 * refusal `callback-url` and ignored: the redirect callback then sends the user to the site's base URL.
 */
import { logRefusal } from '../logger.js'
import { readCallbackUrlInput } from '../security/redirect-target.js'
import type { RequestContext } from './context.js'

function accept(ctx: RequestContext, value: unknown, source: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const url = readCallbackUrlInput(value)
  if (url === undefined)
    logRefusal(ctx.config.logger, 'callback-url', {
      source,
      reason: 'unusable callbackUrl ignored (too long, or control characters)',
    })
  return url
}

/** The requested callback URL, or undefined when the request named none that can be used. */
export function requestedCallbackUrl(ctx: RequestContext, options: { cookie?: boolean } = {}): string | undefined {
  return (
    accept(ctx, ctx.req.body?.callbackUrl, 'body') ??
    accept(ctx, ctx.req.query.get('callbackUrl'), 'query') ??
    (options.cookie ? accept(ctx, ctx.req.cookies.get(ctx.cookies.callbackUrl.name), 'cookie') : undefined)
  )
}
