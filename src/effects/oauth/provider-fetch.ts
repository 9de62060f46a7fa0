/**
 * The one function every request to a provider goes through: discovery, JWKS, token, userinfo, and the vendor
 * factories' own requests. It uses the provider's `customFetch` when set, refuses plain http beyond loopback hosts,
 * and gives up after the configured timeout.
 */
import type { CustomFetch } from 'openid-client'
import { InvalidEndpoints } from '../../errors.js'
import { isAllowedEndpointUrl } from '../../providers-internal/loopback-host.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { customFetch, type FetchFunction } from '../../types/symbols.js'

/** The fetch signature openid-client and jose both call with: a URL string and an init object. */
export type ProviderFetch = (url: string, init?: RequestInit) => Promise<Response>

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input
  return input instanceof URL ? input.href : input.url
}

/**
 * Builds the fetch for one provider.
 * @param provider the resolved provider; its `customFetch` (when set) does the actual I/O
 * @param timeoutMs milliseconds before a request (headers and body) is abandoned with a `TimeoutError`
 * @throws InvalidEndpoints (from the returned function) for an `http:` URL on a non-loopback host
 */
export function createProviderFetch(provider: OAuthConfigInternal, timeoutMs: number): ProviderFetch {
  const send: FetchFunction = provider[customFetch] ?? ((input, init) => fetch(input, init))
  return (url, init) => {
    const target = new URL(url)
    // Discovery documents name the other endpoints, so a configured https issuer could still point us at plain
    // http; this check covers every request, not only the configured URLs.
    if (!isAllowedEndpointUrl(target)) {
      return Promise.reject(
        new InvalidEndpoints('provider endpoint must use https (plain http only on loopback hosts)', {
          check: 'endpoint',
          origin: target.origin,
        }),
      )
    }
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    return send(urlOf(url), { ...init, signal }).then(withoutChallengeOnSuccess)
  }
}

/**
 * A challenge (`WWW-Authenticate`) belongs to a refusal (RFC 6750 §3: 401, 403). FusionAuth also sends one with its
 * successful token and userinfo answers, which oauth4webapi (under openid-client) reads as a refusal whatever the
 * status; Auth.js users strip it by hand. On a 2xx answer it says nothing, so it is dropped; a refusal keeps it.
 */
function withoutChallengeOnSuccess(response: Response): Response {
  if (!response.ok || !response.headers.has('www-authenticate')) return response
  const headers = new Headers(response.headers)
  headers.delete('www-authenticate')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/**
 * The provider as a vendor's `userinfo.request` (or `profile()`) should see it: its `customFetch` replaced by the
 * guarded, time-limited fetch, so the vendor's own requests obey the same rules as ours.
 */
export function withProviderFetch(provider: OAuthConfigInternal, providerFetch: ProviderFetch): OAuthConfigInternal {
  const guarded: FetchFunction = (input, init) => providerFetch(urlOf(input), init)
  return { ...provider, [customFetch]: guarded }
}

/** The provider fetch in the shape openid-client calls: its body type is wider than `RequestInit`'s. */
export function asOpenidClientFetch(providerFetch: ProviderFetch): CustomFetch {
  return (url, { body, ...init }) =>
    providerFetch(url, { ...init, body: body instanceof Uint8Array ? new Uint8Array(body) : body })
}
