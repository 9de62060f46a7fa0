/**
 * Browser-side sign-in and sign-out for SvelteKit pages (`authchart/sveltekit/client`). Each call first fetches a
 * CSRF token from `Auth()` (which also sets its cookie) and posts it with the form, as Auth's own pages do; the
 * server answers with the URL to go to (`X-Auth-Return-Redirect`), and the page goes there unless `redirect: false`.
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from 'authchart/sveltekit/client'
 * </script>
 * <button onclick={() => signIn('github')}>Sign in with GitHub</button>
 * <button onclick={() => signOut()}>Sign out</button>
 * ```
 * @module frameworks/sveltekit/client
 */
import { scalarText } from '../../security/scalar-text.js'

/** Options of {@link signIn}. Other fields are posted to the provider (credentials, e-mail address). */
export interface SignInOptions<Redirect extends boolean = true> extends Record<string, unknown> {
  /** Where to land after signing in; default: the current page. */
  redirectTo?: string
  /** @deprecated use `redirectTo` */
  callbackUrl?: string
  /** `false`: do not navigate; the result tells what happened. */
  redirect?: Redirect
  /** Where the auth endpoints live; default `/auth` (prefix SvelteKit's `base` path when the app has one). */
  basePath?: string
}

/** Options of {@link signOut}. */
export interface SignOutOptions<Redirect extends boolean = true> {
  redirectTo?: string
  /** @deprecated use `redirectTo` */
  callbackUrl?: string
  redirect?: Redirect
  basePath?: string
}

/** What a sign-in without redirect reports. */
export interface SignInResponse {
  error: string | undefined
  code: string | undefined
  status: number
  ok: boolean
  url: string | null
}

export type AuthorizationParams = string | Array<[string, string]> | Record<string, string> | URLSearchParams

interface BrowserLocation {
  href: string
  reload(): void
}

/** The page's location; this module only runs in the browser. */
function pageLocation(): BrowserLocation {
  const location = (globalThis as { location?: BrowserLocation }).location
  if (!location)
    throw new Error(
      'authchart/sveltekit/client runs in the browser; on the server use the signIn / signOut form actions',
    )
  return location
}

function navigate(url: string): void {
  const location = pageLocation()
  location.href = url
  // A URL that differs only by its fragment does not load the page again.
  if (url.includes('#')) location.reload()
}

async function csrfToken(basePath: string): Promise<string> {
  const response = await fetch(`${basePath}/csrf`, { credentials: 'same-origin' })
  const body: unknown = await response.json()
  const token = typeof body === 'object' && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== 'string') throw new Error('the server sent no CSRF token')
  return token
}

async function providerType(basePath: string, id: string): Promise<string | undefined> {
  const response = await fetch(`${basePath}/providers`, { credentials: 'same-origin' })
  const body: unknown = await response.json()
  const provider =
    typeof body === 'object' && body !== null ? (body as Record<string, { type?: unknown }>)[id] : undefined
  return typeof provider?.type === 'string' ? provider.type : undefined
}

function searchParam(url: string, name: string): string | undefined {
  try {
    return new URL(url, pageLocation().href).searchParams.get(name) ?? undefined
  } catch {
    return undefined
  }
}

async function post(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; ok: boolean; url: string }> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
    body: new URLSearchParams(fields),
  })
  const body: unknown = await response.json().catch(() => null)
  const target = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined
  if (typeof target !== 'string') throw new Error(`the server answered ${response.status} without a URL`)
  return { status: response.status, ok: response.ok, url: target }
}

/**
 * Signs in with `providerId`: OAuth and OIDC providers go to the provider, credentials and e-mail are posted with
 * the fields in `options`. Without a provider, opens the sign-in page.
 */
export async function signIn(
  providerId?: string,
  options?: SignInOptions<true>,
  authorizationParams?: AuthorizationParams,
): Promise<void>
export async function signIn(
  providerId: string,
  options: SignInOptions<false>,
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  providerId?: string,
  options: SignInOptions<boolean> = {},
  authorizationParams?: AuthorizationParams,
): Promise<SignInResponse | void> {
  const { redirectTo: given, callbackUrl, redirect = true, basePath = '/auth', ...rest } = options
  const redirectTo = given ?? callbackUrl ?? pageLocation().href
  if (!providerId) return navigate(`${basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`)
  const [token, type] = await Promise.all([csrfToken(basePath), providerType(basePath, providerId)])
  const endpoint = type === 'credentials' ? 'callback' : 'signin'
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : ''
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(rest))
    if (value !== undefined && value !== null) fields[name] = scalarText(value)
  const result = await post(`${basePath}/${endpoint}/${encodeURIComponent(providerId)}${query}`, {
    ...fields,
    csrfToken: token,
    callbackUrl: redirectTo,
  })
  if (redirect) return navigate(result.url)
  const error = searchParam(result.url, 'error')
  return {
    error,
    code: searchParam(result.url, 'code'),
    status: result.status,
    ok: result.ok && !error,
    url: error ? null : result.url,
  }
}

/** Signs out and lands on `redirectTo` (default: the current page), or reports the URL with `redirect: false`. */
export async function signOut(options?: SignOutOptions<true>): Promise<void>
export async function signOut(options: SignOutOptions<false>): Promise<{ url: string }>
export async function signOut(options: SignOutOptions<boolean> = {}): Promise<{ url: string } | void> {
  const { redirectTo: given, callbackUrl, redirect = true, basePath = '/auth' } = options
  const redirectTo = given ?? callbackUrl ?? pageLocation().href
  const token = await csrfToken(basePath)
  const result = await post(`${basePath}/signout`, { csrfToken: token, callbackUrl: redirectTo })
  if (redirect) return navigate(result.url)
  return { url: result.url }
}
