/**
 * Attacks on the OAuth client layer, each played by a misbehaving OP (test/support/hostile-op.ts: a fake on
 * node:http, because a real OP will not misbehave on demand). Each attack must be refused with the right error class
 * and `cause.check`, and no user or account may come out of it: at this layer, "no session" means the callback
 * handler rejects instead of returning a sign-in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client'
import { OAuthCallbackError, OAuthSignInError } from '../../../src/errors.js'
import { createAuthorizationUrl } from '../../../src/effects/oauth/authorization-url.js'
import { handleOAuthCallback } from '../../../src/effects/oauth/callback.js'
import { normalizeOAuthProvider } from '../../../src/providers-internal/normalize-oauth.js'
import OIDC from '../../../src/providers/oidc.js'
import type { OAuthConfigInternal, OIDCUserConfig } from '../../../src/types/providers.js'
import { startHostileOp, type HostileBehaviour, type HostileOp } from '../../support/hostile-op.js'

const redirectUri = 'http://localhost:3000/auth/callback/hostile'
const clientSecret = 'client-secret-of-at-least-32-bytes!!'
let op: HostileOp

beforeAll(async () => {
  op = await startHostileOp()
})
afterAll(() => op.close())
beforeEach(() => op.behave({}))

function provider(overrides: Partial<OIDCUserConfig> = {}): OAuthConfigInternal {
  const config = OIDC({
    id: 'hostile',
    name: 'Hostile',
    issuer: op.issuer,
    clientId: 'client',
    clientSecret,
    checks: ['pkce', 'state', 'nonce'],
    ...overrides,
  })
  return normalizeOAuthProvider(config, {
    signinUrl: 'http://localhost:3000/auth/signin/hostile',
    callbackUrl: redirectUri,
  })
}

/** One sign-in through the hostile OP; `tamper` changes the callback before it reaches us, as an attacker would. */
async function signIn(
  behaviour: HostileBehaviour,
  options: { target?: OAuthConfigInternal; timeoutMs?: number; tamper?: (params: URLSearchParams) => void } = {},
) {
  const target = options.target ?? provider()
  const values = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() }
  const url = await createAuthorizationUrl(target, { redirectUri, ...values, timeoutMs: 2000 })
  op.behave(behaviour)
  const callbackParams = await op.authorize(url)
  options.tamper?.(callbackParams)
  return handleOAuthCallback(target, {
    callbackParams,
    redirectUri,
    expectedState: values.state,
    expectedNonce: values.nonce,
    codeVerifier: values.codeVerifier,
    timeoutMs: options.timeoutMs ?? 2000,
  })
}

const refused = (check: string, extra: Record<string, unknown> = {}) => ({
  constructor: OAuthCallbackError,
  cause: { check, ...extra },
})

describe('the hostile OP, behaving', () => {
  it('completes a sign-in, so every refusal below is caused by the misbehaviour alone', async () => {
    await expect(signIn({})).resolves.toMatchObject({
      user: { id: 'victim' },
      account: { providerAccountId: 'victim', token_type: 'bearer' },
    })
  })

  it('accepts an HS256 ID token keyed with the client secret only when the client is configured for HS256', async () => {
    const signing = { hs256Secret: clientSecret }
    await expect(signIn({ idToken: { signing } })).rejects.toMatchObject(refused('id_token', { reason: 'alg' }))
    const target = provider({ client: { id_token_signed_response_alg: 'HS256' } })
    await expect(signIn({ idToken: { signing } }, { target })).resolves.toMatchObject({ user: { id: 'victim' } })
  })
})

describe('forged or broken ID tokens', () => {
  it('rejects an ID token signed with a key that is not in the provider JWKS', async () => {
    await expect(signIn({ idToken: { signing: 'unpublished-key' } })).rejects.toMatchObject(
      refused('id_token', { reason: 'signature' }),
    )
  })

  it('rejects an ID token signed with another key under a published kid', async () => {
    await expect(signIn({ idToken: { signing: 'published-kid-wrong-key' } })).rejects.toMatchObject(
      refused('id_token', { reason: 'signature' }),
    )
  })

  it('rejects alg none, even from an OP that advertises it', async () => {
    await expect(signIn({ idToken: { signing: 'alg-none' } })).rejects.toMatchObject(
      refused('id_token', { reason: 'alg' }),
    )
  })

  it('rejects HS256 keyed with the OP public key (key confusion)', async () => {
    await expect(signIn({ idToken: { signing: 'hs256-with-public-key' } })).rejects.toMatchObject(
      refused('id_token', { reason: 'alg' }),
    )
  })

  it('rejects an ID token from another issuer', async () => {
    const claims = (c: object) => ({ ...c, iss: 'https://evil.example' })
    await expect(signIn({ idToken: { claims } })).rejects.toMatchObject(
      refused('id_token', { reason: 'iss', received: 'https://evil.example' }),
    )
  })

  it('rejects an ID token for another audience', async () => {
    await expect(signIn({ idToken: { claims: (c) => ({ ...c, aud: 'another-client' }) } })).rejects.toMatchObject(
      refused('id_token', { reason: 'aud' }),
    )
  })

  it('rejects an ID token with an extra untrusted audience and no azp', async () => {
    await expect(
      signIn({ idToken: { claims: (c) => ({ ...c, aud: ['client', 'another-client'] }) } }),
    ).rejects.toMatchObject(refused('id_token', { reason: 'azp' }))
  })

  it('rejects an expired ID token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600
    await expect(signIn({ idToken: { claims: (c) => ({ ...c, iat: past - 300, exp: past }) } })).rejects.toMatchObject(
      refused('id_token', { reason: 'exp' }),
    )
  })

  it('rejects an ID token issued in the future', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600
    await expect(
      signIn({ idToken: { claims: (c) => ({ ...c, iat: future, exp: future + 300 }) } }),
    ).rejects.toMatchObject(refused('id_token', { reason: 'iat' }))
  })

  it('rejects an ID token without the nonce', async () => {
    await expect(signIn({ idToken: { claims: ({ nonce: _dropped, ...c }) => c } })).rejects.toMatchObject(
      refused('nonce', { received: 'missing' }),
    )
  })

  it('rejects an ID token with a foreign nonce', async () => {
    await expect(signIn({ idToken: { claims: (c) => ({ ...c, nonce: randomNonce() }) } })).rejects.toMatchObject(
      refused('nonce', { received: 'mismatch' }),
    )
  })

  it('rejects an ID token without sub', async () => {
    await expect(signIn({ idToken: { claims: ({ sub: _dropped, ...c }) => c } })).rejects.toMatchObject(
      refused('id_token', { reason: 'sub' }),
    )
  })
})

describe('broken token endpoint answers', () => {
  it('rejects a token response without an id_token', async () => {
    await expect(signIn({ tokenBody: ({ id_token: _dropped, ...body }) => body })).rejects.toMatchObject(
      refused('id_token', { reason: 'missing' }),
    )
  })

  it('rejects a token type other than bearer', async () => {
    await expect(signIn({ tokenBody: (body) => ({ ...body, token_type: 'mac' }) })).rejects.toMatchObject(
      refused('token_type', { received: 'mac' }),
    )
  })

  it('rejects a token endpoint answering HTML', async () => {
    await expect(signIn({ tokenTransport: 'html' })).rejects.toMatchObject(
      refused('token_endpoint', { contentType: 'text/html' }),
    )
  })

  it('rejects a token endpoint answering truncated JSON', async () => {
    await expect(signIn({ tokenTransport: 'truncated-json' })).rejects.toMatchObject(refused('token_endpoint'))
  })

  it('gives up on a token endpoint that never answers, after the configured timeout', async () => {
    const started = Date.now()
    await expect(signIn({ tokenTransport: 'hang' }, { timeoutMs: 300 })).rejects.toMatchObject(
      refused('timeout', { endpoint: 'token' }),
    )
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('rejects a replayed code: the OP refuses it the second time', async () => {
    const target = provider({ checks: ['pkce'] })
    const codeVerifier = randomPKCECodeVerifier()
    const url = await createAuthorizationUrl(target, { redirectUri, codeVerifier, timeoutMs: 2000 })
    const callbackParams = await op.authorize(url)
    const input = { callbackParams, redirectUri, codeVerifier, timeoutMs: 2000 }
    await expect(handleOAuthCallback(target, input)).resolves.toMatchObject({ user: { id: 'victim' } })
    await expect(handleOAuthCallback(target, input)).rejects.toMatchObject(refused('pkce', { error: 'invalid_grant' }))
  })
})

describe('tampered authorization responses', () => {
  it('rejects a callback whose iss names another issuer (RFC 9207 mix-up)', async () => {
    await expect(signIn({ callback: { iss: 'https://evil.example' } })).rejects.toMatchObject(
      refused('iss', { received: 'https://evil.example' }),
    )
  })

  it('rejects a callback without iss from an OP that advertises RFC 9207', async () => {
    await expect(signIn({ callback: { iss: null } })).rejects.toMatchObject(refused('iss'))
  })

  it('rejects a callback whose state does not match the flow', async () => {
    await expect(signIn({ callback: { state: randomState() } })).rejects.toMatchObject(
      refused('state', { received: 'mismatch' }),
    )
  })

  it('rejects a callback with the state removed', async () => {
    await expect(signIn({}, { tamper: (params) => params.delete('state') })).rejects.toMatchObject(
      refused('state', { received: 'missing' }),
    )
  })

  it('reports the error parameters the provider sent, and signs nobody in', async () => {
    const error = { error: 'access_denied', error_description: 'The user said no' }
    await expect(signIn({ callback: { error } })).rejects.toMatchObject(refused('provider_error', error))
  })

  it('rejects an error response whose state is forged before believing the error', async () => {
    await expect(
      signIn({ callback: { error: { error: 'access_denied' }, state: randomState() } }),
    ).rejects.toMatchObject(refused('state'))
  })
})

describe('discovery', () => {
  it('refuses a discovery document naming another issuer (found from the issuer)', async () => {
    op.behave({ discovery: { issuer: 'https://evil.example' } })
    const sending = createAuthorizationUrl(provider(), {
      redirectUri,
      state: 's',
      nonce: 'n',
      codeVerifier: randomPKCECodeVerifier(),
      timeoutMs: 2000,
    })
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthSignInError,
      cause: { check: 'discovery', received: 'https://evil.example' },
    })
  })

  it('refuses a discovery document naming another issuer (found from wellKnown)', async () => {
    op.behave({ discovery: { issuer: 'https://evil.example' } })
    const target = provider({ wellKnown: `${op.issuer}/.well-known/openid-configuration` })
    const sending = createAuthorizationUrl(target, {
      redirectUri,
      state: 's',
      nonce: 'n',
      codeVerifier: randomPKCECodeVerifier(),
      timeoutMs: 2000,
    })
    await expect(sending).rejects.toMatchObject({
      constructor: OAuthSignInError,
      cause: { check: 'discovery', expected: op.issuer, received: 'https://evil.example' },
    })
  })
})
