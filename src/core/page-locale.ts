/** The language of the built-in page a request gets, and the headers that say which one it is. */
import { choosePageLocale, type PageLocale } from '../pages/locale.js'
import type { RequestContext } from './context.js'

/** The configured page language, or the request's `Accept-Language` matched against the configured locales. */
export function pageLocaleOf(ctx: RequestContext): PageLocale {
  return choosePageLocale(ctx.config.pageLocales, ctx.req.header('accept-language'))
}

/**
 * The headers of a built-in HTML page. `Vary: Accept-Language` unless the language is fixed by configuration, so a
 * shared cache never serves one reader's language to another.
 */
export function pageHeaders(ctx: RequestContext, locale: PageLocale): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-language': locale.lang,
    ...(ctx.config.pageLocales.fixed ? {} : { vary: 'Accept-Language' }),
  }
}
