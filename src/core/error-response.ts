/**
 * What the user sees when something fails: a redirect to the sign-in or error page with one of the spec's `error`
 * values, or JSON for actions that answer JSON. The full error goes to the server log; the client never sees a
 * message or a stack.
 */
import { AuthError, CredentialsSignin, errorPageValue, errorPresentations, type ErrorType } from '../errors.js'
import { logRefusal } from '../logger.js'
import type { ResponseInternal } from '../types/index.js'
import { pageUrl, type RequestContext } from './context.js'

/** Redirect to the page that shows this error. */
export function errorRedirect(ctx: RequestContext, error: unknown, code?: string): ResponseInternal {
  const { page, value } = errorPageValue(error)
  const params: Record<string, string> = { error: value }
  const errorCode = code ?? (error instanceof CredentialsSignin ? error.code : undefined)
  if (value === 'CredentialsSignin' && errorCode) params.code = errorCode
  return { redirect: pageUrl(ctx, page, params), cookies: ctx.setCookies }
}

/** An `AuthError` standing for a machine's `context.error`. */
export function errorFromType(type: ErrorType, message = type): AuthError {
  const error = new AuthError(message)
  error.type = type
  error.kind = errorPresentations[type].page
  return error
}

/** The generic configuration-error body: it says where to look, and nothing else. */
export const configurationErrorBody = {
  message: 'There was a problem with the server configuration. Check the server logs for more information.',
}

/**
 * A provider route asked with a method it does not serve (`GET /callback/credentials`, a passkey callback by GET):
 * Auth.js's error page (`error=Configuration`), and one `refused:method` line, so that such a request is not silent.
 */
export function unservedMethod(ctx: RequestContext, providerId: string): ResponseInternal {
  logRefusal(ctx.config.logger, 'method', {
    provider: providerId,
    reason: `${ctx.req.method} is not served for this provider route`,
  })
  return errorRedirect(ctx, errorFromType('InvalidProvider'))
}
