import { describe, expect, it, vi } from 'vitest'
import { Auth, createActionURL, isAuthAction, raw, setEnvDefaults } from '../../src/index.js'
import type { AuthConfig } from '../../src/index.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import {
  CookieJar,
  csrfToken,
  origin,
  recordingLogger,
  send,
  signIn,
  testConfig,
  testCredentials,
} from '../support/auth-harness.js'

describe('GET /auth/providers', () => {
  it('lists the client-safe form of every provider', async () => {
    const response = await send(testConfig(), '/auth/providers')
    expect(await response.json()).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${origin}/auth/signin/credentials`,
        callbackUrl: `${origin}/auth/callback/credentials`,
      },
    })
  })

  it('a config without providers is the spec default []: no providers, a session check, nothing logged', async () => {
    const { logger, errors } = recordingLogger()
    const config: AuthConfig = { secret: 'x'.repeat(32), trustHost: true, logger }
    const response = await send(config, '/auth/providers')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({})
    expect(await (await send(config, '/auth/session')).json()).toBeNull()
    expect(errors).toEqual([])
  })

  it('honours a custom basePath', async () => {
    const response = await send(testConfig({ basePath: '/api/auth' }), '/api/auth/providers')
    expect(((await response.json()) as Record<string, { callbackUrl: string }>).credentials?.callbackUrl).toBe(
      `${origin}/api/auth/callback/credentials`,
    )
  })
})

describe('GET /auth/csrf', () => {
  it('returns a token and sets the double-submit cookie, reusing it on the next call', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const first = await csrfToken(config, jar)
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    const cookie = decodeURIComponent(jar.cookies.get('authjs.csrf-token') as string)
    expect(cookie.startsWith(`${first}|`)).toBe(true)
    expect(await csrfToken(config, jar)).toBe(first)
  })

  it('uses the __Host- prefix and Secure on HTTPS', async () => {
    const response = await send(testConfig(), '/auth/csrf', { base: 'https://app.example' })
    const cookie = response.headers.getSetCookie()[0]
    expect(cookie).toMatch(/^__Host-authjs\.csrf-token=/)
    expect(cookie).toMatch(/; Secure/i)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).not.toMatch(/Domain=/i)
  })
})

describe('secure cookie prefixes', () => {
  it('names the session cookie __Secure- on HTTPS and refuses the unprefixed name there', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar, 'https://app.example')
    const response = await send(config, '/auth/callback/credentials', {
      base: 'https://app.example',
      jar,
      form: { username: 'ada', password: 'lovelace', csrfToken: token },
    })
    const sessionCookie = response.headers.getSetCookie().find((c) => c.includes('session-token')) as string
    expect(sessionCookie).toMatch(/^__Secure-authjs\.session-token=.*; HttpOnly/i)
    expect(sessionCookie).toMatch(/; Secure/i)
    // An attacker on plain HTTP can set an unprefixed cookie; it must not count on the HTTPS site.
    const value = jar.cookies.get('__Secure-authjs.session-token') as string
    const plain = await send(config, '/auth/session', {
      base: 'https://app.example',
      headers: { cookie: `authjs.session-token=${value}` },
    })
    expect(await plain.json()).toBeNull()
  })

  it('lets useSecureCookies force the secure names on plain HTTP (behind a TLS proxy)', async () => {
    const response = await send(testConfig({ useSecureCookies: true }), '/auth/csrf')
    expect(response.headers.getSetCookie()[0]).toMatch(/^__Host-authjs\.csrf-token=.*; Secure/i)
  })

  it('applies per-cookie overrides from config.cookies', async () => {
    const config = testConfig({ cookies: { sessionToken: { name: 'my-session', options: { sameSite: 'strict' } } } })
    const jar = new CookieJar()
    const response = await signIn(config, jar)
    expect(response.headers.getSetCookie().find((c) => c.startsWith('my-session='))).toMatch(/SameSite=Strict/i)
    expect(
      ((await (await send(config, '/auth/session', { jar })).json()) as { user: { name: string } }).user.name,
    ).toBe('Ada Lovelace')
  })
})

describe('cookies options without an effect', () => {
  it('are warned once at start-up as cookie-option-unused, naming each setting; those with an effect are not', async () => {
    const { logger, warnings } = recordingLogger()
    const details: unknown[] = []
    const config = testConfig({
      logger: { ...logger, warn: (code, detail) => void (warnings.push(code), details.push(detail)) },
      cookies: {
        sessionToken: { name: 'app.session' },
        // Read by its name only: the callback URL lives in the flow, so its attributes change nothing.
        callbackUrl: { name: 'app.callback', options: { maxAge: 60 } },
        // The first in-flight key names the flow cookie; the others are not used.
        pkceCodeVerifier: { name: 'app.flow' },
        state: { name: 'app.state' },
        webauthnChallenge: { name: 'app.challenge' },
      },
    })
    for (let i = 0; i < 3; i++) await send(config, '/auth/session')
    expect(warnings.filter((code) => code === 'cookie-option-unused')).toHaveLength(3)
    expect(details).toEqual(
      expect.arrayContaining([
        { setting: 'cookies.state' },
        { setting: 'cookies.webauthnChallenge' },
        { setting: 'cookies.callbackUrl.options' },
      ]),
    )
  })
})

describe('raw mode', () => {
  it('returns the internal response for a framework to render', async () => {
    const config = { ...testConfig(), raw } as AuthConfig & { raw: typeof raw }
    const internal = await Auth(new Request(`${origin}/auth/providers`), config)
    expect(internal.status).toBe(200)
    expect(internal.body).toHaveProperty('credentials')
    const csrf = await Auth(new Request(`${origin}/auth/csrf`), config)
    expect(csrf.cookies?.[0]?.name).toBe('authjs.csrf-token')
    const signInPage = await Auth(new Request(`${origin}/auth/signout`, { method: 'POST' }), config)
    expect(signInPage.redirect).toContain('/auth/signin?error=Signin')
  })
})

describe('pages', () => {
  it('renders the sign-in page with a form per credentials provider carrying the CSRF token', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    const response = await send(config, '/auth/signin?callbackUrl=%2Fafter', { jar })
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    const html = await response.text()
    const token = decodeURIComponent(jar.cookies.get('authjs.csrf-token') as string).split('|')[0]
    expect(html).toContain(`name="csrfToken" value="${token}"`)
    expect(html).toContain('action="http://localhost:3000/auth/callback/credentials"')
    expect(html).toContain('name="callbackUrl" value="/after"')
  })

  it('shows the message of a known error and escapes everything it echoes', async () => {
    const html = await (
      await send(testConfig(), '/auth/signin?error=CredentialsSignin&callbackUrl=%22%3E%3Cscript%3E')
    ).text()
    expect(html).toContain('Sign in failed')
    expect(html).not.toContain('"><script>')
    expect(html).toContain('&quot;&gt;&lt;script&gt;')
  })

  it.each([
    ['Configuration', 500],
    ['AccessDenied', 403],
    ['Verification', 403],
    ['Nonsense', 400],
  ])('renders the error page for error=%s with status %i', async (error, status) => {
    const response = await send(testConfig(), `/auth/error?error=${error}`)
    expect(response.status).toBe(status)
    expect(await response.text()).toContain('<h1>')
  })

  it('redirects to the app pages when pages are configured', async () => {
    const config = testConfig({ pages: { signIn: '/login', error: '/oops' } })
    expect((await send(config, '/auth/signin')).headers.get('location')).toBe(
      `${origin}/login?callbackUrl=${encodeURIComponent(origin)}`,
    )
    expect((await send(config, '/auth/error?error=AccessDenied')).headers.get('location')).toBe(
      `${origin}/oops?error=AccessDenied`,
    )
    const failed = await signIn(config, new CookieJar(), 'ada', 'nope')
    expect(failed.headers.get('location')).toBe(`${origin}/login?error=CredentialsSignin&code=credentials`)
  })

  it('renders sign-out and verify-request pages', async () => {
    const signout = await (await send(testConfig(), '/auth/signout')).text()
    expect(signout).toContain('action="http://localhost:3000/auth/signout"')
    expect(signout).toContain('name="csrfToken"')
    expect(await (await send(testConfig(), '/auth/verify-request')).text()).toContain('Check your email')
  })

  it('answers HEAD like GET without a body', async () => {
    const response = await send(testConfig(), '/auth/providers', { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })
})

describe('GET /auth/webauthn-options', () => {
  it('answers 400 ExperimentalFeatureNotEnabled while experimental.enableWebAuthn is off', async () => {
    const response = await send(testConfig(), '/auth/webauthn-options/passkey')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'ExperimentalFeatureNotEnabled' })
  })
})

describe('isAuthAction', () => {
  it('accepts exactly the nine actions', () => {
    for (const a of [
      'callback',
      'csrf',
      'error',
      'providers',
      'session',
      'signin',
      'signout',
      'verify-request',
      'webauthn-options',
    ])
      expect(isAuthAction(a)).toBe(true)
    for (const a of ['', 'signIn', 'logout', '__proto__', 'constructor']) expect(isAuthAction(a)).toBe(false)
  })
})

describe('setEnvDefaults', () => {
  it('reads AUTH_SECRET with AUTH_SECRET_1..3 in front, AUTH_URL base path, trust and redirect proxy', () => {
    const { logger, warnings } = recordingLogger()
    const config: AuthConfig = { providers: [], logger }
    setEnvDefaults(
      {
        AUTH_SECRET: 'current',
        AUTH_SECRET_1: 'one',
        AUTH_SECRET_3: 'three',
        AUTH_URL: 'https://app.example/api/auth',
        AUTH_REDIRECT_PROXY_URL: 'https://proxy.example/api/auth',
        NODE_ENV: 'production',
      },
      config,
    )
    expect(config.secret).toEqual(['three', 'one', 'current'])
    expect(config.basePath).toBe('/api/auth')
    expect(config.trustHost).toBe(true)
    expect(config.redirectProxyUrl).toBe('https://proxy.example/api/auth')
    expect(warnings).toEqual([])
  })

  it('reads AUTH_URL into url and the proxy allow-list from AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS', () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults(
      {
        AUTH_URL: 'https://app.example/auth',
        AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: ' https://app.example , https://*.preview.example ,',
      },
      config,
    )
    expect(config.url).toBe('https://app.example/auth')
    expect(config.redirectProxyAllowedOrigins).toEqual(['https://app.example', 'https://*.preview.example'])
  })

  it('keeps what the config already has, warns about a redundant base path, and trusts the host only when told in production', () => {
    const { logger, warnings } = recordingLogger()
    const config: AuthConfig = { providers: [], secret: 'mine', basePath: '/auth', logger }
    setEnvDefaults({ AUTH_SECRET: 'env', AUTH_URL: 'https://app.example/api/auth', NODE_ENV: 'production' }, config)
    expect(config.secret).toBe('mine')
    expect(config.basePath).toBe('/auth')
    expect(warnings).toEqual(['env-url-basepath-redundant'])
    const untrusted: AuthConfig = { providers: [] }
    setEnvDefaults({ NODE_ENV: 'production' }, untrusted)
    expect(untrusted.trustHost).toBe(false)
    const declared: AuthConfig = { providers: [] }
    setEnvDefaults({ NODE_ENV: 'production', AUTH_TRUST_HOST: 'true' }, declared)
    expect(declared.trustHost).toBe(true)
  })

  it('fills provider client id, secret and issuer from AUTH_<ID>_*', () => {
    const config: AuthConfig = { providers: [{ id: 'my-idp', name: 'IdP', type: 'oidc' }, testCredentials()] }
    setEnvDefaults(
      { AUTH_MY_IDP_ID: 'cid', AUTH_MY_IDP_SECRET: 'csecret', AUTH_MY_IDP_ISSUER: 'https://idp.example' },
      config,
    )
    expect(config.providers?.[0]).toMatchObject({
      clientId: 'cid',
      clientSecret: 'csecret',
      issuer: 'https://idp.example',
    })
  })

  it('fills AUTH_<ID>_ISSUER into an OAuth provider too, as Auth.js does', () => {
    const config: AuthConfig = { providers: [{ id: 'corp', name: 'Corp', type: 'oauth' }] }
    setEnvDefaults({ AUTH_CORP_ISSUER: 'https://corp.example' }, config)
    expect(config.providers?.[0]).toMatchObject({ issuer: 'https://corp.example' })
  })

  it("AUTH_MICROSOFT_ENTRA_ID_ISSUER wins over the factory's common tenant, called or given as the factory", () => {
    const tenantIssuer = 'https://login.microsoftonline.com/8a2a7b4d-1234-5678-9abc-def012345678/v2.0'
    const env = { AUTH_MICROSOFT_ENTRA_ID_ISSUER: tenantIssuer }
    // Given uncalled, the factory is called with the variables, as Auth.js calls it.
    const uncalled: AuthConfig = { providers: [MicrosoftEntraID] }
    setEnvDefaults(env, uncalled)
    expect(uncalled.providers?.[0]).toMatchObject({ issuer: tenantIssuer, options: { issuer: tenantIssuer } })
    // Called in the config, it reads the variable itself (as Auth.js's does); a tenant or issuer given still wins.
    vi.stubEnv('AUTH_MICROSOFT_ENTRA_ID_ISSUER', tenantIssuer)
    try {
      expect(MicrosoftEntraID({ clientId: 'id' }).issuer).toBe(tenantIssuer)
      expect(MicrosoftEntraID({ clientId: 'id', tenantId: 'other' }).issuer).toBe(
        'https://login.microsoftonline.com/other/v2.0',
      )
    } finally {
      vi.unstubAllEnvs()
    }
    expect(MicrosoftEntraID({ clientId: 'id' }).issuer).toBe('https://login.microsoftonline.com/common/v2.0')
  })
})

describe('createActionURL', () => {
  it('builds the URL from forwarded headers, or from AUTH_URL when set', () => {
    const headers = new Headers({
      host: 'internal:8080',
      'x-forwarded-host': 'app.example, proxy',
      'x-forwarded-proto': 'https',
    })
    expect(createActionURL('signin', 'http', headers, {}, { basePath: '/auth' }).href).toBe(
      'https://app.example/auth/signin',
    )
    expect(createActionURL('session', 'http:', new Headers({ host: 'localhost:3000' }), {}, {}).href).toBe(
      'http://localhost:3000/auth/session',
    )
    expect(
      createActionURL('csrf', 'http', headers, { AUTH_URL: 'https://site.example/api/auth' }, { basePath: '/api/auth' })
        .href,
    ).toBe('https://site.example/api/auth/csrf')
  })

  it('uses basePath when AUTH_URL names another path, and warns env-url-basepath-mismatch as Auth.js does', () => {
    const warned: unknown[][] = []
    const logger = { warn: (...args: unknown[]) => void warned.push(args) }
    const url = createActionURL(
      'csrf',
      'http',
      new Headers(),
      { AUTH_URL: 'https://site.example/other/' },
      { basePath: '/auth', logger },
    )
    // The handler is mounted at basePath: a URL under AUTH_URL's path would reach nothing.
    expect(url.href).toBe('https://site.example/auth/csrf')
    // The code alone, as Auth.js calls logger.warn: a logger (or a test) written for Auth.js sees the same call.
    expect(warned).toEqual([['env-url-basepath-mismatch']])
  })

  it.each([
    // A trailing slash on one side only is a mismatch, as in Auth.js.
    ['http://localhost:3000/my-app/api/auth/', '/my-app/api/auth', 'http://localhost:3000/my-app/api/auth/signout'],
    ['http://localhost:3000/my-app/api/auth', '/my-app/api/auth/', 'http://localhost:3000/my-app/api/auth/signout'],
    // AUTH_URL names only the app's prefix, basePath another path: basePath is where the handler is.
    ['https://sub.domain.env.com/my-app', '/api/auth', 'https://sub.domain.env.com/api/auth/signout'],
  ])('AUTH_URL %s with basePath %s: warns env-url-basepath-mismatch and builds %s', (authUrl, basePath, expected) => {
    const warned: unknown[][] = []
    const debugged: unknown[][] = []
    const logger = {
      warn: (...args: unknown[]) => void warned.push(args),
      debug: (...args: unknown[]) => void debugged.push(args),
    }
    const url = createActionURL('signout', 'https', new Headers(), { AUTH_URL: authUrl }, { basePath, logger })
    expect(url.href).toBe(expected)
    expect(warned).toEqual([['env-url-basepath-mismatch']])
    expect(debugged).toEqual([['env-url-basepath-mismatch', { authUrlPath: new URL(authUrl).pathname, basePath }]])
  })

  it("takes AUTH_URL's path when no basePath is given, and does not warn when the two agree", () => {
    const { logger, warnings } = recordingLogger()
    const env = { AUTH_URL: 'https://site.example/api/auth' }
    expect(createActionURL('session', 'http', new Headers(), env, { logger }).href).toBe(
      'https://site.example/api/auth/session',
    )
    expect(createActionURL('session', 'http', new Headers(), env, { basePath: '/api/auth', logger }).href).toBe(
      'https://site.example/api/auth/session',
    )
    expect(
      createActionURL(
        'session',
        'http',
        new Headers(),
        { AUTH_URL: 'https://site.example' },
        { basePath: '/x', logger },
      ).href,
    ).toBe('https://site.example/x/session')
    expect(warnings).toEqual([])
  })
})

describe('logger', () => {
  it('calls debug only when debug is true, and warns debug-enabled', async () => {
    const warnings: string[] = []
    const logger = {
      warn: (c: string) => {
        warnings.push(c)
      },
      error: () => {},
    }
    await send({ ...testConfig(), logger, debug: true }, '/auth/providers')
    expect(warnings).toContain('debug-enabled')
    const quiet: string[] = []
    await send(
      {
        ...testConfig(),
        logger: {
          warn: (c: string) => {
            quiet.push(c)
          },
          error: () => {},
        },
      },
      '/auth/providers',
    )
    expect(quiet).not.toContain('debug-enabled')
    const messages: unknown[] = []
    await send(
      {
        ...testConfig(),
        logger: {
          debug: (m: string, meta?: unknown) => {
            messages.push([m, meta])
          },
        },
        debug: true,
      },
      '/auth/providers',
    )
    expect(messages).toContainEqual(['request', { method: 'GET', action: 'providers', providerId: undefined }])
  })
})
