/** Markers a configuration carries to change how `Auth()` behaves. */

/**
 * For framework authors whose framework already protects form posts: skips the built-in CSRF check,
 * and `GET /csrf` answers 404.
 *
 * > [!WARNING]
 * > Only set this when something else in front of Authchart verifies that POSTs come from your own pages.
 */
export const skipCSRFCheck = Symbol('skip-csrf-check')

/** For framework authors: `Auth()` returns the internal response instead of a `Response`. */
export const raw = Symbol('return-type-raw')

/** Key on a provider configuration that replaces the `fetch` used for that provider's endpoints. */
export const customFetch = Symbol('custom-fetch')

/** A fetch function, as `customFetch` takes it. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>
