/**
 * A JSON request with the user's access token, for vendor factories whose profile needs more than one plain GET
 * (GitHub's e-mail list, Dropbox's POST-only account endpoint). It goes through the provider's fetch, which the
 * OAuth effects have already bound to the provider's `customFetch`, the loopback rule and the timeout.
 */
import { OAuthCallbackError } from '../errors.js'
import { customFetch, type FetchFunction } from '../types/symbols.js'

/** What a bearer request needs of the provider: its id (for errors) and its fetch. */
export interface BearerRequestProvider {
  id: string
  [customFetch]?: FetchFunction
}

/** Options of `requestWithBearer`. */
export interface BearerRequestOptions {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  /** Whether a non-2xx answer is an error (default) or `undefined` (for optional data such as a profile photo). */
  optional?: boolean
  signal?: AbortSignal
}

/**
 * Sends an authenticated request and returns the response, or undefined for a failed optional request.
 * @throws OAuthCallbackError (`cause.check` `userinfo`) when a required request answers with an error status
 */
export async function requestWithBearer(
  provider: BearerRequestProvider,
  url: string,
  accessToken: string | undefined,
  options: BearerRequestOptions = {},
): Promise<Response | undefined> {
  const send = provider[customFetch] ?? fetch
  const response = await send(url, {
    method: options.method ?? 'GET',
    headers: { accept: 'application/json', authorization: `Bearer ${accessToken ?? ''}`, ...options.headers },
    ...(options.signal ? { signal: options.signal } : {}),
  })
  if (response.ok) return response
  if (options.optional) return undefined
  const target = new URL(url)
  throw new OAuthCallbackError(`provider "${provider.id}" answered ${response.status} to a profile request`, {
    check: 'userinfo',
    status: response.status,
    url: `${target.origin}${target.pathname}`,
  })
}

/** `requestWithBearer` for a required JSON answer. */
export async function requestJsonWithBearer(
  provider: BearerRequestProvider,
  url: string,
  accessToken: string | undefined,
  options: BearerRequestOptions = {},
): Promise<unknown> {
  const response = await requestWithBearer(provider, url, accessToken, { ...options, optional: false })
  return response?.json()
}
