/**
 * The checks every SolidStart fixture app passes, whatever its major: Authchart installed from the packed tarball,
 * the app built by the framework's toolchain and served by Nitro's node-server output, driven over HTTP and in
 * headless Chromium, against a real OpenID Provider (`oidc-provider`) and, for database sessions, a real PostgreSQL.
 * The JWT app keeps the default prefix `/api/auth`; the database app is served with `prefix: '/auth'`, so the custom
 * prefix is proven end to end, the provider's callback URL included.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { solidStartSamples } from '../../docs/framework-sample-projects.js'
import { expectSamplesToCompile } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { describeWithService, probePostgres } from '../../support/services.js'
import {
  chromiumArgs,
  chromiumPath,
  csrfToken,
  describeDatabaseConformance,
  describeJwtConformance,
  describeTrustHostConformance,
  hasChromium,
  loginAtProvider,
  sessionCookie,
  type BindingAdapter,
} from '../support/binding-conformance.js'
import { browse, clientHeaders, CookieJar, freePort, packAuthchart } from '../support/fixture-app.js'
import {
  buildFixture,
  startApp,
  typecheckFixture,
  type BuiltApp,
  type FixtureOptions,
  type RunningApp,
} from './solid-app.js'

const secret = 'solid-start-fixture-secret-0123456789abcdef'

/**
 * Builds start as soon as the test file asks for them, each at most once: the file starts both fixtures' installs
 * and builds before the first suite runs, so they overlap (they spend most of their time waiting on npm).
 */
const builds = new Map<string, Promise<BuiltApp>>()
export function startBuild(options: FixtureOptions): Promise<BuiltApp> {
  let pending = builds.get(options.fixture)
  if (!pending) {
    pending = packAuthchart().then((tarball) => buildFixture(options, tarball))
    // A build failure is reported by the suite that awaits it; this keeps an early start from being unhandled.
    pending.catch(() => undefined)
    builds.set(options.fixture, pending)
  }
  return pending
}

export interface SuiteOptions extends FixtureOptions {
  /** The Node major the app must be served by (checked, so a fixture cannot fall back to another Node unnoticed). */
  nodeMajor?: number
}

/**
 * How the conformance cases drive an app with the auth routes under `prefix`: SolidStart's server-side sign-in and
 * sign-out are Auth()'s own routes, posted as a page of the app would (with the CSRF token it fetched).
 */
function adapterFor(prefix: string): Omit<BindingAdapter, 'app'> {
  return {
    authPrefix: prefix,
    protectedPath: '/protected',
    signedOutRedirect: { status: 302, location: '/' },
    async postSignIn(app, jar, headers, password = 'wonderland') {
      const token = await csrfToken(app, prefix, jar)
      return browse(`${app.origin}${prefix}/callback/credentials`, jar, {
        form: { username: 'alice', password, callbackUrl: `${app.origin}/protected`, csrfToken: token },
        headers,
      })
    },
    signedIn: { status: 302, location: (origin) => `${origin}/protected` },
    refusedStatus: 302,
    async postSignOut(app, jar, headers) {
      const token = await csrfToken(app, prefix, jar)
      return browse(`${app.origin}${prefix}/signout`, jar, {
        form: { callbackUrl: `${app.origin}/`, csrfToken: token },
        headers,
      })
    },
    signedOut: { status: 302 },
    devicesPath: '/api/devices',
  }
}

/** Waits until the page's handlers are attached (the fixture pages mark themselves once hydrated). */
async function hydrated(page: Page): Promise<void> {
  await page.locator('main[data-ready="yes"]').waitFor()
}

export async function defineSolidStartSuite(options: SuiteOptions): Promise<void> {
  // Packing, installing and building the app happen once, in the first beforeAll.
  vi.setConfig({ hookTimeout: 400_000, testTimeout: 60_000 })
  const app = () => startBuild(options)
  const ports: { jwt?: number; database?: number } = {}
  let op: RunningOidcProvider | undefined
  let browser: Browser | undefined
  const running: RunningApp[] = []

  async function provider(): Promise<RunningOidcProvider> {
    if (op) return op
    ports.jwt = await freePort()
    ports.database = await freePort()
    op = await startOidcProvider({
      clients: [
        {
          client_id: 'solid-app',
          client_secret: 'solid-app-secret',
          // The JWT app keeps the default prefix, the database app runs with prefix `/auth`.
          redirect_uris: [
            `http://127.0.0.1:${ports.jwt}/api/auth/callback/oidc`,
            `http://127.0.0.1:${ports.database}/auth/callback/oidc`,
          ],
        },
      ],
    })
    return op
  }

  async function serve(port: number, env: Record<string, string>): Promise<RunningApp> {
    const server = await startApp(await app(), port, {
      NODE_ENV: 'production',
      AUTH_SECRET: secret,
      AUTH_OIDC_ISSUER: (await provider()).issuer,
      AUTH_OIDC_ID: 'solid-app',
      AUTH_OIDC_SECRET: 'solid-app-secret',
      ...env,
    })
    running.push(server)
    if (options.nodeMajor !== undefined) expect(server.version).toMatch(new RegExp(`^v${options.nodeMajor}\\.`))
    return server
  }

  async function context(): Promise<BrowserContext> {
    browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    return browser.newContext({ extraHTTPHeaders: { ...clientHeaders } })
  }

  beforeAll(async () => {
    await app()
  })

  afterAll(async () => {
    await browser?.close()
    for (const server of running) await server.stop()
    await op?.close()
    const done = await app().catch(() => undefined)
    done?.remove()
  })

  it("the published declarations fit this SolidStart major's own types (types-check/check.ts, with @ts-expect-error guards against `any`)", async () => {
    const result = typecheckFixture(await app())
    expect(result.output).toBe('')
    expect(result.status).toBe(0)
  })

  it(`every TypeScript sample of ${solidStartSamples.page} compiles in this app (tsc)`, async () => {
    expectSamplesToCompile(solidStartSamples, (await app()).dir)
  })

  describe('JWT sessions, default prefix /api/auth (AUTH_TRUST_HOST=true, no AUTH_URL)', () => {
    const prefix = '/api/auth'
    let server: RunningApp
    beforeAll(async () => {
      await provider()
      server = await serve(ports.jwt!, { AUTH_TRUST_HOST: 'true' })
    })

    describeJwtConformance({ ...adapterFor(prefix), app: () => server }, async () => (await provider()).issuer)

    it('reports a route mounted at a path other than the prefix: the log and a plain 500 name both paths', async () => {
      // The fixture also mounts the handlers at /auth, which this app's prefix (/api/auth) does not name.
      const response = await browse(`${server.origin}/auth/session`, new CookieJar(), {
        headers: { accept: 'application/json' },
      })
      expect(response.status).toBe(500)
      const body = await response.text()
      expect(body).toContain('mounted at /auth but the configured prefix (basePath) is /api/auth')
      expect(body).not.toMatch(/\n\s+at /)
      expect(server.output()).toContain(
        'the auth route is mounted at /auth but the configured prefix (basePath) is /api/auth',
      )
    })

    it.runIf(hasChromium)(
      'in Chromium: OIDC sign-in with the client signIn, the protected page, sign-out with the client signOut',
      async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await page.goto(`${server.origin}/`)
          expect(await page.locator('#status').textContent()).toBe('Not signed in')
          await hydrated(page)
          const callback = page.waitForRequest(
            (request) => new URL(request.url()).pathname === `${prefix}/callback/oidc`,
          )
          await page.getByRole('button', { name: 'Sign in with oidc' }).click()
          await loginAtProvider(page, (await provider()).issuer, server, prefix)
          await callback
          expect(new URL(page.url()).pathname).toBe('/protected')
          expect(await page.locator('#user').textContent()).toBe(
            'Protected page for Alice Liddell (alice@example.test)',
          )
          await page.goto(`${server.origin}/`)
          expect(await page.locator('#status').textContent()).toBe('Signed in as Alice Liddell')
          await hydrated(page)
          const signOutPost = page.waitForRequest(
            (request) => request.method() === 'POST' && new URL(request.url()).pathname === `${prefix}/signout`,
          )
          // signOut({ redirectTo: '/' }) on `/` loads the page again.
          const reloaded = page.waitForResponse(
            (response) => response.url() === `${server.origin}/` && response.request().resourceType() === 'document',
          )
          await page.getByRole('button', { name: 'Sign out' }).click()
          // The client carried a CSRF token it fetched from the csrf endpoint.
          expect(new URLSearchParams((await signOutPost).postData() ?? '').get('csrfToken')).toMatch(/^[0-9a-f]{32,}$/)
          await reloaded
          await expect
            .poll(async () => (await ctx.cookies()).some((cookie) => cookie.name === sessionCookie))
            .toBe(false)
          await expect.poll(() => page.locator('#status').textContent()).toBe('Not signed in')
        } finally {
          await ctx.close()
        }
      },
    )

    it.runIf(hasChromium)(
      'in Chromium: credentials with the client signIn (wrong password reported, right one signed in), then signOut',
      async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await page.goto(`${server.origin}/client`)
          await hydrated(page)
          await page.locator('#client-wrong').click()
          await expect.poll(() => page.locator('#result').textContent()).toBe('error=CredentialsSignin ok=false')
          expect((await ctx.cookies()).some((cookie) => cookie.name === sessionCookie)).toBe(false)
          await page.locator('#client-signin').click()
          await page.waitForURL(`${server.origin}/protected`)
          await expect
            .poll(() => page.locator('#user').textContent())
            .toBe('Protected page for Alice Credentials (alice@fixture.test)')
          await page.goto(`${server.origin}/client`)
          await hydrated(page)
          await page.locator('#client-signout').click()
          await page.waitForURL(`${server.origin}/`)
          await expect.poll(() => page.locator('#status').textContent()).toBe('Not signed in')
          // Client-side navigation to the protected page: the server function's redirect is followed in the browser.
          await page.goto(`${server.origin}/protected`)
          await page.waitForURL(`${server.origin}/`)
        } finally {
          await ctx.close()
        }
      },
    )
  })

  describe('AUTH_TRUST_HOST=false in a production build', () => {
    describeTrustHostConformance(adapterFor('/api/auth'), async (env) => serve(await freePort(), env))
  })

  await describeWithService('postgres', probePostgres, () => {
    describe('database sessions on PostgreSQL (KyselyAdapter), custom prefix /auth, AUTH_URL set', () => {
      const prefix = '/auth'
      let server: RunningApp
      const { database } = describeDatabaseConformance(
        { ...adapterFor(prefix), app: () => server },
        {
          async beforeAll({ url }) {
            await provider()
            server = await serve(ports.database!, {
              SESSION_STRATEGY: 'database',
              DATABASE_URL: url,
              AUTH_URL: `http://127.0.0.1:${ports.database!}`,
              AUTH_PREFIX: prefix,
            })
          },
        },
      )
      afterAll(async () => {
        await server?.stop()
      })

      it('the default route /api/auth is reported as mounted at the wrong path, and signs nobody in', async () => {
        const jar = new CookieJar()
        const response = await browse(`${server.origin}/api/auth/csrf`, jar, {
          headers: { accept: 'application/json' },
        })
        expect(response.status).toBe(500)
        expect(await response.text()).toContain('mounted at /api/auth but the configured prefix (basePath) is /auth')
        expect(jar.cookies.size).toBe(0)
      })

      it('the providers endpoint gives callback URLs under the custom prefix', async () => {
        const response = await browse(`${server.origin}${prefix}/providers`, new CookieJar(), {
          headers: { accept: 'application/json' },
        })
        const providers = (await response.json()) as Record<string, { callbackUrl: string }>
        expect(providers.oidc?.callbackUrl).toBe(`${server.origin}/auth/callback/oidc`)
      })

      it.runIf(hasChromium)(
        'in Chromium: OIDC sign-in returns to /auth/callback/oidc and creates the user, the account and a session row',
        async () => {
          const ctx = await context()
          try {
            const page = await ctx.newPage()
            await page.goto(`${server.origin}/`)
            await hydrated(page)
            const callback = page.waitForRequest(
              (request) => new URL(request.url()).pathname === `${prefix}/callback/oidc`,
            )
            await page.getByRole('button', { name: 'Sign in with oidc' }).click()
            await loginAtProvider(page, (await provider()).issuer, server, prefix)
            await callback
            await expect
              .poll(() => page.locator('#user').textContent())
              .toBe('Protected page for Alice Liddell (alice@example.test)')
            const token = (await ctx.cookies()).find((cookie) => cookie.name === sessionCookie)?.value ?? ''
            const row = await database().sessionRow(token)
            expect(row).toBeDefined()
            const account = await database().db.query('select "provider" from "Account" where "userId" = $1', [
              row!.userId,
            ])
            expect(account.rows).toEqual([{ provider: 'oidc' }])
          } finally {
            await ctx.close()
          }
        },
      )
    })
  })
}
