/**
 * The request hook's part for `/auth/*` (src/frameworks/qwik/server.ts) on the real `Auth()`: which state-changing
 * requests must come from the app's origin. The event is a plain object with the members of Qwik City's request
 * event the binding uses; the full app is exercised in qwik-app.test.ts.
 */
import { describe, expect, it } from 'vitest'
import Credentials from '../../../src/providers/credentials.js'
import GitHub from '../../../src/providers/github.js'
import { answerAuthRequest, prepare, sessionOf, type AuthRequestEvent } from '../../../src/frameworks/qwik/server.js'
import type { CookieOptions } from '../../../src/frameworks/shared/set-cookie.js'

const origin = 'http://app.test'

function config() {
  return prepare({
    secret: 'qwik-request-hook-secret-0123456789abcdef',
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          username === 'alice' && password === 'pw' ? { id: 'alice', name: 'Alice' } : null,
      }),
      GitHub({ clientId: 'id', clientSecret: 'secret' }),
    ],
  })
}

function event(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const set: Array<{ name: string; value: string; options?: CookieOptions }> = []
  const value: AuthRequestEvent = {
    request: new Request(`${origin}${path}`, init),
    url: new URL(`${origin}${path}`),
    sharedMap: new Map(),
    cookie: { set: (name, cookieValue, options) => set.push({ name, value: cookieValue, options }) },
  }
  return { event: value, set }
}

const form = { 'content-type': 'application/x-www-form-urlencoded' }

describe('authchart/qwik request hook', () => {
  it("leaves the app's own routes alone", async () => {
    expect(await answerAuthRequest(event('/authors').event, config())).toBeUndefined()
  })

  it('refuses cross-site posts to sign-in, credentials callback and sign-out before Auth() sees them', async () => {
    for (const path of ['/auth/signin/github', '/auth/callback/credentials', '/auth/signout']) {
      for (const headers of [
        { ...form, origin: 'http://evil.test' },
        { ...form, 'sec-fetch-site': 'cross-site' },
        form,
      ]) {
        const { event: ev, set } = event(path, { method: 'POST', headers, body: 'username=alice&password=pw' })
        const response = await answerAuthRequest(ev, config())
        expect(response?.status, `${path} ${JSON.stringify(headers)}`).toBe(403)
        expect(await response?.text()).toBe('Cross-site request refused')
        expect(set).toEqual([])
      }
    }
  })

  it('lets an OAuth provider post its callback from its own site (form_post): the state / PKCE checks decide there', async () => {
    const { event: ev } = event('/auth/callback/github', {
      method: 'POST',
      headers: { ...form, origin: 'https://github.com' },
      body: 'code=x&state=y',
    })
    const response = await answerAuthRequest(ev, config())
    expect(response?.status).not.toBe(403)
    // No flow cookies: the callback is refused by Auth() and nobody is signed in.
    expect(response?.headers.get('location')).toMatch(/error=/)
  })

  it("answers GETs from anywhere, moving Set-Cookie lines onto Qwik City's cookie API with their attributes", async () => {
    const { event: ev, set } = event('/auth/csrf', { headers: { 'sec-fetch-site': 'cross-site' } })
    const response = await answerAuthRequest(ev, config())
    expect(response?.status).toBe(200)
    expect(response?.headers.getSetCookie()).toEqual([])
    expect(set).toHaveLength(1)
    expect(set[0]).toMatchObject({ name: 'authjs.csrf-token', options: { httpOnly: true, path: '/', sameSite: 'lax' } })
  })

  it('sessionOf: null without a session cookie, computed once per request and left in sharedMap', async () => {
    const { event: ev } = event('/')
    const cfg = config()
    const first = sessionOf(ev, cfg)
    expect(sessionOf(ev, cfg)).toBe(first)
    expect(await first).toBeNull()
    expect(ev.sharedMap.get('session')).toBeNull()
  })

  it('refuses what is no configuration object, or one with raw; `providers` is optional, as in Auth.js (#32)', () => {
    expect(() => prepare({ providers: 'github' })).toThrow(/configuration object/)
    expect(() => prepare(null)).toThrow(/configuration object/)
    expect(prepare({})).toMatchObject({})
    expect(() => prepare({ providers: [], raw: Symbol('raw') })).toThrow(/raw/)
  })
})
