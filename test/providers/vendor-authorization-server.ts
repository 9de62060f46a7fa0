/**
 * A local authorization server that answers as one vendor does, for the conformance test. The vendors' own services
 * cannot be reached from any machine here, so this stands in for them: it serves the vendor's token answer (with the
 * members and omissions the vendor documents), its userinfo answer, any further API the provider calls, and for OIDC
 * vendors a discovery document, a JWKS and a signed ID token. Requests reach it through the provider's `customFetch`
 * (see fake-vendor-server.ts), so the provider keeps its real URLs and the test proves which ones it calls.
 *
 * It also plays the vendor's part in the protocol, so a provider that gets it wrong fails: the code is single-use,
 * the PKCE verifier must match the challenge, and the client must authenticate the way its config says.
 */
import { createHash } from 'node:crypto'
import { SignJWT } from 'jose'
import { readEndpoint } from '../../src/providers-internal/oauth-endpoint.js'
import type { OAuthConfigInternal } from '../../src/types/providers.js'
import type { FakeVendorServer, RecordedRequest } from './fake-vendor-server.js'
import type { VendorEndpoints } from './vendor-endpoints.js'
import type { VendorSample } from './vendor-samples.js'

export const clientId = 'vendor-client-id'
export const clientSecret = 'vendor-client-secret'

/** What the server remembers about an authorization it granted. */
interface Grant {
  nonce?: string
  codeChallenge?: string
  redirectUri?: string
  responseType?: string
}

/**
 * Azure DevOps's token request, as its documentation gives it: the code as a JWT-bearer `assertion`, the client
 * secret as `client_assertion`, and nothing in an Authorization header.
 */
function assertionGrantRefusal(request: RecordedRequest, grant: Grant): string | undefined {
  if (grant.responseType !== 'Assertion') return 'the authorization request did not ask for response_type=Assertion'
  if (request.form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
    return 'grant_type is not the JWT-bearer grant'
  if (request.form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    return 'client_assertion_type is not the JWT-bearer client assertion'
  if (request.form.get('client_assertion') !== clientSecret) return 'client_assertion is not the client secret'
  if (request.headers.has('authorization') || request.form.has('client_secret'))
    return 'the secret was sent outside client_assertion'
  return undefined
}

/** The served vendor: where its authorization endpoint is, and its "user clicked allow". */
export interface ServedVendor {
  authorizationEndpoint: string
  tokenEndpoint: string
  /** The callback parameters the vendor sends back for an authorization URL. */
  authorize(authorizationUrl: URL): URLSearchParams
  /** Token requests refused, with the reason (an empty list when the provider behaved). */
  refusals: string[]
}

const trim = (url: string) => url.replace(/\/+$/, '')
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

function clientAuthenticated(provider: OAuthConfigInternal, request: RecordedRequest): string | undefined {
  const method = provider.client?.token_endpoint_auth_method ?? 'client_secret_basic'
  if (method === 'client_secret_post') {
    if (request.form.get('client_id') !== clientId || request.form.get('client_secret') !== clientSecret)
      return 'client_secret_post credentials missing'
    if (request.headers.has('authorization')) return 'client_secret_post sent an Authorization header too'
    return undefined
  }
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
  if (request.headers.get('authorization') !== basic) return 'client_secret_basic credentials missing'
  if (request.form.has('client_secret')) return 'client_secret_basic also sent the secret in the body'
  return undefined
}

/**
 * Registers one vendor's endpoints on `fake`: at the URLs its documentation names (`endpoints`), answering as its
 * sample says; the provider's own config only decides what a correct client must do (its client authentication,
 * whether its ID token is HMAC-signed or its profile comes from userinfo).
 */
export function serveVendor(
  fake: FakeVendorServer,
  provider: OAuthConfigInternal,
  sample: VendorSample,
  endpoints: VendorEndpoints,
): ServedVendor {
  const grants = new Map<string, Grant>()
  const refusals: string[] = []
  const oidc = 'issuer' in endpoints
  const issuer = oidc ? endpoints.issuer : ''
  const base = trim(issuer)
  // An OIDC provider may still pin an endpoint over the discovered one (Auth.js lets it); the vendor then serves it there.
  const authorizationEndpoint = oidc
    ? (readEndpoint(provider.authorization).url ?? `${base}/vendor/authorize`)
    : endpoints.authorization
  const tokenEndpoint = oidc ? (readEndpoint(provider.token).url ?? `${base}/vendor/token`) : endpoints.token
  const userinfoEndpoint = oidc
    ? (readEndpoint(provider.userinfo).url ?? `${base}/vendor/userinfo`)
    : endpoints.userinfo
  const jwksUri = `${base}/vendor/jwks`
  const hmac = provider.client?.id_token_signed_response_alg?.startsWith('HS') === true

  if (oidc) {
    // Where the provider looks for it: its own `wellKnown` (Frontegg's is under /oauth), else under the issuer.
    const discovery = provider.wellKnown
      ? provider.wellKnown.replace(/\?.*$/, '')
      : `${base}/.well-known/openid-configuration`
    fake.on('GET', discovery, () => ({
      json: {
        issuer,
        authorization_endpoint: authorizationEndpoint,
        token_endpoint: tokenEndpoint,
        userinfo_endpoint: userinfoEndpoint,
        jwks_uri: jwksUri,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: hmac ? ['HS256'] : ['RS256'],
        code_challenge_methods_supported: ['S256'],
      },
    }))
    fake.on('GET', jwksUri, () => ({ json: fake.jwks() }))
  }

  async function idToken(grant: Grant): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    // With idToken: false the vendor's ID token names the subject only; the rest comes from userinfo.
    const claims =
      provider.type === 'oidc' && provider.idToken === false
        ? { sub: sample.profile.sub }
        : (sample.idTokenClaims ?? sample.profile)
    const payload = {
      ...claims,
      iss: issuer,
      aud: clientId,
      iat: now,
      exp: now + 600,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    }
    if (!hmac) return fake.signIdToken(payload)
    return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(clientSecret))
  }

  const assertionGrant = 'codeGrant' in endpoints && endpoints.codeGrant === 'jwt-bearer-assertion'
  fake.on('POST', tokenEndpoint, async (request) => {
    const code = request.form.get(assertionGrant ? 'assertion' : 'code') ?? ''
    const grant = grants.get(code)
    grants.delete(code)
    const refusal = !grant
      ? 'unknown or reused code'
      : grant.codeChallenge && s256(request.form.get('code_verifier') ?? '') !== grant.codeChallenge
        ? 'PKCE verifier does not match the challenge'
        : request.form.get('redirect_uri') !== grant.redirectUri
          ? 'redirect_uri differs from the authorization request'
          : assertionGrant
            ? assertionGrantRefusal(request, grant)
            : grant.responseType !== 'code'
              ? 'response_type is not code'
              : clientAuthenticated(provider, request)
    if (refusal || !grant) {
      refusals.push(refusal ?? 'no grant')
      return { status: 400, json: { error: 'invalid_grant', error_description: refusal } }
    }
    const body: Record<string, unknown> = {
      access_token: 'vendor-access-token',
      token_type: 'bearer',
      expires_in: 3600,
      ...sample.token,
    }
    if (oidc) body.id_token = await idToken(grant)
    return { json: body }
  })

  const profileAnswer = sample.userinfo ?? sample.profile
  const userinfoAnswer = async () => {
    if (!sample.userinfoJwt) return { json: profileAnswer }
    const now = Math.floor(Date.now() / 1000)
    return {
      body: await fake.signIdToken({ ...sample.profile, iss: issuer, aud: clientId, iat: now }),
      headers: { 'content-type': 'application/jwt' },
    }
  }
  // OAuth providers discovered from an issuer (FusionAuth) read userinfo too, as do OIDC ones with idToken: false.
  if (provider.type === 'oauth' || provider.idToken === false || sample.userinfoJwt) {
    fake.on('GET', userinfoEndpoint, userinfoAnswer)
    fake.on('POST', userinfoEndpoint, userinfoAnswer)
  }
  for (const [route, answer] of Object.entries(sample.routes ?? {})) {
    const [method, url] = route.split(' ') as ['GET' | 'POST', string]
    fake.on(method, url, () => ({ json: answer }))
  }

  return {
    authorizationEndpoint,
    tokenEndpoint,
    refusals,
    authorize(url) {
      const code = `code-${grants.size + 1}-${Math.random().toString(36).slice(2)}`
      grants.set(code, {
        nonce: url.searchParams.get('nonce') ?? undefined,
        codeChallenge: url.searchParams.get('code_challenge') ?? undefined,
        redirectUri: url.searchParams.get('redirect_uri') ?? undefined,
        responseType: url.searchParams.get('response_type') ?? undefined,
      })
      const params = new URLSearchParams({ code })
      const state = url.searchParams.get('state')
      if (state) params.set('state', state)
      return params
    },
  }
}
