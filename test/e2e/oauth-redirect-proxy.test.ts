/**
 * redirectProxyUrl: a preview deployment signs in through the callback URL of another deployment (the proxy), which
 * forwards the provider's answer. Both deployments share the secret; the provider knows only the proxy's callback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import { CookieJar, csrfToken, send, session, testConfig } from '../support/auth-harness.js'
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

const config = () =>
  testConfig({
    redirectProxyUrl: `${proxy}/auth`,
    redirectProxyAllowedOrigins: ['http://*.localhost:3000'],
    providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret: 'app-secret' })],
  })

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
    const forwarded = await send(cfg, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, {
      base: proxy,
      jar: new CookieJar(),
    })
    const target = new URL(forwarded.headers.get('location') as string)
    expect(target.origin).toBe(preview)
    expect(target.searchParams.get('code')).toBe(result.params.get('code'))
    const done = await send(cfg, `${target.pathname}${target.search}`, { base: preview, jar: browserAtPreview })
    expect(done.headers.get('location')).toBe(`${preview}/after`)
    expect(((await session(cfg, browserAtPreview)) as { user: { email: string } }).user.email).toBe(
      'alice@example.test',
    )
  })

  it('does not forward a state sealed with another secret (no open redirect through the proxy)', async () => {
    const cfg = config()
    const attacker = testConfig({
      secret: 'the-attackers-own-secret-of-32-characters',
      redirectProxyUrl: `${proxy}/auth`,
      providers: cfg.providers,
    })
    const jar = new CookieJar()
    const start = await send(attacker, '/auth/signin/idp', {
      base: 'http://evil.localhost:3000',
      jar,
      form: { csrfToken: await csrfToken(attacker, jar, 'http://evil.localhost:3000') },
    })
    const state = new URL(start.headers.get('location') as string).searchParams.get('state') as string
    const response = await send(cfg, `/auth/callback/idp?code=stolen&state=${encodeURIComponent(state)}`, {
      base: proxy,
      jar: new CookieJar(),
    })
    expect(new URL(response.headers.get('location') as string).origin).toBe(proxy)
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
  })
})
