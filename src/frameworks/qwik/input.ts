/**
 * Validation of what `useSignIn` and `useSignOut` receive, whether a `<Form>` posted it (Qwik City turns the fields
 * into an object, `options.redirectTo` into a nested one) or `action.submit({...})` sent it. Bad input never reaches
 * `Auth()`: it comes back as the specification's `{ failed: true, fieldErrors, formErrors }`, one message list per
 * field. Pure functions: no Qwik, no I/O.
 */

/** The sign-in action's field errors: each field's messages, or undefined when the field is fine. */
export interface SignInFieldErrors {
  authorizationParams: string[] | undefined
  options: string[] | undefined
  providerId: string[] | undefined
  redirectTo: string[] | undefined
}

/** The sign-out action's field errors. */
export interface SignOutFieldErrors {
  redirectTo: string[] | undefined
}

/** Validation errors, the shape Qwik City's failed actions carry (without `failed`, which `fail()` adds). */
export interface InputErrors<F> {
  fieldErrors: F
  formErrors: string[]
}

export type Checked<T, F> = { ok: true; value: T } | { ok: false; errors: InputErrors<F> }

/** A valid sign-in request. */
export interface SignInRequest {
  providerId: string
  /** A path (or same-origin URL) on this site; undefined: the page the action was posted from. */
  redirectTo: string | undefined
  /** Sent to the provider's authorization endpoint (OAuth / OIDC) as query parameters. */
  authorizationParams: URLSearchParams
  /** The other string fields (user name and password of a credentials provider, e-mail address). */
  fields: Array<[string, string]>
}

export interface SignOutRequest {
  redirectTo: string | undefined
}

export const messages = {
  notAnObject: 'Expected the form fields as an object',
  providerRequired: 'Required: the id of a configured provider',
  providerNotString: 'Expected a string',
  providerUnknown: 'No provider with this id is configured',
  redirectNotString: 'Expected a string',
  redirectOffSite: 'Expected a path on this site (starting with one "/") or a URL of this origin',
  authorizationParams: 'Expected a query string, URLSearchParams or an object of strings',
  optionsNotObject: 'Expected an object',
  optionsRedirect: 'options.redirectTo: expected a path on this site (starting with one "/") or a URL of this origin',
} as const

/** Fields the actions read themselves; the rest go to the provider. */
const ownFields = new Set(['providerId', 'redirectTo', 'authorizationParams', 'options', 'callbackUrl', 'csrfToken'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof URLSearchParams)
}

/**
 * Whether `value` may be a place to land after sign-in or sign-out: a path of this site (`/x`, not `//host` nor
 * `/\host`, which browsers read as another host) or an absolute URL of `origin`. An open redirect is refused here,
 * before `Auth()`'s own `redirect` callback sees it.
 */
export function isOwnDestination(value: string, origin: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\')
  try {
    return new URL(value).origin === origin
  } catch {
    return false
  }
}

function checkRedirect(value: unknown, origin: string): { value?: string; errors?: string[] } {
  if (value === undefined || value === '') return {}
  if (typeof value !== 'string') return { errors: [messages.redirectNotString] }
  if (!isOwnDestination(value, origin)) return { errors: [messages.redirectOffSite] }
  return { value }
}

function checkAuthorizationParams(value: unknown): { value: URLSearchParams; errors?: string[] } {
  if (value === undefined || value === '') return { value: new URLSearchParams() }
  if (typeof value === 'string') return { value: new URLSearchParams(value) }
  if (value instanceof URLSearchParams) return { value: new URLSearchParams(value) }
  if (isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string')) {
    return { value: new URLSearchParams(value as Record<string, string>) }
  }
  return { value: new URLSearchParams(), errors: [messages.authorizationParams] }
}

/**
 * Checks the sign-in action's input. `providerIds` are the configured providers; `origin` the app's.
 * `options.redirectTo`, when given, wins over `redirectTo` (Auth.js's `signIn(provider, options)` order).
 */
export function checkSignInInput(
  data: unknown,
  providerIds: readonly string[],
  origin: string,
): Checked<SignInRequest, SignInFieldErrors> {
  const fieldErrors: SignInFieldErrors = {
    authorizationParams: undefined,
    options: undefined,
    providerId: undefined,
    redirectTo: undefined,
  }
  if (!isRecord(data)) return { ok: false, errors: { fieldErrors, formErrors: [messages.notAnObject] } }

  const providerId = data.providerId
  if (providerId === undefined || providerId === '') fieldErrors.providerId = [messages.providerRequired]
  else if (typeof providerId !== 'string') fieldErrors.providerId = [messages.providerNotString]
  else if (!providerIds.includes(providerId)) fieldErrors.providerId = [messages.providerUnknown]

  const redirect = checkRedirect(data.redirectTo, origin)
  fieldErrors.redirectTo = redirect.errors

  const params = checkAuthorizationParams(data.authorizationParams)
  fieldErrors.authorizationParams = params.errors

  let optionsRedirect: string | undefined
  if (data.options !== undefined && data.options !== '') {
    if (!isRecord(data.options)) fieldErrors.options = [messages.optionsNotObject]
    else {
      const checked = checkRedirect(data.options.redirectTo, origin)
      if (checked.errors) fieldErrors.options = [messages.optionsRedirect]
      optionsRedirect = checked.value
    }
  }

  if (Object.values(fieldErrors).some((entry) => entry !== undefined) || typeof providerId !== 'string') {
    return { ok: false, errors: { fieldErrors, formErrors: [] } }
  }
  const fields = new Map<string, string>()
  for (const [name, value] of Object.entries(data))
    if (!ownFields.has(name) && typeof value === 'string') fields.set(name, value)
  // As in @auth/qwik: the keys of `options` besides `redirectTo` go to the provider, so an Auth.js Qwik form's
  // `<input name="options.username">` (Qwik City nests it under `options`) reaches `authorize` as `username`.
  if (isRecord(data.options)) {
    for (const [name, value] of Object.entries(data.options))
      if (!ownFields.has(name) && typeof value === 'string') fields.set(name, value)
  }
  return {
    ok: true,
    value: {
      providerId,
      redirectTo: optionsRedirect ?? redirect.value,
      authorizationParams: params.value,
      fields: [...fields],
    },
  }
}

/** Checks the sign-out action's input: only `redirectTo`, optional. */
export function checkSignOutInput(data: unknown, origin: string): Checked<SignOutRequest, SignOutFieldErrors> {
  // A sign-out button without fields submits nothing at all.
  if (data === undefined || data === null) return { ok: true, value: { redirectTo: undefined } }
  if (!isRecord(data))
    return { ok: false, errors: { fieldErrors: { redirectTo: undefined }, formErrors: [messages.notAnObject] } }
  const redirect = checkRedirect(data.redirectTo, origin)
  if (redirect.errors) return { ok: false, errors: { fieldErrors: { redirectTo: redirect.errors }, formErrors: [] } }
  return { ok: true, value: { redirectTo: redirect.value } }
}
