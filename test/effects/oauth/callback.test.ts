/**
 * handleOAuthCallback beyond the ID token: plain OAuth 2 providers, userinfo, the provider's profile() and
 * account(), and malformed callbacks. The OP is the hostile one (test/support/hostile-op.ts, a node:http fake),
 * because these cases need its token and userinfo answers bent on purpose.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client'
import { OAuthCallbackError, OAuthProfileParseError } from '../../../src/errors.js'
import { createAuthorizationUrl } from '../../../src/effects/oauth/authorization-url.js'
import { handleOAuthCallback } from '../../../src/effects/oauth/callback.js'
import {
  normalizeOAuthProvider,
  type OAuthConfigOfAnyProfile,
} from '../../../src/providers-internal/normalize-oauth.js'
import OAuth, { type GenericOAuthOptions } from '../../../src/providers/oauth.js'
import OIDC from '../../../src/providers/oidc.js'
import type { OAuthConfigInternal, OIDCUserConfig } from '../../../src/types/providers.js'
import { startHostileOp, type HostileBehaviour, type HostileOp } from '../../support/hostile-op.js'

const redirectUri = 'http://localhost:3000/auth/callback/op'
const timeoutMs = 2000
let op: HostileOp
beforeAll(async () => {
  op = await startHostileOp()
})
beforeEach(() => op.behave({}))
afterAll(() => op.close())

const resolve = (config: OAuthConfigOfAnyProfile): OAuthConfigInternal =>
  normalizeOAuthProvider(config, { signinUrl: 'http://localhost:3000/auth/signin/op', callbackUrl: redirectUri })
const plain = (overrides: Partial<GenericOAuthOptions> = {}) =>
  resolve(
    OAuth({
      id: 'plain',
      name: 'Plain',
      clientId: 'client',
      clientSecret: 'secret',
      authorization: `${op.issuer}/authorize`,
      token: `${op.issuer}/token`,
      userinfo: `${op.issuer}/userinfo`,
      ...overrides,
    }),
  )
const oidc = (overrides: Partial<OIDCUserConfig> = {}) =>
  resolve(OIDC({ id: 'op', name: 'OP', issuer: op.issuer, clientId: 'client', clientSecret: 'secret', ...overrides }))

async function signIn(
  provider: OAuthConfigInternal,
  behaviour: HostileBehaviour = {},
  tamper?: (params: URLSearchParams) => void,
  now?: () => number,
) {
  const values = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() }
  const url = await createAuthorizationUrl(provider, { redirectUri, ...values, timeoutMs })
  op.behave(behaviour)
  const callbackParams = await op.authorize(url)
  tamper?.(callbackParams)
  return handleOAuthCallback(provider, {
    callbackParams,
    redirectUri,
    expectedState: values.state,
    expectedNonce: values.nonce,
    codeVerifier: values.codeVerifier,
    timeoutMs,
    now,
  })
}

describe('plain OAuth 2 providers', () => {
  it('take the profile from the userinfo endpoint and keep no id_token they were sent', async () => {
    const { user, account, profile } = await signIn(plain())
    expect(profile).toEqual({ sub: 'victim', email: 'victim@example.test', name: 'Vic Tim' })
    expect(user).toEqual({ id: 'victim', name: 'Vic Tim', email: 'victim@example.test' })
    expect(account).toMatchObject({ provider: 'plain', type: 'oauth', providerAccountId: 'victim' })
    expect(account.id_token).toBeUndefined()
  })

  it('ignore an iss parameter when no issuer is configured, and check it when one is', async () => {
    await expect(signIn(plain())).resolves.toMatchObject({ user: { id: 'victim' } })
    const issuer = 'http://localhost:9/configured-issuer'
    await expect(signIn(plain({ issuer }))).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'iss', expected: issuer },
    })
  })

  it('refuse a userinfo endpoint answering with an error status', async () => {
    await expect(signIn(plain(), { userinfo: { status: 500, body: { error: 'server_error' } } })).rejects.toMatchObject(
      { constructor: OAuthCallbackError, cause: { check: 'userinfo', status: 500 } },
    )
  })

  it('refuse a userinfo answer that is not a JSON object', async () => {
    await expect(signIn(plain(), { userinfo: { status: 200, body: ['not', 'a', 'profile'] } })).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'userinfo' },
    })
  })
})

describe('OIDC userinfo (idToken: false)', () => {
  it('refuses userinfo describing another subject than the ID token', async () => {
    const sending = signIn(oidc({ idToken: false }), {
      userinfo: { status: 200, body: { sub: 'someone-else', email: 'x@example.test' } },
    })
    await expect(sending).rejects.toMatchObject({ constructor: OAuthCallbackError, cause: { check: 'userinfo' } })
  })

  it("takes a signed userinfo answer (application/jwt) signed with the OP's published key", async () => {
    const result = await signIn(oidc({ idToken: false }), {
      userinfoJwt: { signing: 'honest', claims: { name: 'Signed Vic' } },
    })
    expect(result.profile).toMatchObject({ sub: 'victim', name: 'Signed Vic' })
  })

  it.each([
    ['a key the OP never published', 'unpublished-key'],
    ['a foreign key under the published kid', 'published-kid-wrong-key'],
    ['alg none', 'alg-none'],
    ['HS256 keyed with the public key', 'hs256-with-public-key'],
  ] as const)('refuses a signed userinfo answer signed with %s', async (_, signing) => {
    const sending = signIn(oidc({ idToken: false }), {
      userinfoJwt: { signing, claims: { email: 'attacker@example.test' } },
    })
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'userinfo_signature', reason: 'signature' },
    })
  })

  it('refuses a signed userinfo answer meant for another client or from another issuer', async () => {
    await expect(
      signIn(oidc({ idToken: false }), { userinfoJwt: { signing: 'honest', claims: { aud: 'another-client' } } }),
    ).rejects.toMatchObject({ cause: { check: 'userinfo_signature', reason: 'aud' } })
    await expect(
      signIn(oidc({ idToken: false }), {
        userinfoJwt: { signing: 'honest', claims: { iss: 'https://elsewhere.test' } },
      }),
    ).rejects.toMatchObject({ cause: { check: 'userinfo_signature', reason: 'iss' } })
  })
})

describe('a challenge header on a successful answer (FusionAuth)', () => {
  // FusionAuth answers its token and userinfo endpoints with `WWW-Authenticate` on 200 responses; oauth4webapi reads
  // any such header as a refusal, so Auth.js users of FusionAuth strip it in `token.conform` and a custom userinfo.
  // A challenge belongs to a 401 (RFC 6750 §3); on a 200 it is dropped, and a 401's is kept.
  const fusionAuthHeaders = { 'www-authenticate': 'Bearer realm="FusionAuth"' }

  it.each([
    ['an OIDC provider (openid-client reads userinfo)', () => oidc({ idToken: false })],
    ['a plain OAuth 2 provider', () => plain()],
  ])('%s signs in', async (_, provider) => {
    const { user } = await signIn(provider(), { extraHeaders: fusionAuthHeaders })
    expect(user).toMatchObject({ id: 'victim', email: 'victim@example.test' })
  })

  it('still refuses a 401 that carries a challenge', async () => {
    await expect(
      signIn(oidc({ idToken: false }), {
        userinfo: { status: 401, body: { error: 'invalid_token' } },
        extraHeaders: { 'www-authenticate': 'Bearer error="invalid_token"' },
      }),
    ).rejects.toBeInstanceOf(OAuthCallbackError)
  })
})

describe('profile() and account()', () => {
  it('turns a throwing profile() into OAuthProfileParseError', async () => {
    const provider = plain({
      profile: () => {
        throw new Error('unexpected shape')
      },
    })
    await expect(signIn(provider)).rejects.toMatchObject({
      constructor: OAuthProfileParseError,
      cause: { check: 'profile' },
    })
  })

  it('refuses a profile() result without id rather than inventing one', async () => {
    await expect(signIn(plain({ profile: (profile) => ({ name: String(profile.name) }) }))).rejects.toBeInstanceOf(
      OAuthProfileParseError,
    )
  })

  it('maps the account with account(), expires_at from expires_in, and the token type lowercased', async () => {
    // A minute ahead of the OP: still inside the ID token's lifetime, and visibly the clock expires_at is based on.
    const now = Date.now() + 60_000
    const provider = oidc({
      account: (tokens) => ({
        access_token: tokens.access_token,
        expires_at: tokens.expires_at,
        token_type: tokens.token_type,
      }),
    })
    const { account, tokens } = await signIn(
      provider,
      { tokenBody: (body) => ({ ...body, token_type: 'BEARER', expires_in: 120 }) },
      undefined,
      () => now,
    )
    expect(account).toEqual({
      access_token: tokens.access_token,
      expires_at: Math.floor(now / 1000) + 120,
      token_type: 'bearer',
      provider: 'op',
      type: 'oidc',
      providerAccountId: 'victim',
    })
  })
})

describe('malformed callbacks', () => {
  it('refuses a callback that repeats the state parameter', async () => {
    const sending = signIn(oidc({ checks: ['pkce', 'state'] }), {}, (params) => params.append('state', 'second'))
    await expect(sending).rejects.toMatchObject({ constructor: OAuthCallbackError, cause: { check: 'state' } })
  })

  it('refuses a callback without a code', async () => {
    await expect(signIn(oidc(), {}, (params) => params.delete('code'))).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'code' },
    })
  })

  it('refuses to run when the flow lost the value a check needs', async () => {
    const provider = oidc({ checks: ['pkce', 'state'] })
    const sending = handleOAuthCallback(provider, {
      callbackParams: new URLSearchParams({ code: 'c', state: 's' }),
      redirectUri,
      codeVerifier: 'v',
      timeoutMs,
    })
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthCallbackError,
      cause: { check: 'state', reason: 'missing_expected_value' },
    })
  })

  it('reports a token endpoint that refuses the connection', async () => {
    op.behave({ discovery: { token_endpoint: 'http://127.0.0.1:1/token' } })
    const provider = oidc()
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const callbackParams = await op.authorize(
      await createAuthorizationUrl(provider, { redirectUri, ...values, timeoutMs }),
    )
    await expect(
      handleOAuthCallback(provider, { callbackParams, redirectUri, ...values, timeoutMs }),
    ).rejects.toMatchObject({ constructor: OAuthCallbackError, cause: { check: 'token_endpoint', reason: 'network' } })
  })

  it('never sends the code to a token endpoint that discovery downgrades to plain http', async () => {
    op.behave({ discovery: { token_endpoint: 'http://evil.example/token' } })
    const provider = oidc()
    const values = { codeVerifier: randomPKCECodeVerifier() }
    const url = await createAuthorizationUrl(provider, { redirectUri, ...values, timeoutMs })
    const callbackParams = await op.authorize(url)
    await expect(
      handleOAuthCallback(provider, { callbackParams, redirectUri, ...values, timeoutMs }),
    ).rejects.toMatchObject({ constructor: OAuthCallbackError, cause: { check: 'endpoint' } })
  })
})
