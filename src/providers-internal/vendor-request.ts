/**
 * Profile requests that are not a plain bearer GET: vendors that want the access token (and sometimes the user's id
 * from the token response) in the query string, or a POST. They go through the provider's fetch, which the OAuth
 * effects have bound to `customFetch`, the loopback rule and the timeout, like `requestJsonWithBearer`.
 */
import { OAuthCallbackError } from '../errors.js'
import { customFetch, type FetchFunction } from '../types/symbols.js'

/** What a vendor request needs of the provider. */
export interface VendorRequestProvider {
  id: string
  [customFetch]?: FetchFunction
}

/**
 * Sends `init` to `url` and returns the JSON answer.
 * @throws OAuthCallbackError (`cause.check` `userinfo`) for a non-2xx answer
 */
export async function requestVendorJson(
  provider: VendorRequestProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<unknown> {
  const send = provider[customFetch] ?? fetch
  const headers = { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) }
  const response = await send(String(url), { ...init, headers })
  if (!response.ok) {
    const target = new URL(String(url))
    // The query is left out of the error: for these vendors it holds the access token.
    throw new OAuthCallbackError(`provider "${provider.id}" answered ${response.status} to a profile request`, {
      check: 'userinfo',
      status: response.status,
      url: `${target.origin}${target.pathname}`,
    })
  }
  return response.json()
}

/** `url` with `query` added to its search parameters. */
export function withQuery(url: string, query: Record<string, string | undefined>): URL {
  const out = new URL(url)
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out.searchParams.set(key, value)
  return out
}
