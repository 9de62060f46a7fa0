/**
 * One shape for an OAuth endpoint setting. A provider may give an endpoint as a URL string (possibly with a query),
 * or as `{ url, params, request, conform }`; everything downstream reads the object form this module produces.
 */
import type { EndpointHandler } from '../types/providers.js'

/** An endpoint after normalisation: the URL without its query, and the query merged into `params`. */
export interface OAuthEndpoint {
  url?: string
  params: Record<string, string>
  request?: Exclude<EndpointHandler, string>['request']
  conform?: Exclude<EndpointHandler, string>['conform']
}

/**
 * Turns any endpoint setting into an `OAuthEndpoint`. Query parameters written into the URL become `params`, with
 * explicit `params` winning. Non-string parameter values (OIDC's `claims` object) are sent as JSON.
 */
export function readEndpoint(handler: EndpointHandler | undefined): OAuthEndpoint {
  if (handler === undefined) return { params: {} }
  const { url: rawUrl, params: rawParams, request, conform } = typeof handler === 'string' ? { url: handler } : handler
  const params: Record<string, string> = {}
  let url: string | undefined
  if (rawUrl !== undefined) {
    const parsed = new URL(rawUrl)
    for (const [key, value] of parsed.searchParams) params[key] = value
    parsed.search = ''
    url = parsed.href
  }
  for (const [key, value] of Object.entries(rawParams ?? {})) {
    if (value === undefined || value === null) continue
    params[key] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  return { url, params, ...(request ? { request } : {}), ...(conform ? { conform } : {}) }
}

/** The endpoint's URL with its params appended as the query, or undefined when it has no URL. */
export function endpointUrlWithParams(endpoint: OAuthEndpoint): URL | undefined {
  if (!endpoint.url) return undefined
  const url = new URL(endpoint.url)
  for (const [key, value] of Object.entries(endpoint.params)) url.searchParams.set(key, value)
  return url
}
