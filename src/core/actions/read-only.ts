/** The actions that only read: GET /providers, GET /csrf, and the built-in pages. */
import { privateNoStoreHeaders } from '../response.js'
import { createCsrfToken } from '../../security/csrf.js'
import { renderSignInPage } from '../../pages/signin-page.js'
import {
  renderErrorPage,
  renderSignOutPage,
  renderUnknownProviderPage,
  renderVerifyRequestPage,
} from '../../pages/simple-pages.js'
import type { PublicProvider } from '../../types/providers.js'
import type { ResponseInternal } from '../../types/index.js'
import { requestedCallbackUrl } from '../callback-url.js'
import { actionUrl, pageUrl, type RequestContext } from '../context.js'
import { pageHeaders, pageLocaleOf } from '../page-locale.js'

/** The CSRF token of this browser, issuing one (and its cookie) when it has none. */
export function ensureCsrfToken(ctx: RequestContext): string {
  if (ctx.csrfCookieToken) return ctx.csrfCookieToken
  const { token, cookieValue } = createCsrfToken(ctx.config.secrets[0])
  ctx.setCookies.push({ name: ctx.cookies.csrfToken.name, value: cookieValue, options: ctx.cookies.csrfToken.options })
  ctx.csrfCookieToken = token
  return token
}

/** GET /providers: the client-safe list of providers. */
export function providersAction(ctx: RequestContext): ResponseInternal {
  const body: Record<string, PublicProvider> = {}
  for (const p of ctx.config.providers) {
    body[p.id] = {
      id: p.id,
      name: p.name,
      type: p.type,
      signinUrl: actionUrl(ctx, 'signin', p.id),
      callbackUrl: actionUrl(ctx, 'callback', p.id),
    }
  }
  return { status: 200, body, headers: { 'cache-control': 'no-store' } }
}

/** GET /csrf: `{ csrfToken }`, or 404 when the framework turned CSRF checks off. */
export function csrfAction(ctx: RequestContext): ResponseInternal {
  if (!ctx.config.csrfEnabled) return { status: 404, body: { error: 'NotFound' }, cookies: ctx.setCookies }
  const csrfToken = ensureCsrfToken(ctx)
  return { status: 200, body: { csrfToken }, headers: privateNoStoreHeaders, cookies: ctx.setCookies }
}

function pageCallbackUrl(ctx: RequestContext): string {
  return requestedCallbackUrl(ctx, { cookie: true }) ?? ctx.origin
}

/** The `error` query value, kept only when it is a plain identifier (it is echoed into a page and a URL). */
function requestedError(ctx: RequestContext): string | undefined {
  const error = ctx.req.query.get('error')
  return error && /^[A-Za-z]{1,40}$/.test(error) ? error : undefined
}

/** GET /signin: the built-in page, or a redirect to the app's own. */
export function signInPageAction(ctx: RequestContext): ResponseInternal {
  const callbackUrl = pageCallbackUrl(ctx)
  const error = requestedError(ctx)
  if (ctx.config.pages.signIn) {
    return { redirect: pageUrl(ctx, 'signIn', { callbackUrl, ...(error ? { error } : {}) }), cookies: ctx.setCookies }
  }
  const providers = ctx.config.providers.map((p) => ({
    id: p.id,
    name: p.name,
    type: p.type,
    signinUrl: actionUrl(ctx, 'signin', p.id),
    callbackUrl: actionUrl(ctx, 'callback', p.id),
    credentials: p.kind === 'credentials' ? p.credentials : undefined,
    style: p.kind === 'oauth' ? p.style : undefined,
    passkey:
      p.kind === 'webauthn'
        ? {
            basePath: `${ctx.origin}${ctx.config.basePath}`,
            formFields: p.formFields ?? {},
            conditional: p.enableConditionalUI === true,
          }
        : undefined,
  }))
  const locale = pageLocaleOf(ctx)
  const body = renderSignInPage({
    providers,
    csrfToken: ctx.config.csrfEnabled ? ensureCsrfToken(ctx) : '',
    callbackUrl,
    error,
    theme: ctx.config.theme,
    locale,
  })
  return { status: 200, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/** GET /signout: a confirmation form (sign-out itself is a POST, so a link cannot sign anyone out). */
export function signOutPageAction(ctx: RequestContext): ResponseInternal {
  if (ctx.config.pages.signOut) return { redirect: pageUrl(ctx, 'signOut'), cookies: ctx.setCookies }
  const callbackUrl = requestedCallbackUrl(ctx)
  const locale = pageLocaleOf(ctx)
  const body = renderSignOutPage({
    actionUrl: actionUrl(ctx, 'signout'),
    csrfToken: ctx.config.csrfEnabled ? ensureCsrfToken(ctx) : '',
    callbackUrl,
    theme: ctx.config.theme,
    locale,
  })
  return { status: 200, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/** GET /error: the error page for one of the spec's error values. */
export function errorPageAction(ctx: RequestContext): ResponseInternal {
  const error = requestedError(ctx) ?? 'Default'
  if (ctx.config.pages.error) return { redirect: pageUrl(ctx, 'error', { error }), cookies: ctx.setCookies }
  const status = error === 'Configuration' ? 500 : error === 'AccessDenied' ? 403 : error === 'Verification' ? 403 : 400
  const locale = pageLocaleOf(ctx)
  const body = renderErrorPage({
    error,
    homeUrl: ctx.origin,
    signInUrl: actionUrl(ctx, 'signin'),
    theme: ctx.config.theme,
    locale,
  })
  return { status, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/**
 * A sign-in address whose provider id is not configured: a 400 page naming the ids that are (an app with its own error
 * page gets the Configuration redirect Auth.js gives). The caller logs the InvalidProvider.
 */
export function unknownProviderPageAction(ctx: RequestContext): ResponseInternal {
  if (ctx.config.pages.error)
    return { redirect: pageUrl(ctx, 'error', { error: 'Configuration' }), cookies: ctx.setCookies }
  const locale = pageLocaleOf(ctx)
  const body = renderUnknownProviderPage({
    providerIds: ctx.config.providers.map((p) => p.id),
    homeUrl: ctx.origin,
    theme: ctx.config.theme,
    locale,
  })
  return { status: 400, body, headers: pageHeaders(ctx, locale), cookies: ctx.setCookies }
}

/** GET /verify-request: "check your e-mail". */
export function verifyRequestPageAction(ctx: RequestContext): ResponseInternal {
  if (ctx.config.pages.verifyRequest) return { redirect: pageUrl(ctx, 'verifyRequest'), cookies: ctx.setCookies }
  const locale = pageLocaleOf(ctx)
  return {
    status: 200,
    body: renderVerifyRequestPage({ homeUrl: ctx.origin, theme: ctx.config.theme, locale }),
    headers: pageHeaders(ctx, locale),
    cookies: ctx.setCookies,
  }
}
