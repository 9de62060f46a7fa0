/**
 * Handles the provider's answer to an authorization request, in the order the specs give: the authorization
 * response (iss, state, error, code), the code exchange (PKCE verifier, client authentication), the token response
 * and the ID token (checked inside the exchange, see `token-response-checks.ts`), the profile (ID token or
 * userinfo), and finally the app-facing user and account. Each step that refuses throws with its own `cause.check`.
 */
import * as client from 'openid-client'
import { AuthError, OAuthCallbackError } from '../../errors.js'
import { readEndpoint } from '../../providers-internal/oauth-endpoint.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { Account, Profile, TokenSet, User } from '../../types/index.js'
import { checkAuthorizationResponse } from './authorization-response-checks.js'
import { resolveProviderClient, type ProviderClient } from './client-configuration.js'
import { runCodeExchange, type CodeExchange } from './code-exchange-context.js'
import { callbackFailure, findAuthError, isTimeout, loggable, type CallbackCheck } from './oauth-failure.js'
import { fetchProviderProfile } from './provider-profile.js'
import { mapUserAndAccount } from './user-and-account.js'

/** What the flow kept from the sign-in, and the callback request's parameters. */
export interface OAuthCallbackInput {
  /** The query of a GET callback, or the form body of a `form_post` callback. */
  callbackParams: URLSearchParams
  /** The redirect URI sent in the authorization request (it must be sent again with the code). */
  redirectUri: string
  expectedState?: string
  expectedNonce?: string
  codeVerifier?: string
  timeoutMs: number
  /** The clock, in milliseconds like `Date.now` (the default). */
  now?: () => number
}

/** A completed OAuth sign-in: the raw profile, the mapped user and account, and the tokens. */
export interface OAuthCallbackResult {
  profile: Profile
  user: User & { id: string }
  account: Account
  tokens: TokenSet
}

function expected(value: string | undefined, check: CallbackCheck, provider: OAuthConfigInternal): string {
  // The flow lost a value its provider's checks need: refuse rather than silently skip the check.
  if (!value)
    throw callbackFailure(
      check,
      `provider "${provider.id}" checks include ${check} but the flow has no ${check} value`,
      { reason: 'missing_expected_value' },
    )
  return value
}

async function resolveForCallback(provider: OAuthConfigInternal, timeoutMs: number): Promise<ProviderClient> {
  try {
    return await resolveProviderClient(provider, timeoutMs)
  } catch (err) {
    // Discovery is cached, so it fails here only on a cold instance; the sign-in error's cause says what failed.
    if (err instanceof AuthError && typeof err.cause?.check === 'string') {
      const check = err.cause.check as CallbackCheck
      throw callbackFailure(check === 'timeout' || check === 'endpoint' ? check : 'discovery', err.message, {
        ...err.cause,
      })
    }
    throw callbackFailure('discovery', 'provider could not be resolved', undefined, err)
  }
}

/** Maps what openid-client throws (after our own checks passed) onto the step that refused. */
/**
 * RFC 7636 §4.6: a verifier that does not match the code's challenge is answered `invalid_grant`. That is what an
 * injected authorization code looks like, so with PKCE in use it is a refusal (`pkce`), not a provider outage.
 */
function asPkceRefusal(error: AuthError, usedPkce: boolean): AuthError {
  const cause = error.cause as { check?: unknown; error?: unknown; status?: unknown } | undefined
  if (!usedPkce || cause?.check !== 'token_endpoint' || cause.error !== 'invalid_grant') return error
  return callbackFailure(
    'pkce',
    'provider refused the code grant: PKCE verifier mismatch, or a replayed or injected code',
    { status: cause.status, error: 'invalid_grant' },
    error,
  )
}

function exchangeFailure(err: unknown, usedPkce: boolean): AuthError {
  const own = findAuthError(err)
  if (own instanceof OAuthCallbackError) return asPkceRefusal(own, usedPkce)
  if (own) return callbackFailure('endpoint', own.message, { ...own.cause })
  if (isTimeout(err))
    return callbackFailure('timeout', 'token endpoint did not answer in time', { endpoint: 'token' }, err)
  if (err instanceof client.ResponseBodyError) {
    return callbackFailure(
      'token_endpoint',
      'token endpoint refused the code exchange',
      { status: err.status, error: loggable(err.error) },
      err,
    )
  }
  if (err instanceof client.AuthorizationResponseError)
    return callbackFailure('provider_error', 'OAuth Provider returned an error', { error: loggable(err.error) }, err)
  const code = (err as { code?: unknown }).code
  const claim = (err as { cause?: { cause?: { claim?: unknown } } }).cause?.cause?.claim
  if (claim === 'nonce')
    return callbackFailure('nonce', 'id token nonce does not match the flow', { received: 'mismatch' }, err)
  if (typeof code === 'string' && code.startsWith('OAUTH_JWT'))
    return callbackFailure('id_token', 'openid-client refused the id token', { reason: 'client_library', code }, err)
  // fetch() rejects with a plain TypeError when the connection fails; openid-client's own TypeErrors carry a code.
  if (err instanceof TypeError && code === undefined)
    return callbackFailure('token_endpoint', 'token endpoint could not be reached', { reason: 'network' }, err)
  return callbackFailure('token_endpoint', 'code exchange failed', { reason: 'unexpected', code: loggable(code) }, err)
}

/** Grant type and client assertion type of Azure DevOps's code exchange (RFC 7523 §2.1 and §2.2). */
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const jwtBearerClientAssertion = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/**
 * The code exchanged as a JWT-bearer assertion (`codeGrant: "jwt-bearer-assertion"`). The authorization response was
 * already checked (state, iss, error) by `checkAuthorizationResponse`; only the token request differs.
 */
function assertionGrant(
  provider: OAuthConfigInternal,
  providerClient: ProviderClient,
  params: URLSearchParams,
  redirectUri: string,
) {
  const code = params.get('code')
  if (!code) throw callbackFailure('code', 'callback carries no code', undefined)
  return client.genericGrantRequest(providerClient.config, jwtBearerGrant, {
    assertion: code,
    redirect_uri: redirectUri,
    client_assertion_type: jwtBearerClientAssertion,
    client_assertion: provider.clientSecret ?? '',
    ...readEndpoint(provider.token).params,
  })
}

async function exchangeCode(
  provider: OAuthConfigInternal,
  providerClient: ProviderClient,
  params: URLSearchParams,
  input: OAuthCallbackInput,
  exchange: CodeExchange,
  checks: { expectedState?: string; codeVerifier?: string },
): Promise<TokenSet> {
  if (provider.codeGrant === 'jwt-bearer-assertion') {
    try {
      const tokens = await runCodeExchange(exchange, () =>
        assertionGrant(provider, providerClient, params, input.redirectUri),
      )
      return { ...tokens }
    } catch (err) {
      throw exchangeFailure(err, false)
    }
  }
  const currentUrl = new URL(input.redirectUri)
  currentUrl.search = ''
  for (const [key, value] of params) currentUrl.searchParams.append(key, value)
  try {
    const tokens = await runCodeExchange(exchange, () =>
      client.authorizationCodeGrant(
        providerClient.config,
        currentUrl,
        {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.expectedState,
          expectedNonce: exchange.expectedNonce,
          idTokenExpected: provider.type === 'oidc',
        },
        readEndpoint(provider.token).params,
      ),
    )
    return { ...tokens }
  } catch (err) {
    throw exchangeFailure(err, checks.codeVerifier !== undefined)
  }
}

/**
 * What the authorization response step hands to the later steps of one callback. It holds the PKCE verifier and
 * lives only in the request that handles the callback (the flow handlers' closure), never in a flow snapshot.
 */
export interface CheckedAuthorizationResponse {
  providerClient: ProviderClient
  /** The callback's parameters after the RFC 9207 / RFC 6749 §4.1.2 checks. */
  params: URLSearchParams
  expectedState?: string
  codeVerifier?: string
  /** The code exchange's expectations; the token endpoint guard adds the verified ID token claims. */
  exchange: CodeExchange
}

/** What the code exchange step hands on: the checked response and the tokens (secrets: per request only). */
export interface ExchangedCode extends CheckedAuthorizationResponse {
  tokens: TokenSet
}

/**
 * Step 1, the authorization response: the values the flow kept for the provider's checks (state, nonce, PKCE), the
 * provider's metadata, and the callback's `iss`, `state`, `error` and `code` parameters.
 * @throws OAuthCallbackError with `cause.check` `state`, `nonce`, `pkce` (a value the flow lost), `iss`,
 *   `provider_error`, `code`, or `discovery`, `timeout`, `endpoint` (the provider could not be resolved)
 */
export async function checkCallbackResponse(
  provider: OAuthConfigInternal,
  input: OAuthCallbackInput,
): Promise<CheckedAuthorizationResponse> {
  const nowSeconds = Math.floor((input.now ?? Date.now)() / 1000)
  const expectedState = provider.checks.includes('state') ? expected(input.expectedState, 'state', provider) : undefined
  const expectedNonce = provider.checks.includes('nonce') ? expected(input.expectedNonce, 'nonce', provider) : undefined
  const codeVerifier = provider.checks.includes('pkce') ? expected(input.codeVerifier, 'pkce', provider) : undefined
  const providerClient = await resolveForCallback(provider, input.timeoutMs)
  const metadata = providerClient.config.serverMetadata()
  const params = checkAuthorizationResponse(input.callbackParams, {
    issuer: providerClient.issuerKnown ? metadata.issuer : undefined,
    issuerParameterRequired: metadata.authorization_response_iss_parameter_supported === true,
    expectedState,
  })
  return { providerClient, params, expectedState, codeVerifier, exchange: { expectedNonce, now: nowSeconds } }
}

/**
 * Step 2, the code exchange at the token endpoint. The ID token is verified as the token response arrives, before
 * openid-client parses it (`token-response-checks.ts`), so its refusals come out of this step.
 * @throws OAuthCallbackError with `cause.check` `pkce`, `token_endpoint`, `token_type`, `timeout`, `endpoint`,
 *   `provider_error`, `code`, `id_token` or `nonce`
 */
export async function exchangeCallbackCode(
  provider: OAuthConfigInternal,
  input: OAuthCallbackInput,
  checked: CheckedAuthorizationResponse,
): Promise<ExchangedCode> {
  const { providerClient, params, exchange, expectedState, codeVerifier } = checked
  const tokens = await exchangeCode(provider, providerClient, params, input, exchange, { expectedState, codeVerifier })
  return { ...checked, tokens }
}

/**
 * Step 3, the profile: the verified ID token claims (OIDC) or the userinfo answer, mapped by the provider's
 * `profile()` onto the app-facing user and account.
 * @throws OAuthCallbackError with `cause.check` `id_token` (an OIDC exchange without verified claims), `userinfo`,
 *   `userinfo_signature` or `timeout`
 * @throws OAuthProfileParseError when the provider's `profile()` throws or returns no id
 */
export async function readCallbackProfile(
  provider: OAuthConfigInternal,
  input: OAuthCallbackInput,
  exchanged: ExchangedCode,
): Promise<OAuthCallbackResult> {
  const { providerClient, tokens, exchange } = exchanged
  const profile = await fetchProviderProfile(
    provider,
    providerClient,
    tokens,
    exchange.verifiedIdTokenClaims,
    input.callbackParams,
  )
  const { user, account, tokens: tokenSet } = await mapUserAndAccount(provider, profile, tokens, exchange.now)
  return { profile, user, account, tokens: tokenSet }
}

/**
 * Completes an OAuth 2 / OIDC sign-in from the provider's callback: the three steps above in order (the OAuth
 * machine runs them as three states).
 * @param provider the resolved provider (see `normalizeOAuthProvider`)
 * @param input the callback's parameters and what the flow kept from the sign-in (state, nonce, PKCE verifier)
 * @returns the raw profile, the mapped user (`id` = the provider's account id) and account, and the tokens
 * @throws OAuthCallbackError with `cause.check` naming the failed step: `iss`, `state`, `provider_error`, `code`,
 *   `pkce`, `token_endpoint`, `token_type`, `id_token`, `nonce`, `userinfo`, `timeout`, `endpoint` or `discovery`
 * @throws OAuthProfileParseError when the provider's `profile()` throws or returns no id
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth and https://www.rfc-editor.org/rfc/rfc9700
 */
export async function handleOAuthCallback(
  provider: OAuthConfigInternal,
  input: OAuthCallbackInput,
): Promise<OAuthCallbackResult> {
  const checked = await checkCallbackResponse(provider, input)
  const exchanged = await exchangeCallbackCode(provider, input, checked)
  return readCallbackProfile(provider, input, exchanged)
}
