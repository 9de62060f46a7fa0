/**
 * Every error Authchart throws or reports is an `AuthError` subclass. Its `type` names it in logs; clients see only
 * the value of the `error` query parameter that `errorPageValue` derives from it, never the message.
 * @module errors
 */

/** Names of the error classes, as Auth.js spells them. */
export type ErrorType =
  /** An `AuthError` made directly, not through a subclass (Auth.js gives it this type at run time too). */
  | 'AuthError'
  | 'AccessDenied'
  | 'AdapterError'
  | 'CallbackRouteError'
  | 'ErrorPageLoop'
  | 'EventError'
  | 'InvalidCallbackUrl'
  | 'CredentialsSignin'
  | 'InvalidEndpoints'
  | 'InvalidCheck'
  | 'JWTSessionError'
  | 'MissingAdapter'
  | 'MissingAdapterMethods'
  | 'MissingAuthorize'
  | 'MissingSecret'
  | 'OAuthAccountNotLinked'
  | 'OAuthCallbackError'
  | 'OAuthProfileParseError'
  | 'SessionTokenError'
  | 'OAuthSignInError'
  | 'EmailSignInError'
  | 'SignOutError'
  | 'UnknownAction'
  | 'UnsupportedStrategy'
  | 'InvalidProvider'
  | 'UntrustedHost'
  | 'Verification'
  | 'MissingCSRF'
  | 'AccountNotLinked'
  | 'DuplicateConditionalUI'
  | 'MissingWebAuthnAutocomplete'
  | 'WebAuthnVerificationError'
  | 'ExperimentalFeatureNotEnabled'
  | 'FlowRejected'
  | 'FlowStoreUnavailable'
  | 'OAuthCreateAccount'
  | 'EmailCreateAccount'
  | 'InvalidRequest'
  | 'InvalidConfig'
  | 'InvalidCookieOption'
  | 'InvalidFlowExtension'

/** Values of the `error` query parameter on the sign-in page. */
export type SignInPageErrorParam =
  | 'Signin'
  | 'OAuthSignin'
  | 'OAuthCallbackError'
  | 'OAuthCreateAccount'
  | 'EmailCreateAccount'
  | 'Callback'
  | 'OAuthAccountNotLinked'
  | 'EmailSignin'
  | 'CredentialsSignin'
  | 'SessionRequired'

/** Values of the `error` query parameter on the error page. */
export type ErrorPageParam = 'Configuration' | 'AccessDenied' | 'Verification'

type ErrorOptions = Error | { cause?: Record<string, unknown> & { err?: Error } } | Record<string, unknown>

/** The types Auth.js documents on its error pages; `AuthError` is the type of its base class. */
const authJsTypes: ReadonlySet<string> = new Set<string>([
  'AuthError',
  'AdapterError',
  'AccessDenied',
  'CallbackRouteError',
  'ErrorPageLoop',
  'EventError',
  'InvalidCallbackUrl',
  'CredentialsSignin',
  'InvalidEndpoints',
  'InvalidCheck',
  'JWTSessionError',
  'MissingAdapter',
  'MissingAdapterMethods',
  'MissingAuthorize',
  'MissingSecret',
  'OAuthAccountNotLinked',
  'OAuthCallbackError',
  'OAuthProfileParseError',
  'SessionTokenError',
  'OAuthSignInError',
  'EmailSignInError',
  'SignOutError',
  'UnknownAction',
  'UnsupportedStrategy',
  'InvalidProvider',
  'UntrustedHost',
  'Verification',
  'MissingCSRF',
  'DuplicateConditionalUI',
  'MissingWebAuthnAutocomplete',
  'WebAuthnVerificationError',
  'AccountNotLinked',
  'ExperimentalFeatureNotEnabled',
])

/**
 * The message of an error made without one (`throw new CredentialsSignin()` in an app's `authorize`): the text
 * Auth.js gives the same error, so a log line never shows an empty message and reads as it did before a migration.
 * Authchart's own types name themselves.
 */
export function defaultMessage(ctor: typeof AuthError): string {
  // Auth.js's base classes have no type of their own: their page is the generic one.
  const type = ctor === AuthError || ctor === SignInError ? 'AuthError' : ctor.type
  return authJsTypes.has(type) ? `Read more at https://errors.authjs.dev#${type.toLowerCase()}` : type
}

/** Base class of all Authchart errors. */
export class AuthError extends Error {
  static type: ErrorType = 'AuthError'
  /** Which page shows it: the sign-in page for `signIn`, the error page otherwise. */
  static kind: 'signIn' | 'error' = 'error'
  type: ErrorType
  kind: 'signIn' | 'error'
  declare cause?: Record<string, unknown> & { err?: Error }

  constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
    if (message instanceof Error) {
      super(undefined, { cause: { err: message, ...(message.cause as object | undefined) } })
    } else if (typeof message === 'string') {
      if (errorOptions instanceof Error)
        errorOptions = { err: errorOptions, ...(errorOptions.cause as object | undefined) }
      super(message, errorOptions ? { cause: errorOptions } : undefined)
    } else {
      super(undefined, message ? { cause: message } : undefined)
    }
    const ctor = new.target
    this.name = ctor.name
    this.type = ctor.type
    this.kind = ctor.kind
    if (this.message === '') this.message = defaultMessage(ctor)
    Error.captureStackTrace?.(this, new.target)
  }
}

/** An error shown on the sign-in page rather than the error page. */
export class SignInError extends AuthError {
  static override kind = 'signIn' as const
}

export class AdapterError extends AuthError {
  static override type: ErrorType = 'AdapterError'
}
export class AccessDenied extends AuthError {
  static override type: ErrorType = 'AccessDenied'
}
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = 'CallbackRouteError'
}
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = 'ErrorPageLoop'
}
export class EventError extends AuthError {
  static override type: ErrorType = 'EventError'
}
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = 'InvalidCallbackUrl'
}

/** Thrown from a credentials provider's `authorize` to reject the sign-in; `code` is shown in the URL. */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = 'CredentialsSignin'
  /** Goes into the redirect URL: never hint at which field was wrong. */
  code = 'credentials'
}

export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = 'InvalidEndpoints'
}
export class InvalidCheck extends AuthError {
  static override type: ErrorType = 'InvalidCheck'
}
export class JWTSessionError extends AuthError {
  static override type: ErrorType = 'JWTSessionError'
}
export class MissingAdapter extends AuthError {
  static override type: ErrorType = 'MissingAdapter'
}
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = 'MissingAdapterMethods'
}
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = 'MissingAuthorize'
}
export class MissingSecret extends AuthError {
  static override type: ErrorType = 'MissingSecret'
}
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = 'OAuthAccountNotLinked'
}
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = 'OAuthCallbackError'
}
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = 'OAuthProfileParseError'
}
export class SessionTokenError extends AuthError {
  static override type: ErrorType = 'SessionTokenError'
}
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = 'OAuthSignInError'
}
export class OAuthCreateAccount extends SignInError {
  static override type: ErrorType = 'OAuthCreateAccount'
}
export class EmailSignInError extends SignInError {
  static override type: ErrorType = 'EmailSignInError'
}
export class EmailCreateAccount extends SignInError {
  static override type: ErrorType = 'EmailCreateAccount'
}
export class SignOutError extends AuthError {
  static override type: ErrorType = 'SignOutError'
}
export class UnknownAction extends AuthError {
  static override type: ErrorType = 'UnknownAction'
}
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = 'UnsupportedStrategy'
}
export class InvalidProvider extends AuthError {
  static override type: ErrorType = 'InvalidProvider'
}
export class UntrustedHost extends AuthError {
  static override type: ErrorType = 'UntrustedHost'
}
export class Verification extends AuthError {
  static override type: ErrorType = 'Verification'
}
export class MissingCSRF extends SignInError {
  static override type: ErrorType = 'MissingCSRF'
}
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = 'AccountNotLinked'
}
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = 'DuplicateConditionalUI'
}
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = 'MissingWebAuthnAutocomplete'
}
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = 'WebAuthnVerificationError'
}
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = 'ExperimentalFeatureNotEnabled'
}
/** Authchart: a malformed request (body, query, header) that no action can use. */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = 'InvalidRequest'
}
/** Authchart: an option has a value Authchart cannot work with; the message names the option. */
export class InvalidConfig extends AuthError {
  static override type: ErrorType = 'InvalidConfig'
}
/** Authchart: the stored flow is unknown, expired, tampered, replayed or from an older machine version. */
export class FlowRejected extends SignInError {
  static override type: ErrorType = 'FlowRejected'
}
/** Authchart: the flow store (e.g. Redis) could not be reached in time. */
export class FlowStoreUnavailable extends AuthError {
  static override type: ErrorType = 'FlowStoreUnavailable'
}
/** Authchart: a cookie name, value or attribute that cannot be written into a valid `Set-Cookie` header (RFC 6265). */
export class InvalidCookieOption extends AuthError {
  static override type: ErrorType = 'InvalidCookieOption'
}
/** Authchart: `config.flows` names a machine or a guard that is not a documented extension point, or gives a non-function. */
export class InvalidFlowExtension extends AuthError {
  static override type: ErrorType = 'InvalidFlowExtension'
}

/** Where an error is shown: the page, the spec's `error` query value, and the status of a JSON answer. */
export interface ErrorPresentation {
  page: 'signIn' | 'error'
  value: SignInPageErrorParam | ErrorPageParam
  status: number
}

const configuration: ErrorPresentation = { page: 'error', value: 'Configuration', status: 500 }
const signIn = (value: SignInPageErrorParam, status = 400): ErrorPresentation => ({ page: 'signIn', value, status })

/**
 * The one table from error type to what the client sees. Only the spec's values ever reach a URL: errors that speak of
 * configuration or internals all become `Configuration` on the error page.
 */
export const errorPresentations: Readonly<Record<ErrorType, ErrorPresentation>> = {
  AccessDenied: { page: 'error', value: 'AccessDenied', status: 403 },
  Verification: { page: 'error', value: 'Verification', status: 400 },
  CredentialsSignin: signIn('CredentialsSignin', 401),
  OAuthAccountNotLinked: signIn('OAuthAccountNotLinked', 409),
  AccountNotLinked: signIn('OAuthAccountNotLinked', 409),
  OAuthCallbackError: signIn('OAuthCallbackError'),
  OAuthSignInError: signIn('OAuthSignin'),
  OAuthCreateAccount: signIn('OAuthCreateAccount'),
  EmailCreateAccount: signIn('EmailCreateAccount'),
  EmailSignInError: signIn('EmailSignin'),
  MissingCSRF: signIn('Signin', 403),
  FlowRejected: signIn('Signin'),
  // A store that failed mid-sign-in: the user may simply try again.
  AdapterError: signIn('Callback', 503),
  FlowStoreUnavailable: signIn('Callback', 503),
  CallbackRouteError: configuration,
  AuthError: configuration,
  InvalidRequest: { page: 'error', value: 'Configuration', status: 400 },
  UnknownAction: { page: 'error', value: 'Configuration', status: 400 },
  ErrorPageLoop: configuration,
  EventError: configuration,
  InvalidCallbackUrl: configuration,
  InvalidEndpoints: configuration,
  InvalidCheck: configuration,
  JWTSessionError: configuration,
  MissingAdapter: configuration,
  MissingAdapterMethods: configuration,
  MissingAuthorize: configuration,
  MissingSecret: configuration,
  OAuthProfileParseError: configuration,
  SessionTokenError: configuration,
  SignOutError: configuration,
  UnsupportedStrategy: configuration,
  InvalidProvider: configuration,
  UntrustedHost: configuration,
  DuplicateConditionalUI: configuration,
  MissingWebAuthnAutocomplete: configuration,
  WebAuthnVerificationError: signIn('Signin'),
  ExperimentalFeatureNotEnabled: configuration,
  InvalidConfig: configuration,
  InvalidCookieOption: configuration,
  InvalidFlowExtension: configuration,
}

/** How an error is shown; anything that is not an `AuthError` is a configuration problem. */
export function errorPresentation(error: unknown): ErrorPresentation {
  return error instanceof AuthError ? errorPresentations[error.type] : configuration
}

/** The page and the `error` query value an error is shown with (the table above). */
export function errorPageValue(
  error: unknown,
): { page: 'signIn'; value: SignInPageErrorParam } | { page: 'error'; value: ErrorPageParam } {
  const { page, value } = errorPresentation(error)
  return page === 'signIn' ? { page, value: value as SignInPageErrorParam } : { page, value: value as ErrorPageParam }
}

/** Whether the error's type is safe to show a client (Auth.js exports the same helper). */
export function isClientError(error: Error): error is AuthError {
  return error instanceof AuthError && errorPresentations[error.type].value !== 'Configuration'
}
