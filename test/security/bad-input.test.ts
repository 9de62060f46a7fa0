/**
 * Bad input gets a clear error and loses nothing: no 5xx, no stack, no session, and the server log gets the error.
 */
import { describe, expect, it } from 'vitest'
import { encode } from '@auth/core/jwt'
import { CookieJar, csrfToken, origin, send, session, signIn, testConfig } from '../support/auth-harness.js'

async function signedInJar() {
  const config = testConfig()
  const jar = new CookieJar()
  await signIn(config, jar)
  return { config, jar }
}

describe('session cookie tampering', () => {
  it('answers null for a session cookie with one character changed', async () => {
    const { config, jar } = await signedInJar()
    const value = jar.cookies.get('authjs.session-token') as string
    const i = Math.floor(value.length / 2)
    jar.cookies.set('authjs.session-token', value.slice(0, i) + (value[i] === 'A' ? 'B' : 'A') + value.slice(i + 1))
    const response = await send(config, '/auth/session', { jar })
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  it('answers null for a truncated session cookie', async () => {
    const { config, jar } = await signedInJar()
    jar.cookies.set('authjs.session-token', (jar.cookies.get('authjs.session-token') as string).slice(0, 100))
    expect(await session(config, jar)).toBeNull()
  })

  it('answers null for a session token sealed with another secret', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    jar.cookies.set(
      'authjs.session-token',
      await encode({
        token: { sub: 'mallory' },
        secret: 'another-secret-that-is-long-enough-to-use',
        salt: 'authjs.session-token',
      }),
    )
    expect(await session(config, jar)).toBeNull()
  })

  it('answers null for a token sealed for another cookie name (salt)', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    jar.cookies.set(
      'authjs.session-token',
      await encode({
        token: { sub: 'mallory' },
        secret: config.secret as string,
        salt: '__Secure-authjs.session-token',
      }),
    )
    expect(await session(config, jar)).toBeNull()
  })

  it('answers null for an oversized session cookie and junk chunk names', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    jar.cookies.set('authjs.session-token', 'x'.repeat(9000))
    expect(await session(config, jar)).toBeNull()
    const jar2 = new CookieJar()
    jar2.cookies.set('authjs.session-token.0', 'abc')
    jar2.cookies.set('authjs.session-token.7', 'def')
    jar2.cookies.set('authjs.session-token.x', 'ghi')
    expect(await session(config, jar2)).toBeNull()
  })
})

describe('junk in the other cookies', () => {
  // Header values cannot carry NUL, CR or LF (fetch refuses them), so %00 stands in for a raw control character.
  const junk = [
    '%',
    '%E0%A4%A',
    '%00',
    '"unterminated',
    '{"json":true}',
    'a|b|c',
    '<script>x</script>',
    'x'.repeat(5000),
    '__proto__',
  ]

  it.each(junk)('GET /auth/session survives a callback-url cookie of %j', async (value) => {
    const config = testConfig()
    const response = await send(config, '/auth/session', { headers: { cookie: `authjs.callback-url=${value}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  it.each(junk)('GET /auth/signin survives csrf and callback-url cookies of %j', async (value) => {
    const config = testConfig()
    const response = await send(config, '/auth/signin', {
      headers: { cookie: `authjs.csrf-token=${value}; authjs.callback-url=${value}; authchart.flow=${value}` },
    })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<form')
    // Whatever is echoed back (the callback URL) is escaped: no raw quote or angle bracket from the cookie survives.
    if (/[<>"]/.test(value)) expect(html).not.toContain(value)
  })

  it('survives a cookie header that is pure junk', async () => {
    const config = testConfig()
    for (const header of [';;;;', '=', '==x', 'a=b=c; ; =d', '\u00ff\u00fe=1']) {
      const response = await send(config, '/auth/session', { headers: { cookie: header } })
      expect(response.status).toBe(200)
    }
  })
})

describe('malformed bodies', () => {
  it('answers 400 JSON for a malformed JSON body, with no stack', async () => {
    const config = testConfig()
    const response = await send(config, '/auth/callback/credentials', {
      body: '{"username":',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as Record<string, unknown>
    expect(body.error).toBe('InvalidRequest')
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/)
    expect(config.recorded.errors.some((e) => (e as { type?: string }).type === 'InvalidRequest')).toBe(true)
  })

  it('answers 400 for a JSON body that is not an object', async () => {
    const response = await send(testConfig(), '/auth/session', {
      body: '[1,2]',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(400)
  })

  it('answers 413 for an oversized body', async () => {
    const response = await send(testConfig(), '/auth/callback/credentials', { form: { username: 'a'.repeat(70_000) } })
    expect(response.status).toBe(413)
  })

  it('treats a junk form body as a form without a CSRF token', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      body: '%%%&&&==&csrfToken',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Signin')
  })
})

describe('routing', () => {
  it.each([
    ['/auth/nope', 'GET'],
    ['/auth/session/extra', 'GET'],
    ['/auth/providers/github', 'GET'],
    ['/auth', 'GET'],
    ['/elsewhere/session', 'GET'],
    ['/auth/csrf', 'POST'],
    ['/auth/callback/%E0%A4%A', 'GET'],
  ])('answers 400 JSON for %s %s', async (path, method) => {
    const response = await send(testConfig(), path, { method })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toBe('UnknownAction')
  })

  it('answers an unknown provider id with a page naming the known ids (sign-in), or the error page', async () => {
    for (const config of [testConfig(), testConfig({ pages: { error: '/oops' } })]) {
      const jar = new CookieJar()
      const token = await csrfToken(config, jar)
      for (const path of ['/auth/signin/nope', '/auth/callback/nope']) {
        const response = await send(config, path, { jar, form: { csrfToken: token } })
        if (config.pages?.error || path.startsWith('/auth/callback/')) {
          // A callback address is the app's configuration: Auth.js's Configuration error page.
          expect(response.status).toBe(302)
          const location = new URL(response.headers.get('location') as string)
          expect(location.pathname).toBe(config.pages?.error ?? '/auth/error')
          expect(location.searchParams.get('error')).toBe('Configuration')
        } else {
          // The built-in answer (docs/migrating-from-authjs.md): 400 and the ids the visitor could have meant.
          expect(response.status).toBe(400)
          expect(await response.text()).toContain('credentials')
        }
        expect(response.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(false)
      }
    }
  })

  it('does not accept credentials over GET', async () => {
    const response = await send(testConfig(), '/auth/callback/credentials?username=ada&password=lovelace')
    expect(response.status).toBe(302)
    expect(response.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(false)
  })
})

describe('open redirects in callbackUrl', () => {
  const attempts = [
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'http://evil.example:3000',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://localhost:3000@evil.example',
    'http://localhost:3000@evil.example/',
    'https://evil.example#@localhost:3000',
    'http://localhost:3000.evil.example',
    '/%2F%2Fevil.example',
    ' //evil.example',
    '\t//evil.example',
    '/\t/evil.example',
  ]

  it.each(attempts)('never redirects off-site after sign-in for callbackUrl=%j', async (callbackUrl) => {
    const config = testConfig()
    const jar = new CookieJar()
    const response = await signIn(config, jar, 'ada', 'lovelace', { callbackUrl })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location') as string, 'http://unused.invalid')
    expect(location.origin).toBe(origin)
  })

  it('keeps a same-origin absolute URL and a relative path', async () => {
    const config = testConfig()
    for (const [callbackUrl, expected] of [
      [`${origin}/a?b=1`, `${origin}/a?b=1`],
      ['/deep/path?x=1#frag', `${origin}/deep/path?x=1#frag`],
    ]) {
      const response = await signIn(config, new CookieJar(), 'ada', 'lovelace', { callbackUrl: callbackUrl })
      expect(response.headers.get('location')).toBe(expected)
    }
  })

  it('logs an unusable callbackUrl as the refusal callback-url and sends the user to the site instead', async () => {
    const config = testConfig()
    const response = await signIn(config, new CookieJar(), 'ada', 'lovelace', { callbackUrl: `/${'a'.repeat(600)}` })
    expect(response.headers.get('location')).toBe(`${origin}/`)
    expect(config.recorded.refusals.map((r) => r.code)).toEqual(['refused:callback-url'])
  })

  it('refuses a redirect callback that answers javascript:', async () => {
    const config = testConfig({ callbacks: { redirect: () => 'javascript:alert(1)' } })
    const response = await signIn(config, new CookieJar())
    const location = new URL(response.headers.get('location') as string)
    expect(location.pathname).toBe('/auth/error')
    expect(location.searchParams.get('error')).toBe('Configuration')
  })
})

describe('bad configuration', () => {
  it('answers 500 with the generic message, and logs MissingSecret', async () => {
    const config = testConfig({ secret: undefined })
    const response = await send(config, '/auth/session')
    expect(response.status).toBe(500)
    const body = (await response.json()) as { message: string }
    expect(body.message).toMatch(/server configuration/)
    expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('MissingSecret')
  })

  it('shows the error page (500, error=Configuration) for page actions when the config is broken', async () => {
    const config = testConfig({ secret: undefined })
    const response = await send(config, '/auth/signin')
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(await response.text()).toContain('Server error')
  })

  it('answers 500 with the generic message when a configured cookie name cannot be a cookie name', async () => {
    const config = testConfig({ cookies: { csrfToken: { name: 'bad name;' } } })
    const response = await send(config, '/auth/csrf')
    expect(response.status).toBe(500)
    expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('InvalidCookieOption')
  })

  it('answers 500 for an untrusted host', async () => {
    const config = testConfig({ trustHost: false })
    expect((await send(config, '/auth/providers')).status).toBe(500)
    expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('UntrustedHost')
  })

  it('names a credentials provider without authorize', async () => {
    const config = testConfig({ providers: [{ id: 'c', name: 'C', type: 'credentials', credentials: {} } as never] })
    expect((await send(config, '/auth/providers')).status).toBe(500)
    expect(config.recorded.errors.map((e) => (e as { type?: string }).type)).toContain('MissingAuthorize')
  })

  it('names an invalid session.maxAge and a database strategy without adapter', async () => {
    for (const session of [{ maxAge: -1 }, { strategy: 'database' as const }]) {
      const config = testConfig({ session })
      expect((await send(config, '/auth/session')).status).toBe(500)
      expect(config.recorded.errors.length).toBeGreaterThan(0)
    }
  })
})
