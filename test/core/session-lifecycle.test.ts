import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import { decodeSync, encode } from '../../src/jwt.js'
import OIDC from '../../src/providers/oidc.js'
import type { TokenRefreshOptions } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, secret, send, session, signIn, testConfig } from '../support/auth-harness.js'

afterEach(() => {
  vi.useRealTimers()
})

function sessionToken(jar: CookieJar) {
  return decodeSync({ token: jar.cookies.get('authjs.session-token'), secret, salt: 'authjs.session-token' })
}

describe('GET /auth/session', () => {
  it('answers null without a session cookie', async () => {
    const response = await send(testConfig(), '/auth/session')
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('rewrites the cookie on every check, its expiry maxAge after the check, as Auth.js does', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const config = testConfig({ session: { maxAge: 7200 } })
    const jar = new CookieJar()
    await signIn(config, jar)
    const issued = sessionToken(jar)
    // 30 s later, well inside the default updateAge: the cookie is sealed anew all the same, its expiry moved on.
    vi.setSystemTime(new Date('2026-01-01T00:00:30.250Z'))
    const checked = await send(config, '/auth/session', { jar })
    const cookie = checked.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='))
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 2026 02:00:30 GMT/)
    const refreshed = sessionToken(jar)
    expect(refreshed?.exp).toBe((issued?.exp as number) + 30)
    expect(refreshed?.sub).toBe('u-ada')
    // The answer's expiry is maxAge after the check, to the millisecond, as Auth.js answers it.
    expect(((await checked.json()) as { expires: string }).expires).toBe('2026-01-01T02:00:30.250Z')
    // The jwt callback is asked on a check as Auth.js asks it: the token, no account, no user.
    const calls: Array<Record<string, unknown>> = []
    const watched = {
      ...config,
      callbacks: {
        jwt: (params: Parameters<NonNullable<NonNullable<typeof config.callbacks>['jwt']>>[0]) => {
          calls.push({ ...params })
          return params.token
        },
      },
    }
    await send(watched, '/auth/session', { jar })
    expect(calls).toHaveLength(1)
    expect(calls[0]?.account).toBeUndefined()
    expect(calls[0]?.user).toBeUndefined()
  })

  it('with updateAge set by the app, rewrites the cookie only once updateAge has passed', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const config = testConfig({ session: { updateAge: 3600 } })
    const jar = new CookieJar()
    await signIn(config, jar)
    const issued = sessionToken(jar)
    vi.setSystemTime(new Date('2026-01-01T00:30:00Z'))
    const fresh = await send(config, '/auth/session', { jar })
    expect(fresh.headers.getSetCookie()).toEqual([])
    vi.setSystemTime(new Date('2026-01-01T01:00:01Z'))
    const due = await send(config, '/auth/session', { jar })
    expect(due.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(true)
    const refreshed = sessionToken(jar)
    expect(refreshed?.exp).toBe((issued?.exp as number) + 3601)
    expect(refreshed?.sub).toBe('u-ada')
  })

  it('rewrites the cookie when the jwt callback changes the token', async () => {
    let visits = 0
    const config = testConfig({ callbacks: { jwt: ({ token }) => ({ ...token, visits: ++visits }) } })
    const jar = new CookieJar()
    await signIn(config, jar)
    const response = await send(config, '/auth/session', { jar })
    expect(response.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(true)
    expect(sessionToken(jar)?.visits).toBe(2)
  })

  it('treats an expired token as no session and clears the cookie', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    const config = testConfig({ session: { maxAge: 60 } })
    const jar = new CookieJar()
    await signIn(config, jar)
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'))
    const response = await send(config, '/auth/session', { jar })
    expect(await response.json()).toBeNull()
    expect(
      response.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token=;') && /Max-Age=0/i.test(c)),
    ).toBe(true)
  })

  it('signs the user out when the jwt callback returns null, clearing the cookie', async () => {
    let revoke = false
    const config = testConfig({ callbacks: { jwt: ({ token }) => (revoke ? null : token) } })
    const jar = new CookieJar()
    await signIn(config, jar)
    revoke = true
    expect(await session(config, jar)).toBeNull()
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('answers null and logs JWTSessionError when the session callback throws', async () => {
    let broken = false
    const config = testConfig({
      callbacks: {
        session: ({ session: s }) => {
          if (broken) throw new Error('bug')
          return s
        },
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    broken = true
    const response = await send(config, '/auth/session', { jar })
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(config.recorded.errors.some((e) => (e as { type?: string }).type === 'JWTSessionError')).toBe(true)
  })
})

describe('POST /auth/session', () => {
  it('runs the jwt callback with trigger "update" and the posted data, and rewrites the cookie', async () => {
    const seen: unknown[] = []
    const config = testConfig({
      callbacks: {
        jwt: ({ token, trigger, session: data }) => {
          if (trigger === 'update') {
            seen.push(data)
            return { ...token, name: (data as { name: string }).name }
          }
          return token
        },
        session: ({ session: s, trigger, newSession }) => ({ ...s, trigger, newSession }),
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/session', {
      jar,
      json: { csrfToken: token, data: { name: 'Countess Lovelace' } },
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({
      user: { name: 'Countess Lovelace' },
      trigger: 'update',
      newSession: { name: 'Countess Lovelace' },
    })
    expect(seen).toEqual([{ name: 'Countess Lovelace' }])
    expect(sessionToken(jar)?.name).toBe('Countess Lovelace')
  })

  it('refuses an update without the CSRF token and leaves the token unchanged', async () => {
    const config = testConfig({
      callbacks: { jwt: ({ token, trigger }) => (trigger === 'update' ? { ...token, name: 'Mallory' } : token) },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    const response = await send(config, '/auth/session', { jar, json: { data: { name: 'Mallory' } } })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: 'MissingCSRF' })
    expect(sessionToken(jar)?.name).toBe('Ada Lovelace')
  })
})

describe('POST /auth/signout', () => {
  it('clears the session cookie, sends the signOut event with the token, and redirects through the redirect callback', async () => {
    const signOuts: unknown[] = []
    const config = testConfig({
      events: {
        signOut: (message) => {
          signOuts.push(message)
        },
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/signout', { jar, form: { csrfToken: token, callbackUrl: '/bye' } })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${origin}/bye`)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(signOuts).toHaveLength(1)
    expect(signOuts[0]).toMatchObject({ token: { sub: 'u-ada', email: 'ada@example.com' } })
    expect(await session(config, jar)).toBeNull()
  })

  it('refuses a sign-out without the CSRF token and keeps the session', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    await signIn(config, jar)
    const response = await send(config, '/auth/signout', { jar, form: { callbackUrl: '/bye' } })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Signin')
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    expect(await session(config, jar)).not.toBeNull()
  })

  it('sends an off-site callbackUrl to the site instead', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    await signIn(config, jar)
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/signout', {
      jar,
      form: { csrfToken: token, callbackUrl: 'https://evil.example/' },
    })
    expect(response.headers.get('location')).toBe(origin)
  })
})

/**
 * What a refused provider token refresh leaves in a session (docs/token-refresh.md): the session machine reads it on
 * every check, and marks the session or ends it as the app chose. The tokens here are the ones a refusal leaves (none),
 * or live ones; no provider is asked anything on a session check.
 */
describe('a session whose provider refused a refresh', () => {
  const idp = (tokenRefresh: TokenRefreshOptions) =>
    OIDC({
      id: 'idp',
      name: 'IdP',
      issuer: 'https://idp.example.test',
      clientId: 'app',
      clientSecret: 'secret',
      tokenRefresh,
    })
  const alive = { access_token: 'at', refresh_token: 'rt', expires_at: Math.floor(Date.now() / 1000) + 3600 }

  /** A check of a JWT session keeping `tokens` for the provider; answers the session and the states passed. */
  async function checkJwt(onFailure: 'markSession' | 'endSession', tokens: object) {
    const steps: string[] = []
    const config = testConfig({
      providers: [idp({ onFailure })],
      onTransition: (record) => void (record.machine === 'session' && steps.push(record.to)),
    })
    const jar = new CookieJar()
    const claims = { sub: 'u-ada', name: 'Ada', 'authchart:tokens': { idp: tokens } }
    jar.cookies.set('authjs.session-token', await encode({ token: claims, secret, salt: 'authjs.session-token' }))
    const body = await session(config, jar)
    return { body, steps, cookie: jar.cookies.has('authjs.session-token') }
  }

  it('JWT, onFailure "markSession": the session goes on, showing error "RefreshTokenError"', async () => {
    const checked = await checkJwt('markSession', {})
    expect(checked.body).toMatchObject({ user: { name: 'Ada' }, error: 'RefreshTokenError' })
    expect(checked.steps).toContain('refreshing')
    expect(checked.cookie).toBe(true)
  })

  it('JWT, onFailure "endSession": the session ends on its check, the cookie cleared', async () => {
    const checked = await checkJwt('endSession', {})
    expect(checked.body).toBeNull()
    expect(checked.steps).toEqual(['loading', 'endingRefusedSession', 'anonymous'])
    expect(checked.cookie).toBe(false)
  })

  it('JWT, live tokens: no mark, whatever the app chose', async () => {
    for (const onFailure of ['markSession', 'endSession'] as const) {
      const checked = await checkJwt(onFailure, alive)
      expect(checked.body).toMatchObject({ user: { name: 'Ada' } })
      expect(checked.body).not.toHaveProperty('error')
      expect(checked.steps).not.toContain('endingRefusedSession')
    }
  })

  it('database: an account row without tokens marks the session, or ends it and deletes its row', async () => {
    for (const onFailure of ['markSession', 'endSession'] as const) {
      const store = createMemoryStore()
      const adapter = MemoryAdapter(store)
      const steps: string[] = []
      const config = testConfig({
        providers: [idp({ onFailure })],
        adapter,
        session: { strategy: 'database' },
        onTransition: (record) => void (record.machine === 'session' && steps.push(record.to)),
      })
      const user = await adapter.createUser({ id: 'u-ada', name: 'Ada', email: 'ada@example.com', emailVerified: null })
      await adapter.linkAccount({ userId: user.id, provider: 'idp', providerAccountId: 'ada', type: 'oidc' })
      const expires = new Date(Date.now() + 3600_000)
      await adapter.createSession({ sessionToken: 'row-token', userId: user.id, expires })
      const jar = new CookieJar()
      jar.cookies.set('authjs.session-token', 'row-token')
      const body = await session(config, jar)
      if (onFailure === 'markSession') {
        expect(body).toMatchObject({ user: { name: 'Ada' }, error: 'RefreshTokenError' })
        expect(store.sessions.has('row-token')).toBe(true)
      } else {
        expect(body).toBeNull()
        expect(steps).toEqual(['loading', 'endingRefusedSession', 'anonymous'])
        expect(store.sessions.has('row-token')).toBe(false)
        expect(jar.cookies.has('authjs.session-token')).toBe(false)
      }
    }
  })
})
