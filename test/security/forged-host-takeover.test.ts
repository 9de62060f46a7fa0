/**
 * The redirect-proxy account takeover: with `redirectProxyUrl` and `trustHost`, a sign-in started with a forged
 * `Host` used to seal the attacker's host as the place the proxy forwards the victim's code to. Each step of that
 * chain is refused here, in-process and over HTTP through `ExpressAuth` with nothing but a forged `Host`; and the
 * legitimate preview deployment still signs in through the proxy against a real OpenID Provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExpressAuth } from '../../src/frameworks/express.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { cookieNames, http, startApp, type RunningApp } from '../frameworks/express-http.js'
import { CookieJar, csrfToken, send, session, testConfig } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const proxy = 'http://auth.localhost:3000'
const preview = 'http://preview-42.preview.localhost:3000'
const evil = 'http://evil.attacker.test'

let op: RunningOidcProvider

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${proxy}/auth/callback/idp`] }],
  })
})
afterAll(async () => {
  await op?.close()
})

function deployment(overrides: Partial<AuthConfig> = {}) {
  return testConfig({
    redirectProxyUrl: `${proxy}/auth`,
    redirectProxyAllowedOrigins: ['http://*.preview.localhost:3000'],
    providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
    ...overrides,
  })
}

async function startSignIn(config: AuthConfig, base: string, jar = new CookieJar()) {
  const response = await send(config, '/auth/signin/idp', {
    base,
    jar,
    form: { csrfToken: await csrfToken(config, jar, base), callbackUrl: '/after' },
  })
  return { response, location: new URL(response.headers.get('location') as string), jar }
}

describe('the forged-Host takeover chain, in-process', () => {
  it('a deployment without a configured URL refuses to start a proxied sign-in for a host it was not told about', async () => {
    const config = deployment()
    const { location } = await startSignIn(config, evil)
    // No authorization URL ever exists, so there is nothing to hand a victim.
    expect(location.origin).not.toBe(new URL(op.issuer).origin)
    expect(location.searchParams.get('error')).toBe('OAuthSignin')
    expect(config.recorded.refusals).toEqual([
      { code: 'refused:redirect-proxy-origin', detail: expect.objectContaining({ provider: 'idp', origin: evil }) },
    ])
  })

  it('a deployment with a configured URL seals that URL, whatever Host the attacker sends', async () => {
    const config = deployment({ url: preview })
    const { location } = await startSignIn(config, evil)
    expect(location.origin).toBe(new URL(op.issuer).origin)
    // The victim signs in at the OP; the proxy forwards the code to the configured deployment, not to the attacker.
    const result = await op.signInAs(location, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const atProxy = await send(deployment(), `${result.callbackUrl.pathname}${result.callbackUrl.search}`, {
      base: proxy,
    })
    const forwarded = new URL(atProxy.headers.get('location') as string)
    expect(forwarded.origin).toBe(preview)
    expect(forwarded.href).not.toContain('attacker')
  })

  it('the proxy refuses a sealed callback naming an origin off its allow-list, and the attacker holds no session', async () => {
    // A deployment that shares the secret but points at the attacker (a misconfigured or older deployment):
    // its sealed state is the only way a note naming the attacker's host can exist.
    const misconfigured = deployment({ url: evil, redirectProxyAllowedOrigins: [evil] })
    const attackerJar = new CookieJar()
    const { location } = await startSignIn(misconfigured, evil, attackerJar)
    const result = await op.signInAs(location, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const proxyConfig = deployment()
    const atProxy = await send(proxyConfig, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, {
      base: proxy,
    })
    const answer = new URL(atProxy.headers.get('location') as string)
    expect(answer.origin).toBe(proxy)
    expect(answer.searchParams.get('error')).toBe('OAuthCallbackError')
    expect(answer.searchParams.has('code')).toBe(false)
    expect(proxyConfig.recorded.refusals).toEqual([
      { code: 'refused:redirect-proxy-target', detail: expect.objectContaining({ origin: evil }) },
    ])
    // Without the code, the attacker's flow cookie leads nowhere.
    expect(await session(misconfigured, attackerJar)).toBeNull()
  })

  it('with no allow-list the proxy forwards nowhere and says so at start-up', async () => {
    const config = deployment({ redirectProxyAllowedOrigins: [] })
    const { location } = await startSignIn(config, preview)
    expect(location.searchParams.get('error')).toBe('OAuthSignin')
    expect(config.recorded.warnings).toContain('redirect-proxy-without-allowlist')
  })

  it('an allow-listed preview deployment still signs in through the proxy against the real OP', async () => {
    const config = deployment()
    const { location, jar } = await startSignIn(config, preview)
    expect(location.searchParams.get('redirect_uri')).toBe(`${proxy}/auth/callback/idp`)
    const result = await op.signInAs(location, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const atProxy = await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { base: proxy })
    const forwarded = new URL(atProxy.headers.get('location') as string)
    expect(forwarded.origin).toBe(preview)
    const done = await send(config, `${forwarded.pathname}${forwarded.search}`, { base: preview, jar })
    expect(done.headers.get('location')).toBe(`${preview}/after`)
    expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('alice@example.test')
    expect(config.recorded.refusals).toEqual([])
  })
})

describe('the forged-Host takeover chain, over HTTP through ExpressAuth', () => {
  let previewApp: RunningApp
  let configuredApp: RunningApp
  let proxyApp: RunningApp
  let previewConfig: ReturnType<typeof deployment>
  let proxyConfig: ReturnType<typeof deployment>

  beforeAll(async () => {
    previewConfig = deployment()
    proxyConfig = deployment()
    previewApp = await startApp((app) => app.use(ExpressAuth(previewConfig)))
    proxyApp = await startApp((app) => app.use(ExpressAuth(proxyConfig)))
    configuredApp = await startApp((app) => app.use(ExpressAuth(deployment({ url: preview }))))
  })
  afterAll(async () => {
    await previewApp?.close()
    await proxyApp?.close()
    await configuredApp?.close()
  })

  async function signInOverHttp(port: number, host: string) {
    const jar = new CookieJar()
    const csrf = await http(port, '/auth/csrf', { jar, headers: { host } })
    const { csrfToken: token } = JSON.parse(csrf.body) as { csrfToken: string }
    return http(port, '/auth/signin/idp', { jar, headers: { host }, form: { csrfToken: token } })
  }

  it('a forged Host alone gets no authorization URL from a deployment without a configured URL', async () => {
    const response = await signInOverHttp(previewApp.port, 'evil.attacker.test')
    expect(response.status).toBe(302)
    const location = new URL(response.headers.location as string)
    expect(location.searchParams.get('error')).toBe('OAuthSignin')
    expect(cookieNames(response)).not.toContain('authchart.flow')
    expect(previewConfig.recorded.refusals.map((r) => r.code)).toContain('refused:redirect-proxy-origin')
  })

  it('a forged Host alone cannot bend the callback of a deployment with a configured URL', async () => {
    const response = await signInOverHttp(configuredApp.port, 'evil.attacker.test')
    const authorization = new URL(response.headers.location as string)
    expect(authorization.origin).toBe(new URL(op.issuer).origin)
    const result = await op.signInAs(authorization, 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const atProxy = await http(proxyApp.port, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, {
      headers: { host: 'auth.localhost:3000' },
    })
    expect(atProxy.status).toBe(302)
    expect(new URL(atProxy.headers.location as string).origin).toBe(preview)
  })
})
