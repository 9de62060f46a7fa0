/**
 * Migration keeps everyone signed in: session cookies issued by the real `@auth/core` are read by Authchart, and
 * ours by it, for the same secret and cookie name. Also secret rotation and chunked cookies through `Auth()`.
 */
import { Auth as AuthJs } from '@auth/core'
import AuthJsCredentials from '@auth/core/providers/credentials'
import { encode as authJsEncode, decode as authJsDecode } from '@auth/core/jwt'
import { describe, expect, it } from 'vitest'
import Credentials from '../../src/providers/credentials.js'
import { CookieJar, origin, secret, send, session, signIn, testConfig, users } from '../support/auth-harness.js'

const salt = 'authjs.session-token'

type Authorize = (credentials: Partial<Record<string, unknown>>) => Promise<Record<string, unknown> | null>

function authJsCredentialsConfig(authorize: Authorize) {
  return {
    secret,
    trustHost: true,
    basePath: '/auth',
    providers: [AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize })],
  }
}

/** A credentials sign-in through @auth/core, as a browser makes it: its CSRF token, then the form. */
async function authJsSignIn(config: Parameters<typeof AuthJs>[1], jar: CookieJar): Promise<void> {
  const csrfResponse = await AuthJs(new Request(`${origin}/auth/csrf`), config)
  jar.take(csrfResponse)
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
  const signInResponse = await AuthJs(
    new Request(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'ada', password: 'lovelace', csrfToken }).toString(),
    }),
    config,
  )
  jar.take(signInResponse)
}

async function authJsSession(config: Parameters<typeof AuthJs>[1], cookie: string): Promise<{ user: unknown }> {
  const response = await AuthJs(new Request(`${origin}/auth/session`, { headers: { cookie } }), config)
  return (await response.json()) as { user: unknown }
}

describe('session cookies across Auth.js and Authchart', () => {
  it('reads a session cookie that @auth/core issued at sign-in', async () => {
    const jar = new CookieJar()
    await authJsSignIn(
      authJsCredentialsConfig(async (c) => users[String(c.username)]?.user ?? null),
      jar,
    )
    expect(jar.cookies.has(salt)).toBe(true)
    const body = (await session(testConfig(), jar)) as { user: Record<string, unknown> }
    expect(body.user).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' })
  })

  it('issues session cookies that @auth/core decodes and serves', async () => {
    const jar = new CookieJar()
    await signIn(testConfig(), jar)
    const token = await authJsDecode({ token: jar.cookies.get(salt), secret, salt })
    expect(token).toMatchObject({ sub: 'u-ada', email: 'ada@example.com', name: 'Ada Lovelace' })
    const authJsConfig = { secret, trustHost: true, basePath: '/auth', providers: [] }
    const response = await AuthJs(
      new Request(`${origin}/auth/session`, { headers: { cookie: jar.header() } }),
      authJsConfig,
    )
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe('ada@example.com')
  })

  it('reads the __Secure- cookie @auth/core uses on HTTPS', async () => {
    const secureName = '__Secure-authjs.session-token'
    const value = await authJsEncode({
      token: { sub: 's1', name: 'Secure Sam', email: 'sam@example.com' },
      secret,
      salt: secureName,
    })
    const response = await send(testConfig(), '/auth/session', {
      base: 'https://app.example',
      headers: { cookie: `${secureName}=${value}` },
    })
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe('Secure Sam')
  })
})

describe('the session JSON, beside @auth/core', () => {
  // The same token given to both libraries must be answered with the same user: a claim the token holds as `null`
  // (a user without a picture, a provider that gave no name) is answered as `null`, and one it lacks is left out.
  const shapes = [
    { sub: 'u1', name: 'Ada', email: 'ada@example.com', picture: null },
    { sub: 'u2', name: null, email: 'no-name@example.com', picture: 'https://example.com/a.png' },
    { sub: 'u3', email: 'only-email@example.com' },
    { sub: 'u4', name: 'Nobody', email: null, picture: null },
  ]
  it.each(shapes)('answers the user of %o as @auth/core does', async (token) => {
    const cookie = `${salt}=${await authJsEncode({ token, secret, salt })}`
    const ours = (await (await send(testConfig(), '/auth/session', { headers: { cookie } })).json()) as {
      user: unknown
    }
    const theirs = await authJsSession({ secret, trustHost: true, basePath: '/auth', providers: [] }, cookie)
    expect(JSON.stringify(ours.user)).toBe(JSON.stringify(theirs.user))
  })

  it('keeps a null image from a credentials sign-in through to the session, as @auth/core does', async () => {
    const withoutPicture = { id: 'u-grace', name: 'Grace Hopper', email: 'grace@example.com', image: null }
    const authorize = async () => withoutPicture
    const ours = testConfig({ providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })] })
    const oursJar = new CookieJar()
    await signIn(ours, oursJar)
    const theirs = authJsCredentialsConfig(authorize)
    const theirsJar = new CookieJar()
    await authJsSignIn(theirs, theirsJar)
    const answered = (await session(ours, oursJar)) as { user: unknown }
    expect(answered.user).toEqual({ name: 'Grace Hopper', email: 'grace@example.com', image: null })
    expect(JSON.stringify(answered.user)).toBe(JSON.stringify((await authJsSession(theirs, theirsJar.header())).user))
  })
})

describe('secret rotation', () => {
  it('reads tokens sealed with an older secret and seals new ones with the newest', async () => {
    const old = 'the-old-secret-that-was-rotated-out-of-use'
    const value = await authJsEncode({ token: { sub: 'u-old', name: 'Old Timer' }, secret: old, salt })
    const config = testConfig({ secret: [secret, old], session: { updateAge: 0 } })
    const jar = new CookieJar()
    jar.cookies.set(salt, value)
    expect(((await session(config, jar)) as { user: { name: string } }).user.name).toBe('Old Timer')
    // updateAge 0 rewrites on every check: the rewritten cookie is sealed with the newest secret only.
    expect(await authJsDecode({ token: jar.cookies.get(salt), secret, salt })).toMatchObject({ sub: 'u-old' })
    await expect(authJsDecode({ token: jar.cookies.get(salt), secret: old, salt })).rejects.toThrow()
  })

  it('rejects tokens once their secret leaves the list', async () => {
    const value = await authJsEncode({
      token: { sub: 'u' },
      secret: 'retired-secret-retired-secret-retired-secret',
      salt,
    })
    const jar = new CookieJar()
    jar.cookies.set(salt, value)
    expect(await session(testConfig(), jar)).toBeNull()
  })
})

describe('chunked session cookies', () => {
  it('splits a large session over several cookies and reads them back', async () => {
    const big = 'x'.repeat(7000)
    const config = testConfig({
      callbacks: {
        jwt: ({ token }) => ({ ...token, big }),
        session: ({ session: s, token }) => ({ ...s, big: token.big }),
      },
    })
    const jar = new CookieJar()
    const response = await signIn(config, jar)
    const names = response.headers.getSetCookie().map((c) => c.split('=')[0])
    expect(names).toEqual(expect.arrayContaining([`${salt}.0`, `${salt}.1`, `${salt}.2`]))
    expect(response.headers.getSetCookie().every((c) => c.length <= 4096)).toBe(true)
    expect(((await session(config, jar)) as { big: string }).big).toBe(big)
    // Auth.js reads our chunks too.
    const authJsResponse = await AuthJs(new Request(`${origin}/auth/session`, { headers: { cookie: jar.header() } }), {
      secret,
      trustHost: true,
      basePath: '/auth',
      providers: [],
    })
    expect(((await authJsResponse.json()) as { user: { email: string } }).user.email).toBe('ada@example.com')
  })

  it('clears stale chunks when the session shrinks', async () => {
    let big = 'y'.repeat(7000)
    const config = testConfig({ callbacks: { jwt: ({ token }) => ({ ...token, big }) } })
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(jar.cookies.has(`${salt}.2`)).toBe(true)
    big = 'small'
    await send(config, '/auth/session', { jar })
    expect(jar.cookies.has(salt)).toBe(true)
    expect([...jar.cookies.keys()].filter((k) => k.startsWith(`${salt}.`))).toEqual([])
  })
})
