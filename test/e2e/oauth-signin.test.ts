/**
 * OIDC sign-in through `Auth()` end to end, against a real `oidc-provider` on a loopback port: the flow cookie, the
 * callback, the session afterwards, and the flow-level attacks the machine refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig, TransitionRecord } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

let op: RunningOidcProvider
const redirect = (id: string) => `${origin}/auth/callback/${id}`

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 'app-secret',
        redirect_uris: [redirect('idp'), redirect('idp2')],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: 'post-app',
        client_secret: 'post-secret',
        redirect_uris: [redirect('idp-post')],
        token_endpoint_auth_method: 'client_secret_post',
        response_types: ['code'],
      },
    ],
  })
})

afterAll(async () => {
  await op?.close()
})

function oidcConfig(overrides: Partial<AuthConfig> = {}, providerOverrides: Record<string, unknown> = {}) {
  return testConfig({
    providers: [
      OIDC({
        id: 'idp',
        name: 'Test IdP',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 'app-secret',
        checks: ['pkce', 'state', 'nonce'],
        ...providerOverrides,
      }),
      OIDC({ id: 'idp2', name: 'Second', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' }),
    ],
    ...overrides,
  })
}

/** POST /signin/idp and return the provider URL the browser is sent to. */
async function startSignIn(config: AuthConfig, jar: CookieJar, provider = 'idp', callbackUrl = '/after') {
  const token = await csrfToken(config, jar)
  const response = await send(config, `/auth/signin/${provider}`, { jar, form: { csrfToken: token, callbackUrl } })
  expect(response.status).toBe(302)
  return response.headers.get('location') as string
}

async function providerCallback(authorizationUrl: string, account = 'alice'): Promise<string> {
  const result = await op.signInAs(authorizationUrl, account)
  if (result.mode !== 'query') throw new Error('expected a query response')
  return `${result.callbackUrl.pathname}${result.callbackUrl.search}`
}

describe('OIDC sign-in through Auth()', () => {
  it('signs in with pkce+state+nonce and the session holds the mapped user', async () => {
    const transitions: TransitionRecord[] = []
    const config = oidcConfig({
      onTransition: (t) => {
        transitions.push(t)
      },
    })
    const jar = new CookieJar()
    const authorizationUrl = await startSignIn(config, jar)
    const url = new URL(authorizationUrl)
    expect(url.origin).toBe(op.issuer)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')).toBeTruthy()
    expect(url.searchParams.get('nonce')).toBeTruthy()
    expect(jar.cookies.has('authchart.flow')).toBe(true)
    const callbackPath = await providerCallback(authorizationUrl)
    // The whole Cookie header of the callback request: the goal is at most 700 bytes with pkce+state+nonce.
    expect(jar.header().length).toBeLessThanOrEqual(700)
    const response = await send(config, callbackPath, { jar })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${origin}/after`)
    expect(jar.cookies.has('authchart.flow')).toBe(false)
    const body = (await session(config, jar)) as { user: { email: string; name: string } }
    expect(body.user).toMatchObject({ email: 'alice@example.test' })
    expect(transitions.map((t) => t.to)).toEqual(
      expect.arrayContaining(['awaitingCallback', 'exchangingCode', 'signedIn']),
    )
    // The audit trail carries no secrets: no verifier, state, nonce or code anywhere in it.
    const trail = JSON.stringify(transitions)
    expect(trail).not.toContain(url.searchParams.get('state') as string)
    expect(trail).not.toContain(new URL(callbackPath, origin).searchParams.get('code') as string)
  })

  it('signs in with the default checks (pkce only)', async () => {
    const config = testConfig({
      providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
    })
    const jar = new CookieJar()
    const authorizationUrl = await startSignIn(config, jar)
    expect(new URL(authorizationUrl).searchParams.get('state')).toBeNull()
    await send(config, await providerCallback(authorizationUrl, 'bob'), { jar })
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('bob@example.test')
  })

  it('refuses a replayed callback: the cookie store cannot forget, but the provider code is single-use', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const authorizationUrl = await startSignIn(config, jar)
    const callbackPath = await providerCallback(authorizationUrl)
    const flowCookie = jar.cookies.get('authchart.flow') as string
    await send(config, callbackPath, { jar })
    const attacker = new CookieJar()
    attacker.cookies.set('authchart.flow', flowCookie)
    const replay = await send(config, callbackPath, { jar: attacker })
    expect(new URL(replay.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(attacker.cookies.has('authjs.session-token')).toBe(false)
  })

  it('refuses a callback without the flow cookie (another browser)', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const callbackPath = await providerCallback(await startSignIn(config, jar))
    const otherBrowser = new CookieJar()
    const response = await send(config, callbackPath, { jar: otherBrowser })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(otherBrowser.cookies.has('authjs.session-token')).toBe(false)
  })

  it("refuses another browser's flow cookie: the state does not match", async () => {
    const config = oidcConfig()
    const victim = new CookieJar()
    const attacker = new CookieJar()
    await startSignIn(config, victim)
    const attackerCallback = await providerCallback(await startSignIn(config, attacker), 'bob')
    // Login CSRF: the victim's browser is made to complete the attacker's authorization response.
    const response = await send(config, attackerCallback, { jar: victim })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(victim.cookies.has('authjs.session-token')).toBe(false)
  })

  it('refuses a tampered flow cookie', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const callbackPath = await providerCallback(await startSignIn(config, jar))
    const value = jar.cookies.get('authchart.flow') as string
    jar.cookies.set('authchart.flow', `${value.slice(0, -5)}AAAAA`)
    const response = await send(config, callbackPath, { jar })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('refuses a callback for another provider id than the flow began with', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const callbackPath = await providerCallback(await startSignIn(config, jar))
    const response = await send(config, callbackPath.replace('/callback/idp?', '/callback/idp2?'), { jar })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('refuses a sign-in POST without the CSRF token', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const response = await send(config, '/auth/signin/idp', { jar, form: { callbackUrl: '/x' } })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Signin')
    expect(jar.cookies.has('authchart.flow')).toBe(false)
  })

  it('answers error=OAuthSignin when discovery fails', async () => {
    const config = testConfig({
      providers: [
        OIDC({ id: 'idp', name: 'Down', issuer: 'http://127.0.0.1:9/nowhere', clientId: 'a', clientSecret: 'b' }),
      ],
      providerTimeout: 1000,
    })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/signin/idp', { jar, form: { csrfToken: token } })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthSignin')
  })

  it('passes per-request authorization params through to the provider', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/signin/idp?prompt=login&login_hint=alice', {
      jar,
      form: { csrfToken: token },
    })
    const url = new URL(response.headers.get('location') as string)
    expect(url.searchParams.get('prompt')).toBe('login')
    expect(url.searchParams.get('login_hint')).toBe('alice')
  })

  it('sends the user to the error page when the signIn callback refuses the OIDC user', async () => {
    const config = oidcConfig({ callbacks: { signIn: ({ profile }) => profile?.email === 'only-this@example.test' } })
    const jar = new CookieJar()
    const response = await send(config, await providerCallback(await startSignIn(config, jar)), { jar })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('AccessDenied')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })
})

describe('OIDC variants through Auth()', () => {
  let strictOp: RunningOidcProvider
  beforeAll(async () => {
    // conformIdTokenClaims: the ID token carries only `sub`, so a name or e-mail in the session proves userinfo was used.
    strictOp = await startOidcProvider({
      conformIdTokenClaims: true,
      clients: [
        {
          client_id: 'basic',
          client_secret: 'basic-secret',
          redirect_uris: [redirect('userinfo'), redirect('formpost')],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        {
          client_id: 'post',
          client_secret: 'post-secret',
          redirect_uris: [redirect('post')],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
    })
  })
  afterAll(async () => {
    await strictOp?.close()
  })

  function variantConfig() {
    return testConfig({
      providers: [
        OIDC({
          id: 'userinfo',
          name: 'Userinfo',
          issuer: strictOp.issuer,
          clientId: 'basic',
          clientSecret: 'basic-secret',
          idToken: false,
          checks: ['pkce', 'nonce'],
        }),
        OIDC({
          id: 'formpost',
          name: 'Form post',
          issuer: strictOp.issuer,
          clientId: 'basic',
          clientSecret: 'basic-secret',
          idToken: false,
          authorization: { params: { response_mode: 'form_post', scope: 'openid profile email' } },
        }),
        OIDC({
          id: 'post',
          name: 'Secret post',
          issuer: strictOp.issuer,
          clientId: 'post',
          clientSecret: 'post-secret',
          idToken: false,
          client: { token_endpoint_auth_method: 'client_secret_post' },
        }),
      ],
    })
  }

  async function begin(config: AuthConfig, jar: CookieJar, provider: string) {
    const token = await csrfToken(config, jar)
    const response = await send(config, `/auth/signin/${provider}`, {
      jar,
      form: { csrfToken: token, callbackUrl: '/v' },
    })
    return strictOp.signInAs(response.headers.get('location') as string, 'alice')
  }

  it('takes the profile from the userinfo endpoint with idToken: false', async () => {
    const config = variantConfig()
    const jar = new CookieJar()
    const result = await begin(config, jar, 'userinfo')
    if (result.mode !== 'query') throw new Error('expected a query response')
    await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('alice@example.test')
  })

  it('completes a response_mode=form_post callback (a POST from the provider, no CSRF token)', async () => {
    const config = variantConfig()
    const jar = new CookieJar()
    const result = await begin(config, jar, 'formpost')
    if (result.mode !== 'form_post') throw new Error('expected a form_post response')
    const response = await send(config, new URL(result.action).pathname, {
      jar,
      form: Object.fromEntries(result.params),
    })
    expect(response.headers.get('location')).toBe(`${origin}/v`)
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('alice@example.test')
  })

  it('authenticates to the token endpoint with client_secret_post', async () => {
    const config = variantConfig()
    const jar = new CookieJar()
    const result = await begin(config, jar, 'post')
    if (result.mode !== 'query') throw new Error('expected a query response')
    await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('alice@example.test')
  })
})
