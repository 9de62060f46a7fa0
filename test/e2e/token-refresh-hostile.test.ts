/**
 * Token refresh against a provider that misbehaves on purpose (test/support/hostile-op.ts: a real OP will not sign a
 * refreshed ID token with a key it does not publish, or hang on a refresh). A refresh answer that fails the ID token
 * checks is a refusal: the session is marked and `refused:refresh-token` logged. A provider that hangs or answers an
 * HTML error page is an outage: `RefreshUnavailable`, the session left as it was, and the next call works once the
 * provider does. The provider's access tokens live an hour and the margin is an hour, so every call refreshes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getAccessToken } from '../../src/index.js'
import OIDC from '../../src/providers/oidc.js'
import type { AccessTokenResult, AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, session, testConfig } from '../support/auth-harness.js'
import { startHostileOp, type HostileOp } from '../support/hostile-op.js'

let op: HostileOp

beforeAll(async () => {
  op = await startHostileOp()
})
afterAll(() => op.close())
beforeEach(() => op.behave({}))

function hostileConfig() {
  return testConfig({
    providerTimeout: 1000,
    providers: [
      OIDC({
        id: 'hostile',
        name: 'Hostile',
        issuer: op.issuer,
        clientId: 'client',
        clientSecret: 'client-secret-of-at-least-32-bytes!!',
        checks: ['pkce', 'state', 'nonce'],
        tokenRefresh: { margin: 3600 },
      }),
    ],
  })
}

async function signIn(config: AuthConfig): Promise<CookieJar> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const started = await send(config, '/auth/signin/hostile', { jar, form: { csrfToken: token } })
  const params = await op.authorize(new URL(started.headers.get('location') as string))
  const callback = await send(config, `/auth/callback/hostile?${params}`, { jar })
  expect(callback.status).toBe(302)
  return jar
}

function accessToken(config: AuthConfig, jar: CookieJar): Promise<AccessTokenResult> {
  return getAccessToken(new Request(`${origin}/api`, { headers: { cookie: jar.header() } }), config, 'hostile')
}

function take(jar: CookieJar, result: AccessTokenResult): void {
  const headers = new Headers()
  for (const line of result.setCookie) headers.append('set-cookie', line)
  jar.take(new Response(null, { headers }))
}

describe('token refresh against a provider that misbehaves', () => {
  it('refreshes when the provider behaves, with its ID token (original nonce and all) verified', async () => {
    const config = hostileConfig()
    const jar = await signIn(config)
    const result = await accessToken(config, jar)
    expect(result).toMatchObject({ refreshed: true, accessToken: expect.any(String) as string })
    take(jar, result)
    expect(await accessToken(config, jar)).toMatchObject({ refreshed: true })
    expect(config.recorded.refusals).toEqual([])
  })

  it('refuses a refreshed ID token signed with a key the provider does not publish, and marks the session', async () => {
    const config = hostileConfig()
    const jar = await signIn(config)
    op.behave({ idToken: { signing: 'unpublished-key' } })
    const result = await accessToken(config, jar)
    expect(result.error).toBe('RefreshTokenError')
    expect(config.recorded.refusals).toEqual([
      { code: 'refused:refresh-token', detail: expect.objectContaining({ reason: 'id_token' }) as object },
    ])
    take(jar, result)
    expect(((await session(config, jar)) as { error?: string }).error).toBe('RefreshTokenError')
  })

  it('refuses a refreshed ID token about someone else', async () => {
    const config = hostileConfig()
    const jar = await signIn(config)
    op.behave({ idToken: { claims: (claims) => ({ ...claims, aud: 'another-client' }) } })
    expect((await accessToken(config, jar)).error).toBe('RefreshTokenError')
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:refresh-token'])
  })

  it.each([['hang' as const], ['html' as const]])(
    'a token endpoint that answers %s is an outage: RefreshUnavailable, the session untouched, retried later',
    async (tokenTransport) => {
      const config = hostileConfig()
      const jar = await signIn(config)
      op.behave({ tokenTransport })
      const result = await accessToken(config, jar)
      expect(result).toEqual({ error: 'RefreshUnavailable', setCookie: [] })
      expect(config.recorded.refusals).toEqual([])
      expect(config.recorded.errors.map((e) => e.message)).toContainEqual(
        expect.stringContaining('token refresh at provider "hostile" failed'),
      )
      // The outage is remembered for two seconds only, so the calls queued behind it do not each wait it out.
      await new Promise((resolve) => setTimeout(resolve, 2100))
      op.behave({})
      expect(await accessToken(config, jar)).toMatchObject({ refreshed: true })
    },
  )
})
