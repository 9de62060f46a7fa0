/**
 * An OAuth provider with neither an `issuer` nor all of its `authorization`, `token` and `userinfo` endpoints can
 * never sign anyone in: it is a configuration error (`InvalidEndpoints`) on every action, `/providers` included, as
 * in Auth.js: 500 JSON for the JSON actions, the error page for the others. Checked beside the real `@auth/core`.
 */
import { Auth as AuthJs } from '@auth/core'
import { describe, expect, it } from 'vitest'
import type { AuthConfig } from '../../src/types/index.js'
import type { OAuthConfig } from '../../src/types/providers.js'
import { origin, secret, send, testConfig, testCredentials } from '../support/auth-harness.js'
import { hintOf } from '../../src/logger.js'
import { InvalidEndpoints, MissingAuthorize } from '../../src/errors.js'
import type { Provider } from '../../src/types/index.js'

/** Authorization and token URLs, but no userinfo and no issuer. */
function withoutUserinfo(): OAuthConfig {
  return {
    id: 'acme',
    name: 'Acme',
    type: 'oauth',
    clientId: 'acme-client',
    clientSecret: 'acme-secret',
    authorization: 'https://acme.example/oauth/authorize',
    token: 'https://acme.example/oauth/token',
  }
}

const authJsText =
  'Provider "acme" is missing both `issuer` and `userinfo` endpoint config. At least one of them is required'

const jsonActions: Array<[string, string]> = [
  ['GET', '/auth/providers'],
  ['GET', '/auth/csrf'],
  ['GET', '/auth/session'],
  ['POST', '/auth/session'],
  ['GET', '/auth/webauthn-options/passkey'],
]

const pageActions: Array<[string, string]> = [
  ['GET', '/auth/signin'],
  ['POST', '/auth/signin/acme'],
  ['GET', '/auth/callback/acme?code=c&state=s'],
  ['POST', '/auth/callback/credentials'],
  ['GET', '/auth/signout'],
  ['POST', '/auth/signout'],
  ['GET', '/auth/error'],
  ['GET', '/auth/verify-request'],
]

describe('a provider without issuer and without one of its endpoints', () => {
  it('is InvalidEndpoints on every action: 500 JSON for JSON actions, the error page for the others', async () => {
    const config = testConfig({ providers: [testCredentials(), withoutUserinfo()] })
    for (const [method, path] of jsonActions) {
      const response = await send(config, path, { method, body: method === 'POST' ? '' : undefined })
      expect(response.status, `${method} ${path}`).toBe(500)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(await response.json()).toEqual({
        message: 'There was a problem with the server configuration. Check the server logs for more information.',
      })
    }
    for (const [method, path] of pageActions) {
      const response = await send(config, path, { method, body: method === 'POST' ? 'csrfToken=x' : undefined })
      expect(response.status, `${method} ${path}`).toBe(500)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      const page = await response.text()
      expect(page).toContain('Server error')
      expect(page).not.toContain('acme.example')
    }
    // Logged once for the config object (test/core/startup-assertion.test.ts), not once per request.
    const [logged, ...more] = config.recorded.errors
    expect(more).toEqual([])
    expect((logged as { type?: string }).type).toBe('InvalidEndpoints')
    // Exactly the text Auth.js logs for the same mistake; what to do is the hint the built-in logger prints.
    expect(logged?.message).toBe(authJsText)
    expect(hintOf(logged)).toContain('AUTH_ACME_ISSUER')
  })

  it('names the first endpoint missing, in Auth.js order: authorization, token, userinfo', async () => {
    const cases: Array<[Partial<OAuthConfig>, string]> = [
      [{ authorization: undefined }, 'authorization'],
      [{ token: { params: { grant_type: 'authorization_code' } } }, 'token'],
      [{ userinfo: { params: { fields: 'id' } } }, 'userinfo'],
    ]
    for (const [change, missing] of cases) {
      const config = testConfig({
        providers: [{ ...withoutUserinfo(), userinfo: 'https://acme.example/me', ...change }],
      })
      expect((await send(config, '/auth/providers')).status).toBe(500)
      // The very error Auth.js logs: its class, its exact words, no cause; an app's logger can compare it.
      expect(config.recorded.errors[0]).toEqual(
        new InvalidEndpoints(
          `Provider "acme" is missing both \`issuer\` and \`${missing}\` endpoint config. At least one of them is required`,
        ),
      )
    }
  })

  it('a credentials provider without authorize logs MissingAuthorize in Auth.js words', async () => {
    // What a JavaScript app (no type checker) may pass: the provider object without authorize.
    const bare: Provider = JSON.parse('{ "id": "bare", "name": "Bare", "type": "credentials" }')
    const config = testConfig({ providers: [bare] })
    const response = await send(config, '/auth/providers')
    expect(response.status).toBe(500)
    expect(config.recorded.errors).toEqual([
      new MissingAuthorize('Must define an authorize() handler to use credentials authentication provider'),
    ])
  })

  it('is served as usual once the provider has an issuer, or all three endpoints, or a userinfo request function', async () => {
    const fixes: Array<Partial<OAuthConfig>> = [
      { issuer: 'https://acme.example' },
      { userinfo: 'https://acme.example/me' },
      { userinfo: { request: () => ({ id: '1' }) } },
    ]
    for (const fix of fixes) {
      const config = testConfig({ providers: [{ ...withoutUserinfo(), ...fix }] })
      const response = await send(config, '/auth/providers')
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ acme: { id: 'acme', type: 'oauth' } })
      expect(config.recorded.errors).toEqual([])
    }
  })

  it('is refused by @auth/core in the same way, with the same message', async () => {
    const errors: Error[] = []
    const authJsConfig = {
      secret,
      trustHost: true,
      basePath: '/auth',
      providers: [withoutUserinfo()],
      logger: { error: (error: Error) => void errors.push(error) },
    } as unknown as Parameters<typeof AuthJs>[1]
    const response = await AuthJs(new Request(`${origin}/auth/providers`), authJsConfig)
    expect(response.status).toBe(500)
    expect(errors[0]?.name).toBe('InvalidEndpoints')
    expect(errors[0]?.message.startsWith(authJsText)).toBe(true)

    const config: AuthConfig = testConfig({ providers: [withoutUserinfo()] })
    expect((await send(config, '/auth/providers')).status).toBe(500)
  })
})
