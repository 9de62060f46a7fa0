/**
 * The checks on the authorization response (the callback's query, or its form body under `form_post`), as named
 * steps in the order oauth4webapi and RFC 9207 give: issuer, then state, then the provider's error, then the code.
 * The order matters: a forged error response with the wrong state is reported as a state failure, not believed.
 */
import { constantTimeEqual } from '../../security/constant-time.js'
import { callbackFailure, loggable, type CallbackCheck } from './oauth-failure.js'

/** What the authorization response must satisfy. */
export interface AuthorizationResponseExpectations {
  /** The provider's issuer, or undefined when it is not known (a plain OAuth 2 provider configured without one). */
  issuer?: string
  /** RFC 9207: the provider advertises `authorization_response_iss_parameter_supported`, so `iss` is required. */
  issuerParameterRequired: boolean
  /** The state sent in the authorization request; undefined when the provider's checks do not include `state`. */
  expectedState?: string
}

// RFC 6749 §3.1: request and response parameters must not be included more than once.
function single(params: URLSearchParams, name: string, check: CallbackCheck): string | undefined {
  const values = params.getAll(name)
  if (values.length > 1)
    throw callbackFailure(check, `authorization response repeats the ${name} parameter`, { parameter: name })
  return values[0]
}

// RFC 9207 §2.4: when present (and always, if the provider advertises it), iss must be the issuer we started with;
// this is what stops a mix-up attack from replaying another provider's code here.
function checkIssuerParameter(params: URLSearchParams, expect: AuthorizationResponseExpectations): void {
  const iss = single(params, 'iss', 'iss')
  if (iss === undefined) {
    if (expect.issuerParameterRequired)
      throw callbackFailure('iss', 'authorization response has no iss although the provider promises one', {
        expected: expect.issuer,
      })
    return
  }
  if (expect.issuer !== undefined && iss !== expect.issuer) {
    throw callbackFailure('iss', 'authorization response iss is not the provider issuer', {
      expected: expect.issuer,
      received: loggable(iss),
    })
  }
}

// RFC 6749 §10.12: state binds this callback to the browser that began the flow.
function checkStateParameter(params: URLSearchParams, expectedState: string | undefined): void {
  const state = single(params, 'state', 'state')
  if (expectedState === undefined) {
    if (state !== undefined)
      throw callbackFailure('state', 'authorization response carries a state this flow did not send', {
        received: 'present',
      })
    return
  }
  if (state === undefined)
    throw callbackFailure('state', 'authorization response has no state', { received: 'missing' })
  if (!constantTimeEqual(state, expectedState))
    throw callbackFailure('state', 'authorization response state does not match the flow', { received: 'mismatch' })
}

// RFC 6749 §4.1.2.1: the provider ended the authorization with an error (the user declined, a bad request, ...).
function checkErrorParameter(params: URLSearchParams): void {
  const error = single(params, 'error', 'provider_error')
  if (error === undefined) return
  throw callbackFailure('provider_error', 'OAuth Provider returned an error', {
    error: loggable(error),
    error_description: loggable(params.get('error_description')),
    error_uri: loggable(params.get('error_uri')),
  })
}

// RFC 6749 §4.1.2: a successful response carries exactly one code.
function checkCodeParameter(params: URLSearchParams): void {
  const code = single(params, 'code', 'code')
  if (!code) throw callbackFailure('code', 'authorization response has no code')
}

/**
 * Checks an authorization response and returns the parameters to hand to openid-client.
 * @returns the parameters, without `iss` when the issuer is unknown (openid-client would compare it to a placeholder)
 * @throws OAuthCallbackError with `cause.check` `iss`, `state`, `provider_error` or `code`
 * @see https://www.rfc-editor.org/rfc/rfc9207 and https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export function checkAuthorizationResponse(
  params: URLSearchParams,
  expect: AuthorizationResponseExpectations,
): URLSearchParams {
  checkIssuerParameter(params, expect)
  checkStateParameter(params, expect.expectedState)
  checkErrorParameter(params)
  checkCodeParameter(params)
  const forClient = new URLSearchParams(params)
  if (expect.issuer === undefined) forClient.delete('iss')
  return forClient
}
