/**
 * Merges the user's options (`provider.options`, what was passed to `GitHub({...})`) over a provider factory's
 * defaults. Plain objects merge deeply, so `authorization: { params: { prompt: 'consent' } }` keeps the factory's
 * URL and scope; endpoints given as strings are read into their object form first, so a factory default written as
 * `"https://…/authorize?scope=read_user"` merges the same way.
 */
import { customFetch } from '../types/symbols.js'
import { readEndpoint, type OAuthEndpoint } from './oauth-endpoint.js'
import type { EndpointHandler, OAuthConfig } from '../types/providers.js'

const endpointKeys = ['authorization', 'token', 'userinfo'] as const

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

function mergePlain(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    const current = out[key]
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergePlain(current, value) : value
  }
  return out
}

function mergeEndpoint(
  base: EndpointHandler | undefined,
  override: EndpointHandler | undefined,
): OAuthEndpoint | undefined {
  if (override === undefined) return base === undefined ? undefined : readEndpoint(base)
  // A URL string from the user replaces the endpoint outright, as it does in Auth.js.
  if (typeof override === 'string') return readEndpoint(override)
  const from = readEndpoint(base)
  const to = readEndpoint(override)
  return {
    url: to.url ?? from.url,
    params: { ...from.params, ...to.params },
    ...((to.request ?? from.request) ? { request: to.request ?? from.request } : {}),
    ...((to.conform ?? from.conform) ? { conform: to.conform ?? from.conform } : {}),
  }
}

/** The factory defaults with the user's options merged over them; `options` itself is dropped. */
export function mergeOAuthOptions(provider: OAuthConfig): OAuthConfig {
  const { options, ...defaults } = provider
  const overrides: Record<string, unknown> = isPlainObject(options) ? options : {}
  const merged = mergePlain(defaults, overrides)
  for (const key of endpointKeys) {
    const endpoint = mergeEndpoint(defaults[key], overrides[key] as EndpointHandler | undefined)
    if (endpoint) merged[key] = endpoint
    else delete merged[key]
  }
  // The type is the factory's decision (`oauth` or `oidc`): the user cannot turn one into the other.
  merged.type = defaults.type
  const userFetch = isPlainObject(options) ? (options as Pick<OAuthConfig, typeof customFetch>)[customFetch] : undefined
  const fetchFunction = userFetch ?? defaults[customFetch]
  const result = merged as unknown as OAuthConfig
  if (fetchFunction) result[customFetch] = fetchFunction
  return result
}
