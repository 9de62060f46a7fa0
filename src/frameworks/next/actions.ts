/**
 * `signIn`, `signOut` and `unstable_update` on the server: in Server Actions (and Route Handlers), where Next.js lets
 * code set cookies. Each checks that the request comes from a page of the app's origin, then calls `Auth()` on the
 * endpoint the browser would post to, with a CSRF token obtained from `Auth()` for this request, carries the cookies
 * `Auth()` sets onto the response with `cookies()`, and, for sign-in and sign-out, redirects by throwing Next's
 * redirect (what Next.js expects of a Server Action), or returns the URL with `redirect: false`.
 */
import { cookies, headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { AuthError, CredentialsSignin } from '../../errors.js'
import { createLogger, logRefusal } from '../../logger.js'
import { scalarText } from '../../security/scalar-text.js'
import type { Session } from '../../types/index.js'
import { callAuth } from '../web-handler.js'
import { mergeCookieHeader, parseSetCookie } from '../shared/set-cookie.js'
import type { PreparedNextConfig as NextAuthConfig } from './config.js'
import { appOrigin, comesFrom, type HeaderSource } from './origin.js'

/** What a sign-in accepts besides the provider: a form's data, or options with fields for the provider. */
export type SignInOptions<Redirect extends boolean = true> =
  FormData | ({ redirectTo?: string; redirect?: Redirect } & Record<string, unknown>)

export type AuthorizationParams = string[][] | Record<string, string> | string | URLSearchParams

export interface SignOutOptions<Redirect extends boolean = true> {
  redirectTo?: string
  redirect?: Redirect
}

/** The error a cross-site sign-in or sign-out throws (the Server Action then fails, as Next.js shows failures). */
export class CrossSiteActionRefused extends AuthError {}

/** The request's headers and the app's origin, after the cross-site check. */
async function sameSiteRequest(
  config: NextAuthConfig,
  what: string,
): Promise<{ headers: HeaderSource; origin: string }> {
  const requestHeaders = await headers()
  const origin = appOrigin(requestHeaders, config)
  if (!comesFrom(requestHeaders, origin)) {
    logRefusal(createLogger(config), 'csrf', { reason: `cross-site ${what} Server Action` })
    throw new CrossSiteActionRefused('Cross-site sign-in and sign-out requests are refused')
  }
  return { headers: requestHeaders, origin }
}

/** Sets each Set-Cookie line on the response through `cookies()`. */
async function setCookies(lines: string[]): Promise<void> {
  if (lines.length === 0) return
  const store = await cookies()
  for (const line of lines) {
    const cookie = parseSetCookie(line)
    if (cookie) store.set(cookie.name, cookie.value, cookie.options)
  }
}

/** A CSRF token from `Auth()` for this browser, and the cookie header that goes with it. */
async function csrf(
  config: NextAuthConfig,
  request: HeaderSource,
  origin: string,
): Promise<{ token: string; cookie: string }> {
  const cookie = request.get('cookie')
  const response = await callAuth(
    new Request(`${origin}${config.basePath}/csrf`, { headers: cookie ? { cookie } : {} }),
    config,
  )
  const body: unknown = response.ok ? await response.json().catch(() => null) : null
  const token = typeof body === 'object' && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== 'string') throw new AuthError('Sign-in is unavailable right now')
  await setCookies(response.headers.getSetCookie())
  return { token, cookie: mergeCookieHeader(cookie, response) }
}

/** Posts `body` to the auth endpoint `path` for the browser; its cookies go onto the response. */
async function post(
  config: NextAuthConfig,
  request: HeaderSource,
  origin: string,
  path: string,
  body: URLSearchParams | Record<string, unknown>,
): Promise<Response> {
  const { token, cookie } = await csrf(config, request, origin)
  const json = !(body instanceof URLSearchParams)
  const init = new Headers({
    'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
    'x-auth-return-redirect': '1',
    origin,
  })
  if (cookie) init.set('cookie', cookie)
  const payload = json ? JSON.stringify({ ...body, csrfToken: token }) : withToken(body, token)
  const response = await callAuth(
    new Request(`${origin}${path}`, { method: 'POST', headers: init, body: payload }),
    config,
  )
  await setCookies(response.headers.getSetCookie())
  return response
}

function withToken(fields: URLSearchParams, token: string): URLSearchParams {
  fields.set('csrfToken', token)
  return fields
}

async function answeredUrl(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null)
  const url = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined
  if (typeof url !== 'string')
    throw new AuthError(`Sign-in could not be completed (the server answered ${response.status})`)
  return url
}

interface ProviderShape {
  id?: unknown
  type?: unknown
}

function providerType(config: NextAuthConfig, id: string): string | undefined {
  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry() : entry) as ProviderShape
    if (provider.id === id && typeof provider.type === 'string') return provider.type
  }
  return undefined
}

function optionsRecord(options: SignInOptions<boolean> | undefined): Record<string, unknown> {
  if (options === undefined) return {}
  if (!(options instanceof FormData)) return options
  const record: Record<string, unknown> = {}
  for (const [name, value] of options) if (typeof value === 'string') record[name] = value
  // A form cannot post a boolean: `redirect=false` means what `redirect: false` means.
  if (record.redirect === 'false') record.redirect = false
  return record
}

/** The error the sign-in page's URL names, when it is the credentials' refusal (next-auth throws it too). */
function credentialsRefusal(url: string, origin: string): CredentialsSignin | undefined {
  let parsed: URL
  try {
    parsed = new URL(url, origin)
  } catch {
    return undefined
  }
  if (parsed.searchParams.get('error') !== 'CredentialsSignin') return undefined
  const error = new CredentialsSignin()
  error.code = parsed.searchParams.get('code') ?? error.code
  return error
}

/**
 * Signs in with `provider`: an OAuth or OIDC provider sends the browser to the provider, credentials and e-mail are
 * posted with the fields of `options` (a form's data, or an object). Without a known provider, the sign-in page.
 * A credentials sign-in that `authorize` refused throws `CredentialsSignin`, as next-auth's does.
 */
export async function signInAction(
  config: NextAuthConfig,
  provider: string | undefined,
  options: SignInOptions<boolean> | undefined,
  authorizationParams: AuthorizationParams | undefined,
): Promise<string> {
  const { headers: request, origin } = await sameSiteRequest(config, 'sign-in')
  const { redirect: shouldRedirect = true, redirectTo: given, callbackUrl, ...rest } = optionsRecord(options)
  const redirectTo =
    (typeof given === 'string' && given) ||
    (typeof callbackUrl === 'string' && callbackUrl) ||
    request.get('referer') ||
    '/'
  const type = provider ? providerType(config, provider) : undefined
  if (!provider || !type) {
    const page = `${config.basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`
    if (shouldRedirect !== false) redirect(page)
    return page
  }
  const fields = new URLSearchParams({ callbackUrl: redirectTo })
  for (const [name, value] of Object.entries(rest))
    if (value !== undefined && value !== null && !name.startsWith('$ACTION')) fields.set(name, scalarText(value))
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : ''
  const endpoint = type === 'credentials' ? 'callback' : 'signin'
  const response = await post(
    config,
    request,
    origin,
    `${config.basePath}/${endpoint}/${encodeURIComponent(provider)}${query}`,
    fields,
  )
  const url = await answeredUrl(response)
  if (type === 'credentials') {
    const refusal = credentialsRefusal(url, origin)
    if (refusal) throw refusal
  }
  if (shouldRedirect !== false) redirect(url)
  return url
}

/** Signs out; lands on `redirectTo` (default: the page it came from), or returns `{ redirect }` with `redirect: false`. */
export async function signOutAction(
  config: NextAuthConfig,
  options: SignOutOptions<boolean> = {},
): Promise<{ redirect: string }> {
  const { headers: request, origin } = await sameSiteRequest(config, 'sign-out')
  const redirectTo = options.redirectTo ?? request.get('referer') ?? '/'
  const response = await post(
    config,
    request,
    origin,
    `${config.basePath}/signout`,
    new URLSearchParams({ callbackUrl: redirectTo }),
  )
  const url = await answeredUrl(response)
  if (options.redirect !== false) redirect(url)
  return { redirect: url }
}

/** Updates the session (the `update` trigger of the jwt and session callbacks) and returns the new one. */
export async function updateAction(config: NextAuthConfig, data: unknown): Promise<Session | null> {
  // No cross-site check: what the session becomes is the app's code's choice (`data`), not the request's.
  const request = await headers()
  const origin = appOrigin(request, config)
  const response = await post(config, request, origin, `${config.basePath}/session`, { data })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok || typeof body !== 'object' || body === null || Object.keys(body).length === 0) return null
  return body as Session
}
