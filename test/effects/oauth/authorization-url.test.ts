/**
 * createAuthorizationUrl against the hostile OP (test/support/hostile-op.ts, a node:http fake used here for its
 * discovery document, which tests can bend) and against explicit plain OAuth 2 endpoints.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client'
import { OAuthSignInError } from '../../../src/errors.js'
import { createAuthorizationUrl } from '../../../src/effects/oauth/authorization-url.js'
import {
  normalizeOAuthProvider,
  type OAuthConfigOfAnyProfile,
} from '../../../src/providers-internal/normalize-oauth.js'
import OAuth from '../../../src/providers/oauth.js'
import OIDC from '../../../src/providers/oidc.js'
import type { OAuthConfigInternal, OIDCUserConfig } from '../../../src/types/providers.js'
import { customFetch } from '../../../src/types/symbols.js'
import { startHostileOp, type HostileOp } from '../../support/hostile-op.js'
import { urlOfFetchInput } from '../../support/fetch-input.js'

const redirectUri = 'http://localhost:3000/auth/callback/op'
const timeoutMs = 2000
let op: HostileOp
// A TCP server that accepts connections and never answers: a provider that hangs (no HTTP to fake, only silence).
let silent: Server
let silentUrl: string
const silentSockets = new Set<Socket>()

beforeAll(async () => {
  op = await startHostileOp()
  silent = createServer((socket) => silentSockets.add(socket))
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
})
beforeEach(() => op.behave({}))
afterAll(async () => {
  await op.close()
  for (const socket of silentSockets) socket.destroy()
  await new Promise((resolve) => silent.close(resolve))
})

const resolve = (config: OAuthConfigOfAnyProfile): OAuthConfigInternal =>
  normalizeOAuthProvider(config, { signinUrl: 'http://localhost:3000/auth/signin/op', callbackUrl: redirectUri })
const oidc = (overrides: Partial<OIDCUserConfig> = {}) =>
  resolve(OIDC({ id: 'op', name: 'OP', issuer: op.issuer, clientId: 'client', clientSecret: 'secret', ...overrides }))
const values = () => ({ state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() })
const signInError = (check: string) => ({ constructor: OAuthSignInError, cause: { check } })

describe('createAuthorizationUrl', () => {
  it("sends the provider params, the per-request params, and OIDC's default scope", async () => {
    const provider = oidc({ authorization: { params: { prompt: 'consent' } } })
    const url = await createAuthorizationUrl(provider, {
      redirectUri,
      ...values(),
      params: { login_hint: 'ada@example.test' },
      timeoutMs,
    })
    expect(`${url.origin}${url.pathname}`).toBe(`${op.issuer}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid profile email',
      prompt: 'consent',
      login_hint: 'ada@example.test',
    })
  })

  it('sends exactly what the checks ask for', async () => {
    const flow = values()
    const all = await createAuthorizationUrl(oidc({ checks: ['pkce', 'state', 'nonce'] }), {
      redirectUri,
      ...flow,
      timeoutMs,
    })
    expect([
      all.searchParams.get('state'),
      all.searchParams.get('nonce'),
      all.searchParams.get('code_challenge_method'),
    ]).toEqual([flow.state, flow.nonce, 'S256'])
    const none = await createAuthorizationUrl(oidc({ checks: ['none'] }), { redirectUri, ...flow, timeoutMs })
    expect(['state', 'nonce', 'code_challenge'].filter((name) => none.searchParams.has(name))).toEqual([])
  })

  it('refuses per-request params that would override the flow protection', async () => {
    for (const name of ['redirect_uri', 'state', 'nonce', 'code_challenge', 'client_id']) {
      await expect(
        createAuthorizationUrl(oidc(), { redirectUri, ...values(), params: { [name]: 'attacker' }, timeoutMs }),
      ).rejects.toMatchObject(signInError('params'))
    }
  })

  it("keeps response_type under the flow's control: a provider's params cannot switch it to another flow", async () => {
    // `response_type=token` in provider params would turn the sign-in into the implicit flow (tokens in the URL).
    const url = await createAuthorizationUrl(oidc({ authorization: { params: { response_type: 'token' } } }), {
      redirectUri,
      ...values(),
      timeoutMs,
    })
    expect(url.searchParams.get('response_type')).toBe('code')
    const assertion = await createAuthorizationUrl(
      oidc({ codeGrant: 'jwt-bearer-assertion', authorization: { params: { response_type: 'token' } } }),
      { redirectUri, ...values(), timeoutMs },
    )
    expect(assertion.searchParams.get('response_type')).toBe('Assertion')
  })

  it('refuses to start when a check has no value to send', async () => {
    await expect(
      createAuthorizationUrl(oidc({ checks: ['pkce', 'state'] }), {
        redirectUri,
        codeVerifier: randomPKCECodeVerifier(),
        timeoutMs,
      }),
    ).rejects.toMatchObject(signInError('config'))
  })

  it('uses explicit endpoints of a plain OAuth 2 provider without any request', async () => {
    const requests: string[] = []
    const provider = resolve(
      OAuth({
        id: 'plain',
        name: 'Plain',
        clientId: 'client',
        clientSecret: 'secret',
        authorization: 'https://auth.example.test/oauth/authorize?scope=read',
        token: 'https://auth.example.test/oauth/token',
        [customFetch]: (input, init) => (requests.push(urlOfFetchInput(input)), fetch(input, init)),
      }),
    )
    const url = await createAuthorizationUrl(provider, { redirectUri, ...values(), timeoutMs })
    expect(url.href.startsWith('https://auth.example.test/oauth/authorize?')).toBe(true)
    expect(url.searchParams.get('scope')).toBe('read')
    expect(requests).toEqual([])
  })

  it('does not cache a failed discovery: the next sign-in discovers again', async () => {
    const provider = oidc()
    op.behave({ discovery: { issuer: 'https://evil.example' } })
    await expect(createAuthorizationUrl(provider, { redirectUri, ...values(), timeoutMs })).rejects.toMatchObject(
      signInError('discovery'),
    )
    op.behave({})
    await expect(createAuthorizationUrl(provider, { redirectUri, ...values(), timeoutMs })).resolves.toBeInstanceOf(URL)
  })

  it('refuses an authorization endpoint that discovery downgrades to plain http', async () => {
    op.behave({ discovery: { authorization_endpoint: 'http://evil.example/authorize' } })
    await expect(createAuthorizationUrl(oidc(), { redirectUri, ...values(), timeoutMs })).rejects.toMatchObject(
      signInError('endpoint'),
    )
  })

  it('gives up on a discovery request that is never answered, after the timeout', async () => {
    const provider = oidc({ issuer: silentUrl })
    const started = Date.now()
    await expect(createAuthorizationUrl(provider, { redirectUri, ...values(), timeoutMs: 250 })).rejects.toMatchObject(
      signInError('timeout'),
    )
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
