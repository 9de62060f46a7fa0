/**
 * The SolidStart binding's own parts, without a SolidStart server: `prefix` and `basePath` as one option, the
 * mount-path report, the cross-site refusal, requests the route does not own, and getSession / requireSession over
 * a real credentials sign-in through the handlers. The binding in real SolidStart apps: solid-start-apps.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { InvalidConfig } from '../../../src/errors.js'
import Credentials from '../../../src/providers/credentials.js'
import OIDC from '../../../src/providers/oidc.js'
import {
  getSession,
  requireSession,
  SolidAuth,
  type SolidAuthConfig,
} from '../../../src/frameworks/solid-start/index.js'
import { mountPathOf } from '../../../src/frameworks/solid-start/mount.js'
import { CookieJar } from '../support/fixture-app.js'

const origin = 'http://app.test'
const secret = 'solid-start-binding-secret-0123456789abcdef'
const alice = { id: 'alice', name: 'Alice', email: 'alice@example.test' }

function config(extra: Partial<SolidAuthConfig> = {}, errors: Error[] = []): SolidAuthConfig {
  return {
    secret,
    trustHost: true,
    logger: { error: (error: Error) => errors.push(error) },
    providers: [
      Credentials({
        credentials: { password: { type: 'password' } },
        authorize: async (input) => (input.password === 'wonderland' ? alice : null),
      }),
      OIDC({ id: 'oidc', name: 'OP', issuer: 'https://op.test', clientId: 'app', clientSecret: 'app-secret' }),
    ],
    ...extra,
  }
}

/** An API event as SolidStart builds it for the catch-all route mounted at `mount`. */
function event(url: string, mount: string, init: RequestInit = {}) {
  const pathname = new URL(url).pathname
  const rest = pathname.startsWith(`${mount}/`) ? pathname.slice(mount.length + 1) : ''
  return { request: new Request(url, init), params: { solidauth: rest } }
}

describe('SolidAuth configuration: prefix and basePath are one option', () => {
  it('defaults both to /api/auth', () => {
    const options = config()
    SolidAuth(options)
    expect([options.prefix, options.basePath]).toEqual(['/api/auth', '/api/auth'])
  })

  it('sets basePath from prefix and prefix from basePath (trailing slashes dropped)', () => {
    const byPrefix = config({ prefix: '/auth/' })
    SolidAuth(byPrefix)
    expect([byPrefix.prefix, byPrefix.basePath]).toEqual(['/auth', '/auth'])
    const byBasePath = config({ basePath: '/custom' })
    SolidAuth(byBasePath)
    expect([byBasePath.prefix, byBasePath.basePath]).toEqual(['/custom', '/custom'])
  })

  it('refuses at start-up a prefix and a basePath that disagree, a relative path, `raw`, and what is no config object', () => {
    expect(() => SolidAuth(config({ prefix: '/auth', basePath: '/api/auth' }))).toThrow(
      /prefix.*\/auth.*basePath.*\/api\/auth/,
    )
    expect(() => SolidAuth(config({ prefix: 'auth' }))).toThrow(InvalidConfig)
    expect(() => SolidAuth({ ...config(), raw: Symbol('raw') } as SolidAuthConfig)).toThrow(/raw/)
    expect(() => SolidAuth({ providers: 'github' } as unknown as SolidAuthConfig)).toThrow(InvalidConfig)
    expect(() => SolidAuth(null as unknown as SolidAuthConfig)).toThrow(InvalidConfig)
    // `providers` is optional, as in Auth.js (#32).
    expect(typeof SolidAuth({ secret: 'a-secret-long-enough-for-the-tests-here-0123' }).GET).toBe('function')
  })
})

describe('SolidAuth handlers', () => {
  it('return undefined for a path outside the prefix (a catch-all mounted higher up)', async () => {
    const { GET } = SolidAuth(config())
    expect(await GET({ request: new Request(`${origin}/elsewhere`) })).toBeUndefined()
    expect(await GET({ request: new Request(`${origin}/api/authors`) })).toBeUndefined()
  })

  it('report a route mounted at another path than the prefix: a plain 500 naming both, logged once', async () => {
    const errors: Error[] = []
    const { GET } = SolidAuth(config({ prefix: '/auth' }, errors))
    for (const path of ['/api/auth/session', '/api/auth/csrf']) {
      const response = await GET(event(`${origin}${path}`, '/api/auth'))
      expect(response?.status).toBe(500)
      expect(await response?.text()).toContain('mounted at /api/auth but the configured prefix (basePath) is /auth')
      expect(response?.headers.getSetCookie()).toEqual([])
    }
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(InvalidConfig)
    // Mounted where the prefix says: answered by Auth().
    const right = await GET(event(`${origin}/auth/csrf`, '/auth'))
    expect(right?.status).toBe(200)
  })

  it('refuse a POST from another origin before Auth() runs, but let a provider post its OAuth callback', async () => {
    const { POST } = SolidAuth(config())
    const headers = { origin: 'http://evil.test', 'content-type': 'application/x-www-form-urlencoded' }
    for (const path of ['/api/auth/callback/credentials', '/api/auth/signin/oidc', '/api/auth/signout']) {
      const response = await POST(
        event(`${origin}${path}`, '/api/auth', { method: 'POST', headers, body: 'csrfToken=x' }),
      )
      expect(response?.status, path).toBe(403)
    }
    const crossSite = await POST(
      event(`${origin}/api/auth/signout`, '/api/auth', {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
        body: '',
      }),
    )
    expect(crossSite?.status).toBe(403)
    // A form_post callback comes from the provider's origin: state / PKCE decide it (here: no flow, so refused there).
    const callback = await POST(
      event(`${origin}/api/auth/callback/oidc`, '/api/auth', {
        method: 'POST',
        headers: { ...headers, origin: 'http://op.test' },
        body: 'code=x',
      }),
    )
    expect(callback?.status).not.toBe(403)
    expect(callback?.headers.getSetCookie().join('\n')).not.toContain('session-token')
  })
})

describe('getSession and requireSession', () => {
  async function signedIn(options: SolidAuthConfig): Promise<CookieJar> {
    const { GET, POST } = SolidAuth(options)
    const jar = new CookieJar()
    const csrf = await GET(event(`${origin}/api/auth/csrf`, '/api/auth'))
    jar.take(csrf!)
    const { csrfToken } = (await csrf!.json()) as { csrfToken: string }
    const response = await POST(
      event(`${origin}/api/auth/callback/credentials`, '/api/auth', {
        method: 'POST',
        headers: { origin, cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfToken, password: 'wonderland', callbackUrl: '/' }),
      }),
    )
    jar.take(response!)
    expect(jar.cookies.has('authjs.session-token')).toBe(true)
    return jar
  }

  it('reads the session of a signed-in request, and null without one', async () => {
    const options = config()
    const jar = await signedIn(options)
    const session = await getSession(new Request(`${origin}/page`, { headers: { cookie: jar.header() } }), options)
    expect(session?.user).toMatchObject({ name: 'Alice', email: 'alice@example.test' })
    expect(await getSession(new Request(`${origin}/page`), options)).toBeNull()
    expect(
      await getSession(new Request(`${origin}/page`, { headers: { cookie: 'authjs.session-token=forged' } }), options),
    ).toBeNull()
  })

  it('requireSession returns the session with its user, and throws a redirect to / (or redirectTo) without one', async () => {
    const options = config()
    const jar = await signedIn(options)
    const session = await requireSession(new Request(`${origin}/page`, { headers: { cookie: jar.header() } }), options)
    expect(session.user.email).toBe('alice@example.test')
    const thrown = await requireSession(new Request(`${origin}/page`), options).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toBe('/')
    const elsewhere = await requireSession(new Request(`${origin}/page`), options, { redirectTo: '/login' }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect((elsewhere as Response).headers.get('location')).toBe('/login')
  })
})

describe('mountPathOf', () => {
  it('reads the mount path from the catch-all parameter, and says nothing when the parameters do not tell', () => {
    expect(mountPathOf('/api/auth/callback/github', { solidauth: 'callback/github' })).toBe('/api/auth')
    expect(mountPathOf('/auth/session', { any: ['session'] })).toBe('/auth')
    expect(mountPathOf('/api/auth/signin/%E2%9C%93', { solidauth: 'signin/✓' })).toBe('/api/auth')
    expect(mountPathOf('/api/auth', { solidauth: '' })).toBeUndefined()
    expect(mountPathOf('/api/auth/x', undefined)).toBeUndefined()
    expect(mountPathOf('/api/auth/%E0%A4%A', { solidauth: '%E0%A4%A' })).toBe('/api/auth')
  })
})
