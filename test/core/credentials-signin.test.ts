import { describe, expect, it } from 'vitest'
import { CredentialsSignin } from '../../src/errors.js'
import { skipCSRFCheck } from '../../src/index.js'
import Credentials from '../../src/providers/credentials.js'
import type { User } from '../../src/types/index.js'
import { CookieJar, csrfToken, origin, send, session, signIn, testConfig } from '../support/auth-harness.js'

describe('POST /auth/callback/credentials', () => {
  it('signs a user in and the session afterwards holds the mapped user', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const response = await signIn(config, jar, 'ada', 'lovelace', { callbackUrl: '/dashboard' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${origin}/dashboard`)
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    const body = (await session(config, jar)) as { user: Record<string, unknown>; expires: string }
    expect(body.user).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' })
    expect(Date.parse(body.expires)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000)
  })

  it('runs the signIn, jwt and session callbacks and the signIn and session events with the spec parameters', async () => {
    const calls: Record<string, unknown[]> = { signIn: [], jwt: [], session: [], signInEvent: [], sessionEvent: [] }
    const config = testConfig({
      callbacks: {
        signIn: (params) => {
          calls.signIn.push(params)
          return true
        },
        jwt: (params) => {
          calls.jwt.push(params)
          return { ...params.token, role: 'admin' }
        },
        session: (params) => {
          calls.session.push(params)
          return { ...params.session, role: params.token.role }
        },
      },
      events: {
        signIn: (message) => {
          calls.signInEvent.push(message)
        },
        session: (message) => {
          calls.sessionEvent.push(message)
        },
      },
    })
    const jar = new CookieJar()
    await signIn(config, jar)
    const signInParams = calls.signIn[0] as Record<string, unknown>
    expect(signInParams.user).toMatchObject({ id: 'u-ada', email: 'ada@example.com' })
    expect(signInParams.account).toEqual({ providerAccountId: 'u-ada', type: 'credentials', provider: 'credentials' })
    expect(signInParams.credentials).toEqual({ username: 'ada', password: 'lovelace' })
    expect(calls.jwt[0]).toMatchObject({
      trigger: 'signIn',
      token: { name: 'Ada Lovelace', email: 'ada@example.com', sub: 'u-ada' },
      user: { id: 'u-ada' },
    })
    expect(calls.signInEvent[0]).toMatchObject({ user: { id: 'u-ada' }, account: { provider: 'credentials' } })
    const body = (await session(config, jar)) as Record<string, unknown>
    expect(body.role).toBe('admin')
    expect(calls.jwt[1]).toMatchObject({ token: { role: 'admin', sub: 'u-ada' } })
    expect((calls.jwt[1] as Record<string, unknown>).trigger).toBeUndefined()
    expect(calls.sessionEvent[0]).toMatchObject({ session: { role: 'admin' }, token: { role: 'admin' } })
  })

  it('rejects wrong credentials with error=CredentialsSignin&code=credentials and sets no session', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const response = await signIn(config, jar, 'ada', 'wrong')
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location') as string)
    expect(location.pathname).toBe('/auth/signin')
    expect(location.searchParams.get('error')).toBe('CredentialsSignin')
    expect(location.searchParams.get('code')).toBe('credentials')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    // A wrong password is logged once at warn (the refusal code), without a stack.
    expect(config.recorded.warnings).toEqual(['credentials-signin'])
    // The app's logger gets the CredentialsSignin itself, as the spec says (the built-in one prints no error line).
    expect(config.recorded.errors.map((e) => e.name)).toEqual(['CredentialsSignin'])
  })

  it('puts the code of a thrown CredentialsSignin into the URL', async () => {
    const config = testConfig()
    const response = await signIn(config, new CookieJar(), 'locked', 'x')
    const location = new URL(response.headers.get('location') as string)
    expect(location.searchParams.get('error')).toBe('CredentialsSignin')
    expect(location.searchParams.get('code')).toBe('account_locked')
  })

  it('sends an authorize() that throws to the error page with error=Configuration and logs the cause', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const response = await signIn(config, jar, 'boom', 'x')
    const location = new URL(response.headers.get('location') as string)
    expect(location.pathname).toBe('/auth/error')
    expect(location.searchParams.get('error')).toBe('Configuration')
    const logged = config.recorded.errors.find((e) => (e as { type?: string }).type === 'CallbackRouteError')
    expect((logged?.cause as { err?: Error })?.err?.message).toBe('database is down')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('denies with error=AccessDenied when the signIn callback returns false', async () => {
    const config = testConfig({ callbacks: { signIn: () => false } })
    const jar = new CookieJar()
    const location = new URL((await signIn(config, jar)).headers.get('location') as string)
    expect(location.pathname).toBe('/auth/error')
    expect(location.searchParams.get('error')).toBe('AccessDenied')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('denies with error=AccessDenied when the signIn callback throws, logging the original message', async () => {
    const config = testConfig({
      callbacks: {
        signIn: () => {
          throw new Error('not on the list')
        },
      },
    })
    const jar = new CookieJar()
    const location = new URL((await signIn(config, jar)).headers.get('location') as string)
    expect(location.searchParams.get('error')).toBe('AccessDenied')
    expect(
      config.recorded.errors.some(
        (e) => (e as { type?: string }).type === 'AccessDenied' && e.message === 'not on the list',
      ),
    ).toBe(true)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('redirects to the URL the signIn callback returns, through the redirect callback, without a session', async () => {
    const config = testConfig({ callbacks: { signIn: () => '/verify-age' } })
    const jar = new CookieJar()
    const response = await signIn(config, jar)
    expect(response.headers.get('location')).toBe(`${origin}/verify-age`)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('refuses the session when the jwt callback returns null at sign-in', async () => {
    const config = testConfig({ callbacks: { jwt: () => null } })
    const jar = new CookieJar()
    const location = new URL((await signIn(config, jar)).headers.get('location') as string)
    expect(location.searchParams.get('error')).toBe('AccessDenied')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('rejects a post without the CSRF token (error=Signin, no session)', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace' },
    })
    const location = new URL(response.headers.get('location') as string)
    expect(location.pathname).toBe('/auth/signin')
    expect(location.searchParams.get('error')).toBe('Signin')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('rejects a CSRF token that does not match the cookie', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: 'f'.repeat(64) },
    })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Signin')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('rejects a CSRF cookie forged without the secret even when the form repeats its token', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    jar.cookies.set('authjs.csrf-token', `${'a'.repeat(64)}|${'b'.repeat(64)}`)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: 'a'.repeat(64) },
    })
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Signin')
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
  })

  it('accepts a JSON body as well as a form', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      json: { username: 'alan', password: 'turing', csrfToken: token },
    })
    expect(response.status).toBe(302)
    expect(((await session(config, jar)) as { user: { name: string } }).user.name).toBe('Alan Turing')
  })

  it('answers {url} with 200 instead of a redirect when X-Auth-Return-Redirect is set', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      headers: { 'x-auth-return-redirect': '1' },
      form: { username: 'ada', password: 'lovelace', csrfToken: token, callbackUrl: '/home' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${origin}/home` })
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
  })

  it('skips the CSRF check when the config carries skipCSRFCheck', async () => {
    const config = testConfig({ skipCSRFCheck })
    const jar = new CookieJar()
    const response = await send(config, '/auth/callback/credentials', {
      jar,
      form: { username: 'ada', password: 'lovelace' },
    })
    expect(response.status).toBe(302)
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    expect((await send(config, '/auth/csrf')).status).toBe(404)
  })

  describe('an authorize() that answers without a promise, or with a thenable of its own', () => {
    const ada: User = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' }
    const withAuthorize = (authorize: () => unknown) =>
      testConfig({
        providers: [
          Credentials({ credentials: { username: {}, password: {} }, authorize: authorize as () => User | null }),
        ],
      })
    const outcome = async (authorize: () => unknown) => {
      const config = withAuthorize(authorize)
      const jar = new CookieJar()
      const location = new URL((await signIn(config, jar, 'ada', 'x')).headers.get('location') as string)
      return { config, jar, location }
    }

    it('signs in with a user returned at once, or through a thenable that is not a native promise', async () => {
      for (const authorize of [() => ada, () => ({ then: (resolve: (user: User) => void) => resolve(ada) })]) {
        const { config, jar, location } = await outcome(authorize)
        expect(location.href).toBe(`${origin}/`)
        expect(((await session(config, jar)) as { user: { email: string } }).user.email).toBe('ada@example.com')
      }
    })

    it('treats a synchronous throw as a thrown one: CredentialsSignin is wrong credentials, anything else an error', async () => {
      const locked = await outcome(() => {
        const error = new CredentialsSignin()
        error.code = 'account_locked'
        throw error
      })
      expect(locked.location.searchParams.get('error')).toBe('CredentialsSignin')
      expect(locked.location.searchParams.get('code')).toBe('account_locked')

      const broken = await outcome(() => {
        throw new Error('directory unreachable')
      })
      expect(broken.location.searchParams.get('error')).toBe('Configuration')
      const logged = broken.config.recorded.errors.find((e) => (e as { type?: string }).type === 'CallbackRouteError')
      expect((logged?.cause as { err?: Error })?.err?.message).toBe('directory unreachable')
      expect(broken.jar.cookies.has('authjs.session-token')).toBe(false)

      const rejecting = await outcome(() => ({
        then: (_: unknown, reject: (err: Error) => void) => reject(new Error('thenable refused')),
      }))
      expect(rejecting.location.searchParams.get('error')).toBe('Configuration')
    })

    it('refuses a null returned at once as wrong credentials', async () => {
      const { location, jar } = await outcome(() => null)
      expect(location.searchParams.get('error')).toBe('CredentialsSignin')
      expect(location.searchParams.get('code')).toBe('credentials')
      expect(jar.cookies.has('authjs.session-token')).toBe(false)
    })
  })
})
