/**
 * redirectProxyUrl: a preview deployment signs in through the callback URL of another deployment (the proxy), which
 * forwards the provider's answer. Both deployments share the secret; the provider (a real oidc-provider) knows only
 * the proxy's callback. `state` is written as Auth.js writes it, so during a migration an `@auth/core` deployment
 * and an Authchart deployment can sit on either side of one proxy: both pairings are run here, against each other.
 */
import { Auth as AuthJs } from '@auth/core'
import { decode as authJsDecode, encode as authJsEncode } from '@auth/core/jwt'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, secret, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const proxy = 'http://auth.localhost:3000'
const preview = 'http://preview-42.localhost:3000'
let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${proxy}/auth/callback/idp`] }],
  })
})
afterAll(async () => {
  await op?.close()
})

const config = (overrides: Partial<AuthConfig> = {}) =>
  testConfig({
    redirectProxyUrl: `${proxy}/auth`,
    redirectProxyAllowedOrigins: ['http://*.localhost:3000'],
    providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
    ...overrides,
  })

/** An `@auth/core` deployment with the same secret, provider and proxy URL. */
function authJsDeployment() {
  const errors: Error[] = []
  const options = {
    secret,
    trustHost: true,
    basePath: '/auth',
    redirectProxyUrl: `${proxy}/auth`,
    providers: [
      { id: 'idp', name: 'IdP', type: 'oidc', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' },
    ],
    logger: { error: (error: Error) => void errors.push(error), warn: () => {}, debug: () => {} },
  } as unknown as Parameters<typeof AuthJs>[1]
  /** One request to it, the jar sending and keeping cookies as a browser at `base` would. */
  async function request(base: string, path: string, jar: CookieJar, form?: Record<string, string>) {
    const headers = new Headers()
    if (jar.cookies.size > 0) headers.set('cookie', jar.header())
    if (form) headers.set('content-type', 'application/x-www-form-urlencoded')
    const response = await AuthJs(
      new Request(`${base}${path}`, {
        method: form ? 'POST' : 'GET',
        headers,
        body: form ? new URLSearchParams(form).toString() : undefined,
      }),
      options,
    )
    jar.take(response)
    return response
  }
  return { request, errors }
}

/** The path and query of a URL, to send to the deployment at its origin. */
const pathOf = (url: URL) => `${url.pathname}${url.search}`

describe('redirect proxy', () => {
  it('signs a preview deployment in through the proxy callback', async () => {
    const cfg = config()
    const browserAtPreview = new CookieJar()
    const start = await send(cfg, '/auth/signin/idp', {
      base: preview,
      jar: browserAtPreview,
      form: { csrfToken: await csrfToken(cfg, browserAtPreview, preview), callbackUrl: '/after' },
    })
    const authorization = new URL(start.headers.get('location') as string)
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${proxy}/auth/callback/idp`)
    const result = await op.signInAs(authorization, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    expect(result.callbackUrl.origin).toBe(proxy)
    // The browser has no cookies for the proxy's host: the proxy only forwards.
    const forwarded = await send(cfg, pathOf(result.callbackUrl), { base: proxy, jar: new CookieJar() })
    const target = new URL(forwarded.headers.get('location') as string)
    expect(target.origin).toBe(preview)
    expect(target.searchParams.get('code')).toBe(result.params.get('code'))
    const done = await send(cfg, pathOf(target), { base: preview, jar: browserAtPreview })
    expect(done.headers.get('location')).toBe(`${preview}/after`)
    expect(((await session(cfg, browserAtPreview)) as { user: { email: string } }).user.email).toBe(
      'alice@example.test',
    )
  })

  it("writes state in Auth.js's format: @auth/core's decode reads the callback URL it names", async () => {
    const cfg = config()
    const jar = new CookieJar()
    const start = await send(cfg, '/auth/signin/idp', {
      base: preview,
      jar,
      form: { csrfToken: await csrfToken(cfg, jar, preview) },
    })
    const state = new URL(start.headers.get('location') as string).searchParams.get('state') as string
    const decoded = await authJsDecode({ token: state, secret, salt: 'encodedState' })
    expect(decoded).toMatchObject({ origin: `${preview}/auth/callback/idp`, random: expect.any(String) })
    // Valid for Auth.js's 15 minutes.
    expect((decoded?.exp as number) - (decoded?.iat as number)).toBe(15 * 60)
  })

  it('answers a state it cannot decode with InvalidCheck ("State could not be decoded"), forwarding nothing', async () => {
    const cfg = config()
    // Sealed by a deployment that does not share the secret: no open redirect through the proxy.
    const foreign = await authJsEncode({
      token: { origin: `${preview}/auth/callback/idp`, random: 'r' },
      secret: 'the-attackers-own-secret-of-32-characters',
      salt: 'encodedState',
      maxAge: 900,
    })
    for (const state of [foreign, 'not-a-token']) {
      const response = await send(cfg, `/auth/callback/idp?code=stolen&state=${encodeURIComponent(state)}`, {
        base: proxy,
        jar: new CookieJar(),
      })
      const location = new URL(response.headers.get('location') as string)
      expect(location.origin).toBe(proxy)
      expect(location.pathname).toBe('/auth/error')
      expect(location.searchParams.get('error')).toBe('Configuration')
      expect(location.searchParams.has('code')).toBe(false)
    }
    expect(cfg.recorded.refusals).toEqual([
      {
        code: 'refused:redirect-proxy-state',
        detail: { provider: 'idp', reason: 'State could not be decoded' },
      },
      {
        code: 'refused:redirect-proxy-state',
        detail: { provider: 'idp', reason: 'State could not be decoded' },
      },
    ])
    // The app's own logger.error receives Auth.js's InvalidCheck for each, as from Auth.js.
    expect(cfg.recorded.errors.map((e) => [e.name, e.message])).toEqual([
      ['InvalidCheck', 'State could not be decoded'],
      ['InvalidCheck', 'State could not be decoded'],
    ])
  })

  it('with the built-in logger, an undecodable state is one warn line and no error line', async () => {
    const { logger: _recording, ...withoutLogger } = config()
    const errorLines: unknown[][] = []
    const warnLines: unknown[][] = []
    const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errorLines.push(args))
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnLines.push(args))
    try {
      await send(withoutLogger, '/auth/callback/idp?code=stolen&state=not-a-token', {
        base: proxy,
        jar: new CookieJar(),
      })
    } finally {
      error.mockRestore()
      warn.mockRestore()
    }
    expect(errorLines).toEqual([])
    expect(warnLines.map((args) => String(args[0]))).toEqual([
      expect.stringContaining('[refused:redirect-proxy-state]'),
    ])
  })

  it('forwards without client credentials of its own: a proxy only needs the provider, the secret and the list', async () => {
    const previewConfig = config()
    const jar = new CookieJar()
    const start = await send(previewConfig, '/auth/signin/idp', {
      base: preview,
      jar,
      form: { csrfToken: await csrfToken(previewConfig, jar, preview) },
    })
    const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const bareProxy = config({ providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer })] })
    const forwarded = await send(bareProxy, pathOf(result.callbackUrl), { base: proxy })
    expect(new URL(forwarded.headers.get('location') as string).origin).toBe(preview)
  })
})

describe('redirect proxy between @auth/core and Authchart', () => {
  it('an @auth/core preview signs in through an Authchart proxy', async () => {
    const authJs = authJsDeployment()
    const browser = new CookieJar()
    const csrf = await authJs.request(preview, '/auth/csrf', browser)
    const { csrfToken: token } = (await csrf.json()) as { csrfToken: string }
    const start = await authJs.request(preview, '/auth/signin/idp', browser, {
      csrfToken: token,
      callbackUrl: `${preview}/after`,
    })
    const authorization = new URL(start.headers.get('location') as string)
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${proxy}/auth/callback/idp`)
    const result = await op.signInAs(authorization, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')

    const authchartProxy = config()
    const forwarded = await send(authchartProxy, pathOf(result.callbackUrl), { base: proxy, jar: new CookieJar() })
    const target = new URL(forwarded.headers.get('location') as string)
    expect(target.origin).toBe(preview)
    expect(target.pathname).toBe('/auth/callback/idp')
    expect(authchartProxy.recorded.refusals).toEqual([])

    const done = await authJs.request(preview, pathOf(target), browser)
    expect(done.headers.get('location')).toBe(`${preview}/after`)
    const current = await authJs.request(preview, '/auth/session', browser)
    expect(((await current.json()) as { user: { email: string } }).user.email).toBe('alice@example.test')
    expect(authJs.errors).toEqual([])
  })

  it('an Authchart preview signs in through an @auth/core proxy', async () => {
    const cfg = config()
    const browser = new CookieJar()
    const start = await send(cfg, '/auth/signin/idp', {
      base: preview,
      jar: browser,
      form: { csrfToken: await csrfToken(cfg, browser, preview), callbackUrl: '/after' },
    })
    const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')

    const authJsProxy = authJsDeployment()
    const forwarded = await authJsProxy.request(proxy, pathOf(result.callbackUrl), new CookieJar())
    const target = new URL(forwarded.headers.get('location') as string)
    expect(target.origin).toBe(preview)
    expect(target.searchParams.get('code')).toBe(result.params.get('code'))
    expect(authJsProxy.errors).toEqual([])

    const done = await send(cfg, pathOf(target), { base: preview, jar: browser })
    expect(done.headers.get('location')).toBe(`${preview}/after`)
    expect(((await session(cfg, browser)) as { user: { email: string } }).user.email).toBe('alice@example.test')
  })

  it('@auth/core, as the proxy, refuses a state Authchart did not write with the same InvalidCheck', async () => {
    const authJsProxy = authJsDeployment()
    const response = await authJsProxy.request(
      proxy,
      '/auth/callback/idp?code=stolen&state=not-a-token',
      new CookieJar(),
    )
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Configuration')
    expect(authJsProxy.errors[0]?.name).toBe('InvalidCheck')
    expect(authJsProxy.errors[0]?.message).toMatch(/^State could not be decoded/)
  })
})
