/**
 * Checks the token endpoint's answer before openid-client parses it, as named steps in this order: readable JSON,
 * no error, an access token, a bearer token type, the ID token present (OIDC) and valid. openid-client validates
 * the same response afterwards as a second line; running ours first gives each failure its own `cause.check`,
 * verifies the ID token signature before any claim is trusted, and handles the vendors whose token endpoints answer
 * in non-standard ways (errors with status 200, `scope` as an array) through the provider's `token.conform`.
 */
import type { Configuration } from 'openid-client'
import { readEndpoint } from '../../providers-internal/oauth-endpoint.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import { currentCodeExchange } from './code-exchange-context.js'
import {
  acceptedIdTokenAlgorithms,
  checkIdToken,
  idTokenClockToleranceSeconds,
  type IdTokenKey,
} from './id-token-checks.js'
import { callbackFailure, loggable } from './oauth-failure.js'
import type { ProviderFetch } from './provider-fetch.js'
import { checkSignedUserinfo } from './userinfo-checks.js'

export type { IdTokenKey } from './id-token-checks.js'

type TokenBody = Record<string, unknown>

function sameEndpoint(a: string, b: string | undefined): boolean {
  if (!b) return false
  const [x, y] = [new URL(a), new URL(b)]
  return x.origin === y.origin && x.pathname === y.pathname
}

// RFC 6749 §5.1: a successful answer is a JSON object. A proxy's HTML error page or a truncated body is not one.
async function readTokenResponse(
  response: Response,
  conform: ReturnType<typeof readEndpoint>['conform'],
): Promise<{ status: number; body: TokenBody }> {
  const text = await response.text()
  let current = new Response(text, { status: response.status, headers: response.headers })
  if (conform) current = (await conform(current.clone())) ?? current
  const contentType = current.headers.get('content-type') ?? undefined
  let body: unknown
  try {
    body = JSON.parse(await current.text())
  } catch (err) {
    throw callbackFailure(
      'token_endpoint',
      'token endpoint answer is not JSON',
      { status: current.status, contentType: loggable(contentType) },
      err,
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw callbackFailure('token_endpoint', 'token endpoint answer is not a JSON object', { status: current.status })
  }
  return { status: current.status, body: body as TokenBody }
}

// RFC 6749 §5.2. GitHub and Slack answer errors with status 200, so the `error` member counts whatever the status.
function checkNoError(status: number, body: TokenBody): void {
  if (status !== 200 || body.error !== undefined) {
    throw callbackFailure('token_endpoint', 'token endpoint refused the code exchange', {
      status,
      error: loggable(body.error),
      error_description: loggable(body.error_description),
    })
  }
}

// RFC 6749 §5.1: access_token is required.
function checkAccessToken(body: TokenBody): void {
  if (typeof body.access_token !== 'string' || body.access_token.length === 0) {
    throw callbackFailure('token_endpoint', 'token endpoint answer has no access_token', { status: 200 })
  }
}

// RFC 6749 §7.1 and RFC 6750: we only know how to use bearer tokens; the type is case-insensitive, and stored lowercased.
function checkTokenType(body: TokenBody): void {
  const type = typeof body.token_type === 'string' ? body.token_type.toLowerCase() : undefined
  if (type !== 'bearer')
    throw callbackFailure('token_type', 'token endpoint issued a token type other than bearer', {
      expected: 'bearer',
      received: loggable(body.token_type),
    })
  body.token_type = type
}

// OIDC Core §3.1.3.3: an OIDC token response carries an ID token. Plain OAuth 2 defines none, so one sent anyway is
// neither verified nor kept: nothing downstream may mistake it for proof of identity.
// OIDC Core §12.2: a refresh answer may leave the ID token out.
function checkIdTokenPresence(
  body: TokenBody,
  type: OAuthConfigInternal['type'],
  optional: boolean,
): string | undefined {
  if (type !== 'oidc') {
    delete body.id_token
    return undefined
  }
  if (optional && body.id_token === undefined) return undefined
  if (typeof body.id_token !== 'string' || body.id_token.length === 0)
    throw callbackFailure('id_token', 'token endpoint answer has no id_token', { reason: 'missing' })
  return body.id_token
}

/**
 * Wraps the provider fetch so that answers from the token endpoint (and, for OIDC, signed userinfo answers) pass our
 * checks before openid-client sees them; other requests pass through untouched.
 * @param key the OP's JWKS, or the client secret bytes for HS* ID tokens; undefined for plain OAuth 2
 */
export function guardTokenEndpoint(
  provider: OAuthConfigInternal,
  config: Configuration,
  key: IdTokenKey | undefined,
  providerFetch: ProviderFetch,
): ProviderFetch {
  const metadata = config.serverMetadata()
  const conform = readEndpoint(provider.token).conform
  const algorithms = acceptedIdTokenAlgorithms(
    provider.client?.id_token_signed_response_alg,
    metadata.id_token_signing_alg_values_supported,
  )
  const userinfoAlgorithms = acceptedIdTokenAlgorithms(
    typeof provider.client?.userinfo_signed_response_alg === 'string'
      ? provider.client.userinfo_signed_response_alg
      : undefined,
    metadata.userinfo_signing_alg_values_supported,
  )
  return async (url, init) => {
    const response = await providerFetch(url, init)
    if (key && sameEndpoint(url, metadata.userinfo_endpoint))
      return checkSignedUserinfo(response, {
        issuer: metadata.issuer,
        clientId: provider.clientId ?? '',
        algorithms: userinfoAlgorithms,
        key,
      })
    if (!sameEndpoint(url, metadata.token_endpoint)) return response
    const { status, body } = await readTokenResponse(response, conform)
    checkNoError(status, body)
    checkAccessToken(body)
    checkTokenType(body)
    const exchange = currentCodeExchange()
    const refresh = exchange?.grant === 'refresh_token'
    const idToken = checkIdTokenPresence(body, provider.type, refresh)
    if (idToken !== undefined) {
      // Fail closed: an ID token is only ever checked against a flow's expectations.
      if (!exchange || !key)
        throw callbackFailure('id_token', 'id token arrived outside a code exchange', { reason: 'no_flow' })
      exchange.verifiedIdTokenClaims = await checkIdToken(idToken, {
        issuer: metadata.issuer,
        clientId: provider.clientId ?? '',
        algorithms,
        key,
        expectedNonce: exchange.expectedNonce,
        nonceUnknown: refresh,
        now: exchange.now,
        clockToleranceSeconds: idTokenClockToleranceSeconds,
      })
    }
    return Response.json(body)
  }
}
