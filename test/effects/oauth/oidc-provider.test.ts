/**
 * End-to-end sign-ins against a real OpenID Provider (oidc-provider on a loopback port): createAuthorizationUrl →
 * the OP's login and consent → handleOAuthCallback, for each way a client may talk to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeJwt } from 'jose'
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client'
import { OAuthCallbackError } from '../../../src/errors.js'
import { createAuthorizationUrl } from '../../../src/effects/oauth/authorization-url.js'
import { handleOAuthCallback, type OAuthCallbackResult } from '../../../src/effects/oauth/callback.js'
import { normalizeOAuthProvider } from '../../../src/providers-internal/normalize-oauth.js'
import OIDC from '../../../src/providers/oidc.js'
import type { OAuthConfigInternal, OIDCUserConfig } from '../../../src/types/providers.js'
import { customFetch } from '../../../src/types/symbols.js'
import { startOidcProvider, type AuthorizationResult, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { urlOfFetchInput } from '../../support/fetch-input.js'

const callbackUrl = 'http://localhost:3000/auth/callback/op'
const timeoutMs = 5000
const clients = [
  {
    client_id: 'basic-client',
    client_secret: 'basic-secret-basic-secret',
    redirect_uris: [callbackUrl],
    token_endpoint_auth_method: 'client_secret_basic' as const,
  },
  {
    client_id: 'post-client',
    client_secret: 'post-secret-post-secret-post',
    redirect_uris: [callbackUrl],
    token_endpoint_auth_method: 'client_secret_post' as const,
  },
]

let op: RunningOidcProvider
beforeAll(async () => {
  op = await startOidcProvider({ clients })
})
afterAll(() => op.close())

function provider(overrides: Partial<OIDCUserConfig> = {}, issuer = op.issuer): OAuthConfigInternal {
  const config = OIDC({
    id: 'op',
    name: 'Test OP',
    issuer,
    clientId: 'basic-client',
    clientSecret: 'basic-secret-basic-secret',
    ...overrides,
  })
  return normalizeOAuthProvider(config, { signinUrl: 'http://localhost:3000/auth/signin/op', callbackUrl })
}

interface FlowValues {
  state?: string
  nonce?: string
  codeVerifier?: string
}

async function authorize(target: OAuthConfigInternal, accountId: string, values: FlowValues, server = op) {
  const url = await createAuthorizationUrl(target, { redirectUri: callbackUrl, ...values, timeoutMs })
  return { url, result: await server.signInAs(url, accountId) }
}

function complete(
  target: OAuthConfigInternal,
  result: AuthorizationResult,
  values: FlowValues,
): Promise<OAuthCallbackResult> {
  return handleOAuthCallback(target, {
    callbackParams: result.params,
    redirectUri: callbackUrl,
    expectedState: values.state,
    expectedNonce: values.nonce,
    codeVerifier: values.codeVerifier,
    timeoutMs,
  })
}

describe('OIDC sign-in against oidc-provider', () => {
  it('signs in with PKCE only (the default checks) and maps user and account', async () => {
    const target = provider()
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { url, result } = await authorize(target, 'alice', values)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.has('state')).toBe(false)
    expect(url.searchParams.has('nonce')).toBe(false)
    expect(result.params.get('iss')).toBe(op.issuer)
    const before = Math.floor(Date.now() / 1000)
    const { user, account, profile } = await complete(target, result, values)
    expect(user).toEqual({
      id: 'alice',
      name: 'Alice Liddell',
      email: 'alice@example.test',
      image: 'https://example.test/alice.png',
    })
    expect(profile.sub).toBe('alice')
    expect(account).toMatchObject({ provider: 'op', type: 'oidc', providerAccountId: 'alice', token_type: 'bearer' })
    expect(account.expires_at).toBeGreaterThanOrEqual(before + 590)
    expect(decodeJwt(account.id_token ?? '').aud).toBe('basic-client')
  })

  it('signs in with PKCE, state and nonce', async () => {
    const target = provider({ checks: ['pkce', 'state', 'nonce'] })
    const values = { codeVerifier: randomPKCECodeVerifier(), state: randomState(), nonce: randomNonce() }
    const { url, result } = await authorize(target, 'bob', values)
    expect(url.searchParams.get('state')).toBe(values.state)
    expect(url.searchParams.get('nonce')).toBe(values.nonce)
    const { user, profile } = await complete(target, result, values)
    expect(profile.nonce).toBe(values.nonce)
    expect(user).toMatchObject({ id: 'bob', email: 'bob@example.test' })
  })

  it('takes the profile from the userinfo endpoint when idToken is false', async () => {
    const conforming = await startOidcProvider({ clients, conformIdTokenClaims: true })
    try {
      const target = provider({ idToken: false }, conforming.issuer)
      const values = { codeVerifier: randomPKCECodeVerifier() }
      const { result } = await authorize(target, 'alice', values, conforming)
      const { user, account } = await complete(target, result, values)
      // The ID token carries no e-mail here, so finding it on the user proves it came from userinfo.
      expect(decodeJwt(account.id_token ?? '').email).toBeUndefined()
      expect(user).toMatchObject({ id: 'alice', email: 'alice@example.test', name: 'Alice Liddell' })
    } finally {
      await conforming.close()
    }
  })

  it('accepts a form_post callback (response_mode=form_post)', async () => {
    const target = provider({ authorization: { params: { response_mode: 'form_post' } }, checks: ['pkce', 'state'] })
    const values = { codeVerifier: randomPKCECodeVerifier(), state: randomState() }
    const { url, result } = await authorize(target, 'alice', values)
    expect(url.searchParams.get('response_mode')).toBe('form_post')
    expect(result.mode).toBe('form_post')
    expect(result.mode === 'form_post' && result.action).toBe(callbackUrl)
    const { user } = await complete(target, result, values)
    expect(user.id).toBe('alice')
  })

  // The OP accepts either secret method from a confidential client, so the wire is where the method shows.
  function recordTokenRequests(
    sent: { authorization: string | null; body: URLSearchParams }[],
  ): OIDCUserConfig[typeof customFetch] {
    return (input, init) => {
      if (urlOfFetchInput(input).endsWith('/token'))
        sent.push({
          authorization: new Headers(init?.headers).get('authorization'),
          body: new URLSearchParams(
            init?.body instanceof URLSearchParams || typeof init?.body === 'string' ? init.body : undefined,
          ),
        })
      return fetch(input, init)
    }
  }

  it('authenticates to the token endpoint with client_secret_basic', async () => {
    const sent: { authorization: string | null; body: URLSearchParams }[] = []
    const target = provider({
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      [customFetch]: recordTokenRequests(sent),
    })
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { result } = await authorize(target, 'alice', values)
    await expect(complete(target, result, values)).resolves.toMatchObject({ user: { id: 'alice' } })
    expect(sent).toHaveLength(1)
    // RFC 6749 §2.3.1: both halves are form-urlencoded before they are joined and base64-encoded.
    const [scheme, encoded = ''] = (sent[0]?.authorization ?? '').split(' ')
    const [id = '', secret = ''] = Buffer.from(encoded, 'base64').toString().split(':')
    expect([scheme, decodeURIComponent(id), decodeURIComponent(secret)]).toEqual([
      'Basic',
      'basic-client',
      'basic-secret-basic-secret',
    ])
    expect(sent[0]?.body.has('client_secret')).toBe(false)
  })

  it('authenticates to the token endpoint with client_secret_post', async () => {
    const sent: { authorization: string | null; body: URLSearchParams }[] = []
    const target = provider({
      clientId: 'post-client',
      clientSecret: 'post-secret-post-secret-post',
      client: { token_endpoint_auth_method: 'client_secret_post' },
      [customFetch]: recordTokenRequests(sent),
    })
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { result } = await authorize(target, 'bob', values)
    await expect(complete(target, result, values)).resolves.toMatchObject({
      user: { id: 'bob' },
      account: { providerAccountId: 'bob' },
    })
    expect(sent[0]?.authorization).toBeNull()
    expect(sent[0]?.body.get('client_id')).toBe('post-client')
    expect(sent[0]?.body.get('client_secret')).toBe('post-secret-post-secret-post')
  })

  it('authenticates with client_secret_basic when no method is configured, as Auth.js does', async () => {
    const sent: { authorization: string | null; body: URLSearchParams }[] = []
    const target = provider({ [customFetch]: recordTokenRequests(sent) })
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { result } = await authorize(target, 'alice', values)
    await complete(target, result, values)
    expect(sent[0]?.authorization?.startsWith('Basic ')).toBe(true)
  })

  it('is refused by the OP when the client secret is wrong', async () => {
    const target = provider({ clientSecret: 'not-the-registered-secret' })
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { result } = await authorize(target, 'bob', values)
    await expect(complete(target, result, values)).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'token_endpoint', error: 'invalid_client' },
    })
  })

  it('rejects a replayed code: the OP answers invalid_grant and no user is returned', async () => {
    const target = provider()
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const { result } = await authorize(target, 'alice', values)
    await complete(target, result, values)
    await expect(complete(target, result, values)).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'pkce', error: 'invalid_grant' },
    })
  })

  it('rejects a code exchanged with another PKCE verifier', async () => {
    const target = provider()
    const { result } = await authorize(target, 'alice', { codeVerifier: randomPKCECodeVerifier() })
    await expect(complete(target, result, { codeVerifier: randomPKCECodeVerifier() })).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'pkce', error: 'invalid_grant' },
    })
  })

  it("keeps concurrent sign-ins apart: each ID token is checked against its own flow's nonce", async () => {
    const target = provider({ checks: ['pkce', 'nonce'] })
    const flows = await Promise.all(
      ['alice', 'bob', 'alice', 'bob'].map(async (accountId) => {
        const values = { codeVerifier: randomPKCECodeVerifier(), nonce: randomNonce() }
        return { accountId, values, result: (await authorize(target, accountId, values)).result }
      }),
    )
    const outcomes = await Promise.all(flows.map(({ result, values }) => complete(target, result, values)))
    expect(outcomes.map(({ user, profile }) => [user.id, profile.nonce])).toEqual(
      flows.map(({ accountId, values }) => [accountId, values.nonce]),
    )
    // Crossing the flows (bob's callback with alice's nonce) must fail: the expectations really are per exchange.
    const [first, second] = flows
    if (!first || !second) throw new Error('flows missing')
    const crossed = await authorize(target, second.accountId, second.values)
    await expect(
      complete(target, crossed.result, { ...second.values, nonce: first.values.nonce }),
    ).rejects.toMatchObject({ constructor: OAuthCallbackError, cause: { check: 'nonce' } })
  })

  it('sends every request, discovery included, through the provider customFetch, and discovers once', async () => {
    const urls: string[] = []
    const target = provider({
      [customFetch]: (input, init) => (urls.push(new URL(urlOfFetchInput(input)).pathname), fetch(input, init)),
    })
    for (const accountId of ['alice', 'bob']) {
      const values = { codeVerifier: randomPKCECodeVerifier() }
      const { result } = await authorize(target, accountId, values)
      await complete(target, result, values)
    }
    expect(urls.filter((path) => path.endsWith('/openid-configuration'))).toHaveLength(1)
    expect(urls.filter((path) => path === '/token')).toHaveLength(2)
    expect(urls).toContain('/jwks')
  })
})
