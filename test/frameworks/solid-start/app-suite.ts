/**
 * The checks every SolidStart fixture app passes, whatever its major: Authchart installed from the packed tarball,
 * the app built by the framework's toolchain and served by Nitro's node-server output, driven over HTTP and in
 * headless Chromium, against a real OpenID Provider (`oidc-provider`) and, for database sessions, a real PostgreSQL.
 * The JWT app keeps the default prefix `/api/auth`; the database app is served with `prefix: '/auth'`, so the custom
 * prefix is proven end to end, the provider's callback URL included.
 */
import { existsSync } from 'node:fs'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { KyselyAdapter, migrate } from '../../../adapters/sql/index.js'
import { solidStartSamples } from '../../docs/framework-sample-projects.js'
import { expectSamplesToCompile } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../../support/services.js'
import { browse, clientHeaders, CookieJar, freePort, packAuthchart } from '../support/fixture-app.js'
import {
  buildFixture,
  startApp,
  typecheckFixture,
  type BuiltApp,
  type FixtureOptions,
  type RunningApp,
} from './solid-app.js'

const chromiumPath = '/usr/bin/chromium'
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const hasChromium = existsSync(chromiumPath) || process.env.CI === 'true'
const secret = 'solid-start-fixture-secret-0123456789abcdef'
const sessionCookie = 'authjs.session-token'
/** The id of the user the fixture's credentials provider returns. */
const aliceId = '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10'

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

/** Gets a CSRF token (and its cookie into `jar`) as a page of the app would. */
async function csrfToken(app: RunningApp, prefix: string, jar: CookieJar): Promise<string> {
  const response = await browse(`${app.origin}${prefix}/csrf`, jar, { headers: { accept: 'application/json' } })
  const body = (await response.json()) as { csrfToken?: string }
  expect(body.csrfToken).toMatch(/^[0-9a-f]{32,}$/)
  return body.csrfToken ?? ''
}

/** Signs in with credentials over HTTP, as a same-origin page posting the form with its CSRF token. */
async function signInWithCredentials(
  app: RunningApp,
  prefix: string,
  jar: CookieJar,
  password = 'wonderland',
): Promise<Response> {
  const token = await csrfToken(app, prefix, jar)
  return browse(`${app.origin}${prefix}/callback/credentials`, jar, {
    form: { username: 'alice', password, callbackUrl: `${app.origin}/protected`, csrfToken: token },
    headers: { origin: app.origin },
  })
}

async function signOut(app: RunningApp, prefix: string, jar: CookieJar): Promise<Response> {
  const token = await csrfToken(app, prefix, jar)
  return browse(`${app.origin}${prefix}/signout`, jar, {
    form: { callbackUrl: `${app.origin}/`, csrfToken: token },
    headers: { origin: app.origin },
  })
}

/** Waits until the page's handlers are attached (the fixture pages mark themselves once hydrated). */
async function hydrated(page: Page): Promise<void> {
  await page.locator('main[data-ready="yes"]').waitFor()
}

/** Walks the OP's login form in the browser as `alice` and waits for the app to have taken the callback. */
async function loginAtProvider(page: Page, op: RunningOidcProvider, app: RunningApp, prefix: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.origin === op.issuer, { timeout: 15_000 })
  } catch (error) {
    const text =
      (await page
        .locator('body')
        .textContent()
        .catch(() => '')) ?? ''
    throw new Error(
      `never reached the provider; at ${page.url()} showing ${JSON.stringify(text.slice(0, 300))}; app log:\n${app.output().slice(-2000)}`,
      { cause: error },
    )
  }
  await page.locator('input[name="login"]').fill('alice')
  await page.locator('input[name="login"]').press('Enter')
  await page.waitForURL((url) => url.origin === app.origin && !url.pathname.startsWith(`${prefix}/callback`))
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

    it('redirects a signed-out visitor of the protected page to / (requireSession in a server function)', async () => {
      const response = await browse(`${server.origin}/protected`, new CookieJar())
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe('/')
      expect(await (await browse(`${server.origin}/`, new CookieJar())).text()).toContain('Not signed in')
    })

    it('signs in with credentials over HTTP; getSession in a server function sees the user', async () => {
      const jar = new CookieJar()
      const response = await signInWithCredentials(server, prefix, jar)
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(`${server.origin}/protected`)
      // A JWT session: the cookie is an encrypted token (JWE compact form, five parts).
      expect(jar.cookies.get(sessionCookie)?.split('.')).toHaveLength(5)
      const page = await browse(`${server.origin}/protected`, jar)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Protected page for Alice Credentials (alice@fixture.test)')
      expect(await (await browse(`${server.origin}/`, jar)).text()).toContain('Signed in as Alice Credentials')
    })

    it('session management: an API route lists the user’s devices and ends the others (listSessions, revokeOtherSessions)', async () => {
      const [here, elsewhere] = [new CookieJar(), new CookieJar()]
      await signInWithCredentials(server, prefix, elsewhere)
      await signInWithCredentials(server, prefix, here)
      const listed = (await (await browse(`${server.origin}/api/devices`, here)).json()) as Array<{ current: boolean }>
      expect(listed.length).toBeGreaterThanOrEqual(2)
      expect(listed.filter((session) => session.current)).toHaveLength(1)
      expect(listed[0]?.current).toBe(true)
      const ended = await browse(`${server.origin}/api/devices`, here, {
        method: 'POST',
        headers: { origin: server.origin },
      })
      expect(((await ended.json()) as { ended: number }).ended).toBe(listed.length - 1)
      expect(await (await browse(`${server.origin}${prefix}/session`, elsewhere)).json()).toBeNull()
      expect(await (await browse(`${server.origin}/api/devices`, here)).json()).toHaveLength(1)
      expect(await (await browse(`${server.origin}/api/devices`, new CookieJar())).json()).toBeNull()
    })

    it('a wrong password signs nobody in and lands on the sign-in page with the error', async () => {
      const jar = new CookieJar()
      const response = await signInWithCredentials(server, prefix, jar, 'not-the-password')
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get('location') ?? '', server.origin)
      expect(location.pathname).toBe(`${prefix}/signin`)
      expect(location.searchParams.get('error')).toBe('CredentialsSignin')
      expect(jar.cookies.has(sessionCookie)).toBe(false)
    })

    it('signs out over HTTP: the session cookie goes, the protected page redirects again', async () => {
      const jar = new CookieJar()
      await signInWithCredentials(server, prefix, jar)
      expect(jar.cookies.has(sessionCookie)).toBe(true)
      const response = await signOut(server, prefix, jar)
      expect(response.status).toBe(302)
      expect(jar.cookies.has(sessionCookie)).toBe(false)
      expect((await browse(`${server.origin}/protected`, jar)).status).toBe(302)
    })

    it('refuses cross-site POSTs: a foreign Origin (even with a valid token pair), Fetch Metadata cross-site, and a post without the CSRF token', async () => {
      // The attacker's own token and cookie pair: valid for Auth(), but the post comes from another site.
      const jar = new CookieJar()
      const token = await csrfToken(server, prefix, jar)
      const form = { username: 'alice', password: 'wonderland', callbackUrl: '/protected', csrfToken: token }
      const foreign = await browse(`${server.origin}${prefix}/callback/credentials`, jar, {
        form,
        headers: { origin: 'http://evil.test' },
      })
      expect(foreign.status).toBe(403)
      expect(foreign.headers.getSetCookie().join('\n')).not.toContain(sessionCookie)
      const signin = await browse(`${server.origin}${prefix}/signin/oidc`, jar, {
        form: { csrfToken: token },
        headers: { origin: 'http://evil.test' },
      })
      expect(signin.status).toBe(403)
      const bare = await fetch(`${server.origin}${prefix}/signout`, {
        method: 'POST',
        headers: {
          ...clientHeaders,
          cookie: jar.header(),
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'cross-site',
        },
        body: new URLSearchParams({ csrfToken: token }),
        redirect: 'manual',
      })
      expect(bare.status).toBe(403)
      // Same origin but no token: Auth()'s double-submit check refuses it (MissingCSRF reaches the client as `Signin`).
      const tokenless = await browse(`${server.origin}${prefix}/callback/credentials`, new CookieJar(), {
        form: { username: 'alice', password: 'wonderland' },
        headers: { origin: server.origin },
      })
      expect(tokenless.headers.getSetCookie().join('\n')).not.toContain(sessionCookie)
      expect(tokenless.status).toBe(302)
      expect(new URL(tokenless.headers.get('location') ?? '', server.origin).searchParams.get('error')).toBe('Signin')
    })

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
          await loginAtProvider(page, await provider(), server, prefix)
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

  await describeWithService('postgres', probePostgres, () => {
    describe('database sessions on PostgreSQL (KyselyAdapter), custom prefix /auth, AUTH_URL set', () => {
      const prefix = '/auth'
      let server: RunningApp
      let scratch: ScratchPostgresSchema
      let db: pg.Pool

      beforeAll(async () => {
        scratch = await createScratchPostgresSchema()
        const kysely = new Kysely<unknown>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 1 }) }),
        })
        await migrate(kysely)
        // The user the fixture's credentials provider returns must exist: database sessions point at a user row.
        await KyselyAdapter(kysely).createUser({
          id: aliceId,
          name: 'Alice Credentials',
          email: 'alice@fixture.test',
          emailVerified: null,
        })
        await kysely.destroy()
        db = new pg.Pool({ connectionString: scratch.url, max: 2 })
        await provider()
        const origin = `http://127.0.0.1:${ports.database!}`
        server = await serve(ports.database!, {
          SESSION_STRATEGY: 'database',
          DATABASE_URL: scratch.url,
          AUTH_URL: origin,
          AUTH_PREFIX: prefix,
        })
      })
      afterAll(async () => {
        await server?.stop()
        await db?.end()
        await scratch?.drop()
      })

      async function sessionRow(token: string): Promise<{ userId: string } | undefined> {
        const result = await db.query<{ userId: string }>('select "userId" from "Session" where "sessionToken" = $1', [
          token,
        ])
        return result.rows[0]
      }

      it('credentials sign-in under /auth stores a session row; getSession reads it; sign-out deletes it', async () => {
        const jar = new CookieJar()
        const response = await signInWithCredentials(server, prefix, jar)
        expect(response.status).toBe(302)
        const token = jar.cookies.get(sessionCookie) ?? ''
        // A database session: the cookie holds an opaque token, not a JWE.
        expect(token).toMatch(/^[^.]{16,}$/)
        expect((await sessionRow(token))?.userId).toBe(aliceId)
        expect(await (await browse(`${server.origin}/protected`, jar)).text()).toContain(
          'Protected page for Alice Credentials',
        )
        const out = await signOut(server, prefix, jar)
        expect(out.status).toBe(302)
        expect(await sessionRow(token)).toBeUndefined()
        expect((await browse(`${server.origin}/protected`, jar)).status).toBe(302)
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
            await loginAtProvider(page, await provider(), server, prefix)
            await callback
            await expect
              .poll(() => page.locator('#user').textContent())
              .toBe('Protected page for Alice Liddell (alice@example.test)')
            const token = (await ctx.cookies()).find((cookie) => cookie.name === sessionCookie)?.value ?? ''
            const row = await sessionRow(token)
            expect(row).toBeDefined()
            const account = await db.query('select "provider" from "Account" where "userId" = $1', [row!.userId])
            expect(account.rows).toEqual([{ provider: 'oidc' }])
          } finally {
            await ctx.close()
          }
        },
      )
    })
  })
}
