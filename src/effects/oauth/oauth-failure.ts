/**
 * How the OAuth client layer fails: one error class per phase (sign-in, callback, profile), and a named `check` in
 * `cause` saying which step refused. Details are limited to what is safe to log: never tokens, codes or secrets,
 * and provider-sent strings are cut short.
 */
import { AuthError, OAuthCallbackError, OAuthProfileParseError, OAuthSignInError } from '../../errors.js'

/** Steps of building the authorization URL. */
export type SignInCheck = 'discovery' | 'timeout' | 'endpoint' | 'params' | 'config'

/** Steps of handling the callback, in the order they run. */
export type CallbackCheck =
  | 'discovery'
  | 'iss'
  | 'state'
  | 'provider_error'
  | 'code'
  | 'pkce'
  | 'token_endpoint'
  | 'token_type'
  | 'id_token'
  | 'nonce'
  | 'userinfo'
  | 'userinfo_signature'
  | 'timeout'
  | 'endpoint'

/** Longest provider-sent string copied into a log record: enough to read, too short to smuggle a token. */
const maxLoggedLength = 200

/** A provider-sent value cut to a loggable length; non-strings become their type name. */
export function loggable(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') return `<${typeof value}>`
  return value.length > maxLoggedLength ? `${value.slice(0, maxLoggedLength)}…` : value
}

function causeOf(
  check: string,
  details: Record<string, unknown> | undefined,
  err: unknown,
): Record<string, unknown> & { err?: Error } {
  return { check, ...details, ...(err instanceof Error ? { err } : {}) }
}

/** An OAuthSignInError whose cause names the failed step. */
export function signInFailure(
  check: SignInCheck,
  message: string,
  details?: Record<string, unknown>,
  err?: unknown,
): OAuthSignInError {
  return new OAuthSignInError(message, causeOf(check, details, err))
}

/** An OAuthCallbackError whose cause names the failed step. */
export function callbackFailure(
  check: CallbackCheck,
  message: string,
  details?: Record<string, unknown>,
  err?: unknown,
): OAuthCallbackError {
  return new OAuthCallbackError(message, causeOf(check, details, err))
}

/** An OAuthProfileParseError: the provider's `profile()` threw or returned no usable id. */
export function profileFailure(
  message: string,
  details?: Record<string, unknown>,
  err?: unknown,
): OAuthProfileParseError {
  return new OAuthProfileParseError(message, causeOf('profile', details, err))
}

/**
 * The first AuthError in `err`'s cause chain. openid-client wraps whatever a custom fetch throws in its own
 * `ClientError`, so a check that fails inside our fetch wrapper comes back one or two causes deep.
 */
export function findAuthError(err: unknown): AuthError | undefined {
  let current: unknown = err
  for (let depth = 0; depth < 6 && current; depth++) {
    if (current instanceof AuthError) return current
    if (typeof current !== 'object') return undefined
    const cause: unknown = (current as { cause?: unknown }).cause
    current = cause instanceof AuthError ? cause : ((cause as { err?: unknown } | undefined)?.err ?? cause)
  }
  return undefined
}

/** Whether `err` (or something in its cause chain) is an abort caused by a timeout. */
export function isTimeout(err: unknown): boolean {
  let current: unknown = err
  for (let depth = 0; depth < 6 && current; depth++) {
    if (typeof current !== 'object') return false
    const { name, code } = current as { name?: unknown; code?: unknown }
    if (name === 'TimeoutError' || code === 'OAUTH_TIMEOUT' || name === 'JWKSTimeout' || code === 'ERR_JWKS_TIMEOUT')
      return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
