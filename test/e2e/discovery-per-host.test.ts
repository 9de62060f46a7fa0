/**
 * A deployment with `trustHost` and no `AUTH_URL` builds its callback URLs from the Host a client sends, so the same
 * provider is normalised once per Host. What is fetched about the provider (its discovery document and its keys) does
 * not depend on the Host: it is fetched once per provider, however many Hosts clients send (issue #38, point 7:
 * before, every new Host cost a discovery fetch at the provider, and after 64 Hosts the site's own entry was evicted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import { customFetch } from '../../src/types/symbols.js'
import { CookieJar, csrfToken, send, testConfig } from '../support/auth-harness.js'
import { urlOfFetchInput } from '../support/fetch-input.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

const hosts = Array.from({ length: 150 }, (_, i) => `http://h${i}.localhost:3000`)
const fetched: string[] = []

let op: RunningOidcProvider
let config: ReturnType<typeof testConfig>
beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'app',
        client_secret: 'app-secret',
        redirect_uris: [`${hosts[0]}/auth/callback/op`, `${hosts[1]}/auth/callback/op`],
      },
    ],
  })
  config = testConfig({
    providers: [
      OIDC({
        id: 'op',
        name: 'OP',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 'app-secret',
        // The real OP answers; this only records which of its URLs were asked for.
        [customFetch]: (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
          fetched.push(new URL(urlOfFetchInput(input)).pathname)
          return fetch(input, init)
        },
      }),
    ],
  })
})
afterAll(() => op?.close())

async function startSignIn(base: string, jar = new CookieJar()): Promise<{ location: URL; jar: CookieJar }> {
  const response = await send(config, '/auth/signin/op', {
    jar,
    base,
    headers: { origin: base },
    form: { csrfToken: await csrfToken(config, jar, base) },
  })
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get('location') ?? '')
  expect(location.searchParams.get('redirect_uri')).toBe(`${base}/auth/callback/op`)
  return { location, jar }
}

const discoveries = () => fetched.filter((path) => path.endsWith('/.well-known/openid-configuration')).length
const keySetFetches = () => fetched.filter((path) => path.includes('jwks')).length

describe('provider discovery under many Hosts', () => {
  it('fetches the discovery document once for 150 Hosts, and again for none of them', async () => {
    for (const base of hosts) await startSignIn(base)
    // The first Host again, after more Hosts than the per-origin provider cache holds.
    await startSignIn(hosts[0])
    expect(discoveries()).toBe(1)
  })

  it('fetches the key set once for sign-ins completed under two Hosts', async () => {
    for (const base of hosts.slice(0, 2)) {
      const { location, jar } = await startSignIn(base)
      const result = await op.signInAs(location, 'alice')
      if (result.mode !== 'query') throw new Error('expected a query response')
      const callback = await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar, base })
      expect(callback.status).toBe(302)
      expect(jar.cookies.has('authjs.session-token')).toBe(true)
    }
    expect(keySetFetches()).toBe(1)
    expect(discoveries()).toBe(1)
  })
})
