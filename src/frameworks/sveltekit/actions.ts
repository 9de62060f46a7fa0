/**
 * The `signIn` and `signOut` form actions (routes `/signin` and `/signout`). Each checks that the post comes from
 * this origin, then calls `Auth()` on the same endpoint a browser would post to, carrying the form's CSRF token when
 * the form has one (the `SignIn` / `SignOut` components add it) and otherwise one obtained from `Auth()` for this
 * request, copies the cookies it sets, and redirects where `Auth()` says.
 */
import { error, redirect, type RequestEvent } from '@sveltejs/kit'
import { basePathOf, callAuth } from '../web-handler.js'
import type { SvelteKitAuthConfig } from './config.js'
import { isSameOrigin } from '../../security/same-origin.js'
import { forwardCookies, mergeCookieHeader } from '../shared/set-cookie.js'
import { withClient } from './client-address.js'

/**
 * SvelteKit's `redirect`, with the third argument SvelteKit 3 added: it refuses a URL on another origin unless told
 * `{ external: true }`. SvelteKit 2 takes two arguments and ignores a third. The URLs given here come from `Auth()`,
 * which sends browsers only to the app's own origin (the `redirect` callback) or to a configured provider.
 */
const kitRedirect: (status: 303, location: string, options?: { external: boolean }) => never = redirect

/** Form fields the actions read themselves; every other field goes to the provider (credentials, e-mail address). */
const ownFields = new Set(['providerId', 'redirectTo', 'callbackUrl', 'csrfToken'])

function refuseCrossSite(event: RequestEvent): void {
  if (!isSameOrigin(event.request, event.url.origin)) error(403, 'Cross-site sign-in and sign-out requests are refused')
}

async function readForm(event: RequestEvent): Promise<FormData> {
  try {
    return await event.request.formData()
  } catch {
    error(400, 'The form could not be read')
  }
}

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name)
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The CSRF token to send, and the cookie header that goes with it. */
async function csrfFor(
  event: RequestEvent,
  config: SvelteKitAuthConfig,
  submitted: string | undefined,
): Promise<{ token: string; cookie: string }> {
  const cookie = event.request.headers.get('cookie')
  // A token the page carried is checked by Auth() against the browser's cookie, as for any other client.
  if (submitted) return { token: submitted, cookie: cookie ?? '' }
  const response = await callAuth(
    new Request(`${event.url.origin}${basePathOf(config)}/csrf`, { headers: cookie ? { cookie } : {} }),
    config,
  )
  const body: unknown = response.ok ? await response.json().catch(() => null) : null
  const token = typeof body === 'object' && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== 'string') error(503, 'Sign-in is unavailable right now')
  forwardCookies(response, event.cookies)
  return { token, cookie: mergeCookieHeader(cookie, response) }
}

/** Posts `fields` to the auth endpoint `path` and follows `Auth()`'s answer: cookies onto the page, then a redirect. */
async function postToAuth(
  event: RequestEvent,
  config: SvelteKitAuthConfig,
  path: string,
  fields: URLSearchParams,
  submittedCsrf: string | undefined,
): Promise<never> {
  const { token, cookie } = await csrfFor(event, config, submittedCsrf)
  fields.set('csrfToken', token)
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    'x-auth-return-redirect': '1',
    origin: event.url.origin,
  })
  if (cookie) headers.set('cookie', cookie)
  // The post is the browser's own, made on its behalf: the limits count it against the browser's address.
  const response = await callAuth(
    withClient(new Request(`${event.url.origin}${path}`, { method: 'POST', headers, body: fields }), event),
    config,
  )
  forwardCookies(response, event.cookies)
  const body: unknown = await response.json().catch(() => null)
  const url = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined
  if (typeof url !== 'string') error(response.status >= 500 ? 503 : 400, 'Sign-in could not be completed')
  let external = false
  try {
    external = new URL(url, event.url).origin !== event.url.origin
  } catch {
    error(502, 'Sign-in could not be completed')
  }
  kitRedirect(303, url, { external })
}

interface ProviderShape {
  id?: unknown
  type?: unknown
}

function providerType(config: SvelteKitAuthConfig, id: string): string | undefined {
  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry() : entry) as ProviderShape
    if (provider.id === id && typeof provider.type === 'string') return provider.type
  }
  return undefined
}

/** The `signIn` form action: `providerId` names the provider; `redirectTo` where to land; other fields go along. */
export async function signInAction(event: RequestEvent, config: SvelteKitAuthConfig): Promise<never> {
  refuseCrossSite(event)
  const form = await readForm(event)
  const basePath = basePathOf(config)
  const redirectTo =
    field(form, 'redirectTo') ?? field(form, 'callbackUrl') ?? event.request.headers.get('referer') ?? '/'
  const providerId = field(form, 'providerId')
  if (!providerId) kitRedirect(303, `${basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`)
  const type = providerType(config, providerId)
  if (!type) error(400, 'Unknown sign-in provider')
  const fields = new URLSearchParams({ callbackUrl: redirectTo })
  for (const [name, value] of form) if (!ownFields.has(name) && typeof value === 'string') fields.append(name, value)
  // Authorization parameters (prompt, login_hint, ...) ride on the action's query string; `/…` keys name the action.
  const query = new URLSearchParams([...event.url.searchParams].filter(([name]) => !name.startsWith('/')))
  const endpoint = type === 'credentials' ? 'callback' : 'signin'
  const search = query.size > 0 ? `?${query}` : ''
  return postToAuth(
    event,
    config,
    `${basePath}/${endpoint}/${encodeURIComponent(providerId)}${search}`,
    fields,
    field(form, 'csrfToken'),
  )
}

/** The `signOut` form action: ends the session and lands on `redirectTo` (default: the page it came from). */
export async function signOutAction(event: RequestEvent, config: SvelteKitAuthConfig): Promise<never> {
  refuseCrossSite(event)
  const form = await readForm(event)
  const redirectTo =
    field(form, 'redirectTo') ?? field(form, 'callbackUrl') ?? event.request.headers.get('referer') ?? '/'
  return postToAuth(
    event,
    config,
    `${basePathOf(config)}/signout`,
    new URLSearchParams({ callbackUrl: redirectTo }),
    field(form, 'csrfToken'),
  )
}
