/**
 * Where the raw profile comes from: the verified ID token (OIDC), the userinfo endpoint (OIDC with
 * `idToken: false`, or plain OAuth 2), or the vendor's own `userinfo.request`.
 */
import * as client from 'openid-client'
import type { JWTPayload } from 'jose'
import { endpointUrlWithParams, readEndpoint } from '../../providers-internal/oauth-endpoint.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { Profile, TokenSet } from '../../types/index.js'
import type { ProviderClient } from './client-configuration.js'
import { callbackFailure, findAuthError, isTimeout } from './oauth-failure.js'
import { withProviderFetch } from './provider-fetch.js'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function userinfoFailure(err: unknown, message: string) {
  const own = findAuthError(err)
  if (own) return own
  if (isTimeout(err)) return callbackFailure('timeout', 'userinfo request timed out', { endpoint: 'userinfo' }, err)
  return callbackFailure('userinfo', message, { code: (err as { code?: unknown }).code }, err)
}

// OIDC Core §5.3.2: the userinfo `sub` must be the ID token's, or the two responses describe different people.
async function fetchOidcUserinfo(
  providerClient: ProviderClient,
  accessToken: string,
  subject: string,
): Promise<Profile> {
  try {
    return await client.fetchUserInfo(providerClient.config, accessToken, subject)
  } catch (err) {
    throw userinfoFailure(err, 'userinfo endpoint answer was refused')
  }
}

async function fetchOAuthUserinfo(providerClient: ProviderClient, url: URL, accessToken: string): Promise<Profile> {
  let response: Response
  try {
    response = await client.fetchProtectedResource(providerClient.config, accessToken, url, 'GET')
  } catch (err) {
    throw userinfoFailure(err, 'userinfo request failed')
  }
  if (response.status !== 200)
    throw callbackFailure('userinfo', 'userinfo endpoint answered with an error status', { status: response.status })
  let body: unknown
  try {
    body = await response.json()
  } catch (err) {
    throw userinfoFailure(err, 'userinfo answer is not JSON')
  }
  if (!isRecord(body)) throw callbackFailure('userinfo', 'userinfo answer is not a JSON object')
  return body
}

async function runUserinfoRequest(
  provider: OAuthConfigInternal,
  providerClient: ProviderClient,
  tokens: TokenSet,
): Promise<Profile> {
  const request = readEndpoint(provider.userinfo).request
  if (!request) return {}
  let body: unknown
  try {
    body = await request({ tokens, provider: withProviderFetch(provider, providerClient.fetch) })
  } catch (err) {
    throw userinfoFailure(err, 'userinfo.request of the provider failed')
  }
  if (!isRecord(body)) throw callbackFailure('userinfo', 'userinfo.request of the provider returned no object')
  return body
}

/**
 * Apple: on the first authorization only, the form_post body carries a `user` field (JSON with the name) that the
 * ID token never has. It is unsigned, so it is offered as `profile.user` for display fields and nothing more, and
 * only for form_post providers, where it arrives in the POST body rather than in a URL anyone can edit.
 */
function firstSignInUser(
  provider: OAuthConfigInternal,
  callbackParams: URLSearchParams,
): Record<string, unknown> | undefined {
  if (readEndpoint(provider.authorization).params.response_mode !== 'form_post') return undefined
  const raw = callbackParams.get('user')
  if (!raw) return undefined
  try {
    const parsed: unknown = JSON.parse(raw)
    return isRecord(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * The provider's raw profile for this sign-in.
 * @param idTokenClaims the verified ID token claims (OIDC), undefined for plain OAuth 2
 * @throws OAuthCallbackError with `cause.check` `userinfo` or `timeout`
 */
export async function fetchProviderProfile(
  provider: OAuthConfigInternal,
  providerClient: ProviderClient,
  tokens: TokenSet,
  idTokenClaims: JWTPayload | undefined,
  callbackParams: URLSearchParams,
): Promise<Profile> {
  const accessToken = tokens.access_token ?? ''
  if (provider.type === 'oidc') {
    // Unreachable when the token endpoint guard ran; refusing keeps an unverified OIDC sign-in from falling through.
    if (!idTokenClaims) throw callbackFailure('id_token', 'id token was not verified', { reason: 'not_verified' })
    if (provider.idToken === false) return fetchOidcUserinfo(providerClient, accessToken, String(idTokenClaims.sub))
    const profile: Profile = { ...idTokenClaims }
    const user = profile.user === undefined ? firstSignInUser(provider, callbackParams) : undefined
    if (user) profile.user = user
    return profile
  }
  const userinfo = readEndpoint(provider.userinfo)
  if (userinfo.request) return runUserinfoRequest(provider, providerClient, tokens)
  const discovered = providerClient.config.serverMetadata().userinfo_endpoint
  const url = endpointUrlWithParams(userinfo) ?? (discovered ? new URL(discovered) : undefined)
  // No userinfo at all: some providers put the user in the token response, for profile() to read from `tokens`.
  return url ? fetchOAuthUserinfo(providerClient, url, accessToken) : {}
}
