/**
 * The one browser client of every binding (SvelteKit's, SolidStart's and the React client of `authchart/react`):
 * sign-in and sign-out post a CSRF token fetched from `Auth()` (which also sets its cookie), as Auth's own pages do;
 * the server answers with the URL to go to (`X-Auth-Return-Redirect`), and the page goes there unless
 * `redirect: false`. It also reads the session, the CSRF token and the providers, and updates the session. Each
 * binding's client module is this core with its own default base path.
 */
import { scalarText } from '../../security/scalar-text.js'

/** Options of `signIn`. Other fields are posted to the provider (credentials, e-mail address). */
export interface SignInOptions<Redirect extends boolean = true> extends Record<string, unknown> {
  /** Where to land after signing in; default: the current page. */
  redirectTo?: string
  /** @deprecated use `redirectTo` */
  callbackUrl?: string
  /** `false`: do not navigate; the result tells what happened. */
  redirect?: Redirect
  /** Where the auth endpoints live; default: the binding's. */
  basePath?: string
}

/** Options of `signOut`. */
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

/** What a sign-out without redirect reports. */
export interface SignOutResponse {
  url: string
}

export type AuthorizationParams = string | Array<[string, string]> | Record<string, string> | URLSearchParams

/** A provider as `/providers` lists it. */
export interface ClientSafeProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
  redirectTo?: string
}

interface BrowserLocation {
  href: string
  reload(): void
}

/** What a binding's client module fixes. */
export interface BrowserClientOptions {
  /** Where the auth endpoints live when a call names no `basePath`. */
  basePath: string | (() => string)
  /** The module's name and what to use on the server instead, for the error outside a browser. */
  module: string
  onServer: string
  /** The origin to resolve paths against; default: the page's. Tests (and non-browser hosts) set it. */
  baseUrl?: string
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch
}

/** A client: every call of a binding's client module. */
export interface BrowserClient {
  signIn(providerId?: string, options?: SignInOptions<true>, authorizationParams?: AuthorizationParams): Promise<void>
  signIn(
    providerId: string,
    options: SignInOptions<false>,
    authorizationParams?: AuthorizationParams,
  ): Promise<SignInResponse>
  signOut(options?: SignOutOptions<true>): Promise<void>
  signOut(options: SignOutOptions<false>): Promise<SignOutResponse>
  /** The session, or null; `{}` from the server (signed out) is null. */
  getSession(basePath?: string): Promise<unknown>
  getCsrfToken(basePath?: string): Promise<string>
  getProviders(basePath?: string): Promise<Record<string, ClientSafeProvider> | null>
  /** POSTs `data` to `/session` (the `update` trigger of the jwt and session callbacks); the new session or null. */
  updateSession(data: unknown, basePath?: string): Promise<unknown>
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export function createBrowserClient(options: BrowserClientOptions): BrowserClient {
  const request = (input: string, init?: RequestInit) => (options.fetch ?? fetch)(input, init)
  const defaultBase = () => (typeof options.basePath === 'function' ? options.basePath() : options.basePath)
  const at = (basePath: string | undefined, path: string) =>
    `${options.baseUrl ?? ''}${basePath ?? defaultBase()}${path}`

  function pageLocation(): BrowserLocation {
    const location = (globalThis as { location?: BrowserLocation }).location
    if (!location) throw new Error(`${options.module} runs in the browser; on the server ${options.onServer}`)
    return location
  }

  function navigate(url: string): void {
    const location = pageLocation()
    location.href = url
    // A URL that differs only by its fragment does not load the page again.
    if (url.includes('#')) location.reload()
  }

  const here = () => options.baseUrl ?? pageLocation().href

  async function getCsrfToken(basePath?: string): Promise<string> {
    const response = await request(at(basePath, '/csrf'), { credentials: 'same-origin' })
    const body: unknown = await response.json()
    const token = isRecord(body) ? body.csrfToken : undefined
    if (typeof token !== 'string') throw new Error('the server sent no CSRF token')
    return token
  }

  async function getProviders(basePath?: string): Promise<Record<string, ClientSafeProvider> | null> {
    const response = await request(at(basePath, '/providers'), { credentials: 'same-origin' })
    if (!response.ok) return null
    const body: unknown = await response.json().catch(() => null)
    return isRecord(body) ? (body as Record<string, ClientSafeProvider>) : null
  }

  async function getSession(basePath?: string): Promise<unknown> {
    const response = await request(at(basePath, '/session'), { credentials: 'same-origin' })
    const body: unknown = await response.json().catch(() => null)
    if (!response.ok) throw new Error(`the session endpoint answered ${response.status}`)
    return isRecord(body) && Object.keys(body).length > 0 ? body : null
  }

  async function updateSession(data: unknown, basePath?: string): Promise<unknown> {
    const csrfToken = await getCsrfToken(basePath)
    const response = await request(at(basePath, '/session'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ csrfToken, data }),
    })
    const body: unknown = await response.json().catch(() => null)
    if (!response.ok) throw new Error(`the session endpoint answered ${response.status}`)
    return isRecord(body) && Object.keys(body).length > 0 ? body : null
  }

  function searchParam(url: string, name: string): string | undefined {
    try {
      return new URL(url, here()).searchParams.get(name) ?? undefined
    } catch {
      return undefined
    }
  }

  async function post(
    url: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; ok: boolean; url: string }> {
    const response = await request(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
      body: new URLSearchParams(fields),
    })
    const body: unknown = await response.json().catch(() => null)
    const target = isRecord(body) ? body.url : undefined
    if (typeof target !== 'string') throw new Error(`the server answered ${response.status} without a URL`)
    return { status: response.status, ok: response.ok, url: target }
  }

  function signIn(
    providerId?: string,
    options?: SignInOptions<true>,
    authorizationParams?: AuthorizationParams,
  ): Promise<void>
  function signIn(
    providerId: string,
    options: SignInOptions<false>,
    authorizationParams?: AuthorizationParams,
  ): Promise<SignInResponse>
  async function signIn(
    providerId?: string,
    signInOptions: SignInOptions<boolean> = {},
    authorizationParams?: AuthorizationParams,
  ): Promise<SignInResponse | void> {
    const { redirectTo: given, callbackUrl, redirect = true, basePath, ...rest } = signInOptions
    const redirectTo = given ?? callbackUrl ?? here()
    if (!providerId) return navigate(at(basePath, `/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`))
    const [token, providers] = await Promise.all([getCsrfToken(basePath), getProviders(basePath)])
    const type = providers?.[providerId]?.type
    const endpoint = type === 'credentials' ? 'callback' : 'signin'
    const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : ''
    const fields: Record<string, string> = {}
    for (const [name, value] of Object.entries(rest))
      if (value !== undefined && value !== null) fields[name] = scalarText(value)
    const result = await post(at(basePath, `/${endpoint}/${encodeURIComponent(providerId)}${query}`), {
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

  function signOut(options?: SignOutOptions<true>): Promise<void>
  function signOut(options: SignOutOptions<false>): Promise<SignOutResponse>
  async function signOut(signOutOptions: SignOutOptions<boolean> = {}): Promise<SignOutResponse | void> {
    const { redirectTo: given, callbackUrl, redirect = true, basePath } = signOutOptions
    const redirectTo = given ?? callbackUrl ?? here()
    const token = await getCsrfToken(basePath)
    const result = await post(at(basePath, '/signout'), { csrfToken: token, callbackUrl: redirectTo })
    if (redirect) return navigate(result.url)
    return { url: result.url }
  }

  return { signIn, signOut, getSession, getCsrfToken, getProviders, updateSession }
}
