/**
 * The hostile-provider attacks again, this time through `Auth()`: each misbehaviour of the OP (a fake on node:http,
 * because a real OP will not misbehave on demand) must end as a redirect with the spec's error value, no session
 * cookie, and the flow cookie cleared. test/effects/oauth/hostile-op.test.ts pins the exact check that refuses each.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, testConfig } from '../support/auth-harness.js'
import { startHostileOp, type HostileBehaviour, type HostileOp } from '../support/hostile-op.js'

let op: HostileOp
beforeAll(async () => {
  op = await startHostileOp()
})
afterAll(() => op.close())
beforeEach(() => op.behave({}))

function config(): AuthConfig {
  return testConfig({
    providerTimeout: 1500,
    providers: [
      OIDC({
        id: 'hostile',
        name: 'Hostile',
        issuer: op.issuer,
        clientId: 'client',
        clientSecret: 'client-secret-of-at-least-32-bytes!!',
        checks: ['pkce', 'state', 'nonce'],
      }),
    ],
  })
}

async function attempt(behaviour: HostileBehaviour, tamper?: (params: URLSearchParams) => void) {
  const cfg = config()
  const jar = new CookieJar()
  const start = await send(cfg, '/auth/signin/hostile', {
    jar,
    form: { csrfToken: await csrfToken(cfg, jar), callbackUrl: '/in' },
  })
  op.behave(behaviour)
  const params = await op.authorize(new URL(start.headers.get('location') as string))
  tamper?.(params)
  const response = await send(cfg, `/auth/callback/hostile?${params}`, { jar })
  return { response, jar, error: new URL(response.headers.get('location') as string).searchParams.get('error') }
}

describe('hostile provider through Auth()', () => {
  it('signs in when the provider behaves (so each refusal below is the misbehaviour alone)', async () => {
    const { response, jar } = await attempt({})
    expect(response.headers.get('location')).toBe(`${origin}/in`)
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
  })

  const attacks: Array<[string, HostileBehaviour, ((p: URLSearchParams) => void)?]> = [
    ['ID token signed with a key not in the JWKS', { idToken: { signing: 'unpublished-key' } }],
    ['ID token with alg none', { idToken: { signing: 'alg-none' } }],
    ['ID token HS256-keyed with the public key', { idToken: { signing: 'hs256-with-public-key' } }],
    ['ID token from another issuer', { idToken: { claims: (c) => ({ ...c, iss: 'https://evil.example' }) } }],
    ['ID token for another audience', { idToken: { claims: (c) => ({ ...c, aud: 'someone-else' }) } }],
    [
      'ID token with an extra audience and no azp',
      { idToken: { claims: (c) => ({ ...c, aud: ['client', 'someone-else'] }) } },
    ],
    ['expired ID token', { idToken: { claims: (c) => ({ ...c, exp: Math.floor(Date.now() / 1000) - 3600 }) } }],
    [
      'ID token issued in the future',
      { idToken: { claims: (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) + 3600 }) } },
    ],
    ['ID token without the nonce', { idToken: { claims: ({ nonce: _n, ...c }) => c } }],
    ['ID token with a foreign nonce', { idToken: { claims: (c) => ({ ...c, nonce: 'foreign' }) } }],
    ['ID token without sub', { idToken: { claims: ({ sub: _s, ...c }) => c } }],
    ['token response without id_token', { tokenBody: ({ id_token: _i, ...b }) => b }],
    ['token_type other than bearer', { tokenBody: (b) => ({ ...b, token_type: 'mac' }) }],
    ['token endpoint answering HTML', { tokenTransport: 'html' }],
    ['token endpoint answering truncated JSON', { tokenTransport: 'truncated-json' }],
    ['token endpoint that never answers (timeout)', { tokenTransport: 'hang' }],
    ['callback iss naming another issuer (RFC 9207)', { callback: { iss: 'https://evil.example' } }],
    ['callback without iss from an RFC 9207 provider', { callback: { iss: null } }],
    [
      'error parameters from the provider',
      { callback: { error: { error: 'access_denied', error_description: 'user said no' } } },
    ],
    ['wrong state', {}, (p) => p.set('state', 'not-the-state')],
    ['state removed', {}, (p) => p.delete('state')],
  ]

  it.each(attacks)('refuses: %s (error=OAuthCallbackError, no session)', async (_name, behaviour, tamper) => {
    const { error, jar, response } = await attempt(behaviour, tamper)
    expect(response.status).toBe(302)
    expect(error).toBe('OAuthCallbackError')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(jar.cookies.has('authchart.flow')).toBe(false)
  })

  it('refuses a replayed code: the flow cookie replays, the code does not', async () => {
    const cfg = config()
    const jar = new CookieJar()
    const start = await send(cfg, '/auth/signin/hostile', { jar, form: { csrfToken: await csrfToken(cfg, jar) } })
    const params = await op.authorize(new URL(start.headers.get('location') as string))
    const flow = jar.cookies.get('authchart.flow') as string
    await send(cfg, `/auth/callback/hostile?${params}`, { jar })
    const replayJar = new CookieJar()
    replayJar.cookies.set('authchart.flow', flow)
    const replay = await send(cfg, `/auth/callback/hostile?${params}`, { jar: replayJar })
    expect(new URL(replay.headers.get('location') as string).searchParams.get('error')).toBe('OAuthCallbackError')
    expect(replayJar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('answers error=OAuthSignin when the discovery document names another issuer', async () => {
    op.behave({ discovery: { issuer: 'https://evil.example' } })
    const cfg = config()
    const jar = new CookieJar()
    const start = await send(cfg, '/auth/signin/hostile', { jar, form: { csrfToken: await csrfToken(cfg, jar) } })
    expect(new URL(start.headers.get('location') as string).searchParams.get('error')).toBe('OAuthSignin')
    expect(jar.cookies.has('authchart.flow')).toBe(false)
  })
})
