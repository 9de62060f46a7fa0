/**
 * Runs a vendor provider through the OAuth client layer against the fake vendor server: authorization URL, the
 * vendor's answer to the callback, code exchange, profile. Also serves the OIDC parts (discovery, JWKS, signed ID
 * tokens) that every OIDC vendor fake needs.
 */
import type { JWTPayload } from 'jose'
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client'
import { createAuthorizationUrl } from '../../src/effects/oauth/authorization-url.js'
import { handleOAuthCallback, type OAuthCallbackResult } from '../../src/effects/oauth/callback.js'
import { normalizeOAuthProvider, type OAuthConfigOfAnyProfile } from '../../src/providers-internal/normalize-oauth.js'
import type { OAuthConfigInternal } from '../../src/types/providers.js'
import type { FakeVendorServer } from './fake-vendor-server.js'

export const clientId = 'vendor-client-id'
export const clientSecret = 'vendor-client-secret'
export const timeoutMs = 3000
const base = 'https://app.example.test/auth'

/** The provider as the runtime would resolve it. */
export function resolveVendor(config: OAuthConfigOfAnyProfile): OAuthConfigInternal {
  return normalizeOAuthProvider(config, {
    signinUrl: `${base}/signin/${config.id}`,
    callbackUrl: `${base}/callback/${config.id}`,
  })
}

/** The callback parameters a vendor sends back for an authorization URL (the fake's "user clicked allow"). */
export type VendorAuthorize = (authorizationUrl: URL) => URLSearchParams

/** Plain OAuth 2 vendors: a fixed code, and the state echoed as RFC 6749 §4.1.2 requires. */
export const authorizeWithCode =
  (code: string): VendorAuthorize =>
  (url) => {
    const params = new URLSearchParams({ code })
    const state = url.searchParams.get('state')
    if (state) params.set('state', state)
    return params
  }

/** One complete sign-in; returns the authorization URL the provider built and the callback's result. */
export async function signInWithVendor(
  provider: OAuthConfigInternal,
  authorize: VendorAuthorize,
  extraCallbackParams: Record<string, string> = {},
): Promise<{ authorizationUrl: URL; result: OAuthCallbackResult }> {
  const values = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() }
  const authorizationUrl = await createAuthorizationUrl(provider, {
    redirectUri: provider.callbackUrl,
    ...values,
    timeoutMs,
  })
  const callbackParams = authorize(authorizationUrl)
  for (const [key, value] of Object.entries(extraCallbackParams)) callbackParams.set(key, value)
  const result = await handleOAuthCallback(provider, {
    callbackParams,
    redirectUri: provider.callbackUrl,
    expectedState: values.state,
    expectedNonce: values.nonce,
    codeVerifier: values.codeVerifier,
    timeoutMs,
  })
  return { authorizationUrl, result }
}

/** What an OIDC vendor fake serves. */
export interface OidcVendorFake {
  issuer: string
  /** Where discovery is fetched from; default `<issuer>/.well-known/openid-configuration`. */
  discoveryUrl?: string
  /** The issuer the discovery document names, when it differs (Microsoft's `{tenantid}` template). */
  discoveredIssuer?: string
  authorizationEndpoint: string
  tokenEndpoint: string
  jwksUri: string
  /** ID token claims besides iss, aud, iat, exp and nonce. */
  claims: JWTPayload
  /** Extra members of the token response, or a replacement of the whole body. */
  tokenBody?: (body: Record<string, unknown>) => unknown
  /** Whether the authorization response carries `iss` (RFC 9207). */
  issParameter?: boolean
}

/** Registers discovery, JWKS and token endpoint of an OIDC vendor; returns its "user clicked allow". */
export function serveOidcVendor(fake: FakeVendorServer, vendor: OidcVendorFake): VendorAuthorize {
  const nonces = new Map<string, string | undefined>()
  fake.on('GET', vendor.discoveryUrl ?? `${vendor.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, () => ({
    json: {
      issuer: vendor.discoveredIssuer ?? vendor.issuer,
      authorization_endpoint: vendor.authorizationEndpoint,
      token_endpoint: vendor.tokenEndpoint,
      jwks_uri: vendor.jwksUri,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      ...(vendor.issParameter ? { authorization_response_iss_parameter_supported: true } : {}),
    },
  }))
  fake.on('GET', vendor.jwksUri, () => ({ json: fake.jwks() }))
  fake.on('POST', vendor.tokenEndpoint, async (request) => {
    const code = request.form.get('code') ?? ''
    if (!nonces.has(code)) return { status: 400, json: { error: 'invalid_grant' } }
    const now = Math.floor(Date.now() / 1000)
    const nonce = nonces.get(code)
    const claims = {
      iss: vendor.issuer,
      aud: clientId,
      iat: now,
      exp: now + 600,
      ...(nonce ? { nonce } : {}),
      ...vendor.claims,
    }
    const body = {
      access_token: 'vendor-access-token',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid profile email',
      id_token: await fake.signIdToken(claims),
    }
    return { json: vendor.tokenBody ? vendor.tokenBody(body) : body }
  })
  return (url) => {
    const code = `code-${nonces.size + 1}`
    nonces.set(code, url.searchParams.get('nonce') ?? undefined)
    const params = authorizeWithCode(code)(url)
    if (vendor.issParameter) params.set('iss', vendor.issuer)
    return params
  }
}
