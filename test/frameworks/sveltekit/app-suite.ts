/**
 * The checks every SvelteKit fixture app passes, whatever its SvelteKit major: Authchart installed from the packed
 * tarball, the app built by `vite build` and served by `node build`, driven over HTTP and in headless Chromium,
 * against a real OpenID Provider (`oidc-provider`) and, for database sessions, a real PostgreSQL.
 */
import { existsSync } from 'node:fs'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { KyselyAdapter, migrate } from '../../../adapters/sql/index.js'
import { expectSamplesToCompile, type SamplesProject } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../../support/services.js'
import {
  browse,
  buildFixture,
  clientHeaders,
  CookieJar,
  freePort,
  packAuthchart,
  startApp,
  typecheckFixture,
  type BuiltApp,
  type NodeChoice,
  type RunningApp,
} from './kit-app.js'

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
const secret = 'sveltekit-fixture-secret-0123456789abcdef'
const sessionCookie = 'authjs.session-token'
/** The origin the fixture's svelte.config.js trusts for forms (`csrf.trustedOrigins`). */
const trustedPartner = 'http://trusted-partner.test'
/** The id of the user the fixture's credentials provider returns (a UUID: the SQL schema's ids are). */
const aliceId = '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10'

export interface SuiteOptions {
  /** Directory name under test/frameworks/sveltekit. */
  fixture: string
  /** The Node that builds and serves the app; default the one running the tests. */
  node?: NodeChoice
  /** The Node major the app must be served by (checked, so a fixture cannot fall back to another Node unnoticed). */
  nodeMajor?: number
  /** The guide's samples, to type-check in this app (only in the major they are written for). */
  docSamples?: SamplesProject
}

/** One shared build per test file: packing, installing and building take most of the time. */
function sharedBuild(options: SuiteOptions): () => Promise<BuiltApp> {
  let built: Promise<BuiltApp> | undefined
  return () =>
    (built ??= Promise.resolve().then(async () => buildFixture(options.fixture, await packAuthchart(), options.node)))
}

async function signInWithCredentials(app: RunningApp, jar: CookieJar, password = 'wonderland'): Promise<Response> {
  return browse(`${app.origin}/signin`, jar, {
    form: { providerId: 'credentials', username: 'alice', password, redirectTo: '/protected' },
    headers: { origin: app.origin },
  })
}

/** Walks the OP's login form in the browser as `alice` and waits for the app to have taken the callback. */
/** Opens a page of the app and waits until it is hydrated (the fixture's root layout marks it). */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

async function loginAtProvider(page: Page, op: RunningOidcProvider, app: RunningApp): Promise<void> {
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
  await page.waitForURL((url) => url.origin === app.origin && !url.pathname.startsWith('/auth/callback'))
}

export async function defineSvelteKitSuite(options: SuiteOptions): Promise<void> {
  // Packing, installing and building the app happen once, in the first beforeAll.
  vi.setConfig({ hookTimeout: 300_000, testTimeout: 60_000 })
  const built = sharedBuild(options)
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
          client_id: 'sveltekit-app',
          client_secret: 'sveltekit-app-secret',
          redirect_uris: [
            `http://127.0.0.1:${ports.jwt}/auth/callback/oidc`,
            `http://127.0.0.1:${ports.database}/auth/callback/oidc`,
          ],
        },
      ],
    })
    return op
  }

  async function serve(port: number, env: Record<string, string>): Promise<RunningApp> {
    const app = await startApp(await built(), port, {
      NODE_ENV: 'production',
      AUTH_SECRET: secret,
      AUTH_OIDC_ISSUER: (await provider()).issuer,
      AUTH_OIDC_ID: 'sveltekit-app',
      AUTH_OIDC_SECRET: 'sveltekit-app-secret',
      ...env,
    })
    running.push(app)
    if (options.nodeMajor !== undefined) expect(app.version).toMatch(new RegExp(`^v${options.nodeMajor}\\.`))
    return app
  }

  async function context(): Promise<BrowserContext> {
    browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    return browser.newContext({ extraHTTPHeaders: { ...clientHeaders } })
  }

  beforeAll(async () => {
    await built()
  })

  afterAll(async () => {
    await browser?.close()
    for (const app of running) await app.stop()
    await op?.close()
    // A build that failed has removed its directory already.
    const app = await built().catch(() => undefined)
    app?.remove()
  })

  it("the published declarations fit this SvelteKit major's own types (types-check/check.ts, with @ts-expect-error guards against `any`)", async () => {
    const result = typecheckFixture(await built())
    expect(result.output).toBe('')
    expect(result.status).toBe(0)
  })

  const samples = options.docSamples
  if (samples) {
    const checkers = samples.svelte ? 'tsc and svelte-check' : 'tsc'
    it(`every sample of ${samples.page} type-checks in this app (svelte-kit sync, then ${checkers})`, async () => {
      expectSamplesToCompile(samples, (await built()).dir)
    })
  }

  describe('JWT sessions (production build, AUTH_TRUST_HOST=true, no AUTH_URL)', () => {
    let app: RunningApp
    beforeAll(async () => {
      await provider()
      app = await serve(ports.jwt!, { AUTH_TRUST_HOST: 'true' })
    })

    it('redirects a signed-out visitor of a protected page to the sign-in page', async () => {
      const response = await browse(`${app.origin}/protected`, new CookieJar())
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprotected')
      const home = await (await browse(`${app.origin}/`, new CookieJar())).text()
      expect(home).toContain('Not signed in')
    })

    it('signs in with credentials through the signIn form action; locals.auth() in a server load sees the user', async () => {
      const jar = new CookieJar()
      const response = await signInWithCredentials(app, jar)
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toBe(`${app.origin}/protected`)
      // A JWT session: the cookie is an encrypted token (JWE compact form, five parts).
      expect(jar.cookies.get(sessionCookie)?.split('.')).toHaveLength(5)
      const page = await browse(`${app.origin}/protected`, jar)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Protected page for Alice Credentials (alice@fixture.test)')
      expect(await (await browse(`${app.origin}/`, jar)).text()).toContain('Signed in as Alice Credentials')
    })

    it('session management through the binding: a route lists the user’s devices and ends the others', async () => {
      const [here, elsewhere] = [new CookieJar(), new CookieJar()]
      await signInWithCredentials(app, elsewhere)
      await signInWithCredentials(app, here)
      const listed = (await (await browse(`${app.origin}/devices`, here)).json()) as Array<{ current: boolean }>
      expect(listed.length).toBeGreaterThanOrEqual(2)
      expect(listed.filter((session) => session.current)).toHaveLength(1)
      expect(listed[0]?.current).toBe(true)
      const ended = (await (
        await browse(`${app.origin}/devices`, here, { method: 'POST', headers: { origin: app.origin } })
      ).json()) as {
        ended: number
      }
      expect(ended.ended).toBe(listed.length - 1)
      expect(await (await browse(`${app.origin}/auth/session`, elsewhere)).json()).toBeNull()
      expect(await (await browse(`${app.origin}/devices`, here)).json()).toHaveLength(1)
      expect(await (await browse(`${app.origin}/devices`, new CookieJar())).json()).toBeNull()
    })

    it('a wrong password signs nobody in and lands on the sign-in page with the error', async () => {
      const jar = new CookieJar()
      const response = await signInWithCredentials(app, jar, 'not-the-password')
      expect(response.status).toBe(303)
      const location = new URL(response.headers.get('location') ?? '', app.origin)
      expect(location.pathname).toBe('/auth/signin')
      expect(location.searchParams.get('error')).toBe('CredentialsSignin')
      expect(jar.cookies.has(sessionCookie)).toBe(false)
    })

    it('signs out through the signOut form action', async () => {
      const jar = new CookieJar()
      await signInWithCredentials(app, jar)
      expect(jar.cookies.has(sessionCookie)).toBe(true)
      const response = await browse(`${app.origin}/signout`, jar, {
        form: { redirectTo: '/' },
        headers: { origin: app.origin },
      })
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toBe(`${app.origin}/`)
      expect(jar.cookies.has(sessionCookie)).toBe(false)
      expect((await browse(`${app.origin}/protected`, jar)).status).toBe(303)
    })

    it('refuses a cross-site POST to the signIn action: SvelteKit for a foreign origin, the action itself for one SvelteKit trusts', async () => {
      for (const origin of ['http://evil.test', trustedPartner]) {
        const jar = new CookieJar()
        const response = await browse(`${app.origin}/signin`, jar, {
          form: { providerId: 'credentials', username: 'alice', password: 'wonderland' },
          headers: { origin },
        })
        expect(response.status, origin).toBe(403)
        expect(response.headers.getSetCookie().join('\n'), origin).not.toContain(sessionCookie)
      }
      // Without Origin, only Fetch Metadata could vouch for the post; cross-site says it is not.
      const bare = await fetch(`${app.origin}/signout`, {
        method: 'POST',
        headers: {
          ...clientHeaders,
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'cross-site',
        },
        body: '',
        redirect: 'manual',
      })
      expect(bare.status).toBe(403)
    })

    it('refuses a cross-site POST to /auth/*: no session without the double-submitted CSRF token', async () => {
      const form = { username: 'alice', password: 'wonderland', callbackUrl: '/protected' }
      const foreign = await browse(`${app.origin}/auth/callback/credentials`, new CookieJar(), {
        form,
        headers: { origin: 'http://evil.test' },
      })
      expect(foreign.status).toBe(403)
      expect(foreign.headers.getSetCookie().join('\n')).not.toContain(sessionCookie)
      // An origin SvelteKit lets through (and a same-origin post without a token) still meets Auth()'s CSRF check.
      for (const origin of [trustedPartner, app.origin]) {
        const response = await browse(`${app.origin}/auth/callback/credentials`, new CookieJar(), {
          form,
          headers: { origin },
        })
        expect(response.headers.getSetCookie().join('\n'), origin).not.toContain(sessionCookie)
        expect(response.status, origin).toBe(302)
        // MissingCSRF reaches the client as the generic `Signin` error.
        expect(new URL(response.headers.get('location') ?? '', app.origin).searchParams.get('error'), origin).toBe(
          'Signin',
        )
      }
    })

    it.runIf(existsSync(chromiumPath) || process.env.CI === 'true')(
      'in Chromium: OIDC sign-in with the SignIn component, the protected page, sign-out with SignOut',
      async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await gotoHydrated(page, `${app.origin}/`)
          expect(await page.locator('#status').textContent()).toBe('Not signed in')
          await page.getByRole('button', { name: 'Sign in with oidc' }).click()
          await loginAtProvider(page, await provider(), app)
          expect(new URL(page.url()).pathname).toBe('/protected')
          expect(await page.locator('#user').textContent()).toBe(
            'Protected page for Alice Liddell (alice@example.test)',
          )
          await gotoHydrated(page, `${app.origin}/`)
          expect(await page.locator('#status').textContent()).toContain('Signed in as Alice Liddell')
          const signOutPost = page.waitForRequest(
            (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/signout',
          )
          await page.getByRole('button', { name: 'Sign out' }).click()
          // The component carried a CSRF token it fetched from /auth/csrf.
          expect(new URLSearchParams((await signOutPost).postData() ?? '').get('csrfToken')).toMatch(/^[0-9a-f]{32,}$/)
          await page.waitForURL(`${app.origin}/`)
          await expect.poll(() => page.locator('#status').textContent()).toBe('Not signed in')
          expect((await ctx.cookies()).some((cookie) => cookie.name === sessionCookie)).toBe(false)
        } finally {
          await ctx.close()
        }
      },
    )

    it.runIf(existsSync(chromiumPath) || process.env.CI === 'true')(
      'in Chromium: credentials through the SignIn component, and the client signIn / signOut',
      async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await gotoHydrated(page, `${app.origin}/signin`)
          const form = page.locator('form', { has: page.locator('input[name="username"]') })
          await form.locator('input[name="username"]').fill('alice')
          await form.locator('input[name="password"]').fill('wonderland')
          const post = page.waitForRequest(
            (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/signin',
          )
          await form.getByRole('button').click()
          expect(new URLSearchParams((await post).postData() ?? '').get('csrfToken')).toMatch(/^[0-9a-f]{32,}$/)
          await page.waitForURL(`${app.origin}/protected`)
          expect(await page.locator('#user').textContent()).toBe(
            'Protected page for Alice Credentials (alice@fixture.test)',
          )
          await ctx.clearCookies()

          await gotoHydrated(page, `${app.origin}/client`)
          await page.locator('#client-wrong').click()
          await expect.poll(() => page.locator('#result').textContent()).toBe('error=CredentialsSignin ok=false')
          expect((await ctx.cookies()).some((cookie) => cookie.name === sessionCookie)).toBe(false)
          await page.locator('#client-signin').click()
          await page.waitForURL(`${app.origin}/protected`)
          expect(await page.locator('#user').textContent()).toContain('Alice Credentials')
          await gotoHydrated(page, `${app.origin}/client`)
          await page.locator('#client-signout').click()
          await page.waitForURL(`${app.origin}/`)
          await expect.poll(() => page.locator('#status').textContent()).toBe('Not signed in')
        } finally {
          await ctx.close()
        }
      },
    )
  })

  describe('AUTH_TRUST_HOST=false in a production build', () => {
    it('is honoured: without AUTH_URL the host is not trusted, and the error carries no stack', async () => {
      const app = await serve(await freePort(), { AUTH_TRUST_HOST: 'false' })
      const response = await browse(`${app.origin}/auth/session`, new CookieJar())
      expect(response.status).toBeGreaterThanOrEqual(400)
      const body = await response.text()
      expect(body).not.toMatch(/\n\s+at /)
      const jar = new CookieJar()
      const signIn = await signInWithCredentials(app, jar)
      expect(jar.cookies.has(sessionCookie)).toBe(false)
      expect(signIn.status).toBeGreaterThanOrEqual(400)
      expect(app.output()).toContain('UntrustedHost')
    })
  })

  await describeWithService('postgres', probePostgres, () => {
    describe('database sessions on PostgreSQL (KyselyAdapter, AUTH_URL set)', () => {
      let app: RunningApp
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
        app = await serve(ports.database!, {
          SESSION_STRATEGY: 'database',
          DATABASE_URL: scratch.url,
          AUTH_URL: origin,
          AUTH_TRUST_HOST: 'true',
        })
      })
      afterAll(async () => {
        await app?.stop()
        await db?.end()
        await scratch?.drop()
      })

      async function sessionRow(token: string): Promise<{ userId: string } | undefined> {
        const result = await db.query<{ userId: string }>('select "userId" from "Session" where "sessionToken" = $1', [
          token,
        ])
        return result.rows[0]
      }

      it('credentials sign-in through the form action stores a session row; locals.auth() reads it; sign-out deletes it', async () => {
        const jar = new CookieJar()
        const response = await signInWithCredentials(app, jar)
        expect(response.status).toBe(303)
        const token = jar.cookies.get(sessionCookie) ?? ''
        // A database session: the cookie holds an opaque token, not a JWE.
        expect(token).toMatch(/^[^.]{16,}$/)
        expect((await sessionRow(token))?.userId).toBe(aliceId)
        expect(await (await browse(`${app.origin}/protected`, jar)).text()).toContain(
          'Protected page for Alice Credentials',
        )
        const out = await browse(`${app.origin}/signout`, jar, {
          form: { redirectTo: '/' },
          headers: { origin: app.origin },
        })
        expect(out.status).toBe(303)
        expect(await sessionRow(token)).toBeUndefined()
        expect((await browse(`${app.origin}/protected`, jar)).status).toBe(303)
      })

      it.runIf(existsSync(chromiumPath) || process.env.CI === 'true')(
        'in Chromium: OIDC sign-in creates the user, the account and a session row',
        async () => {
          const ctx = await context()
          try {
            const page = await ctx.newPage()
            await gotoHydrated(page, `${app.origin}/signin`)
            await page.getByRole('button', { name: 'Sign in with oidc' }).click()
            await loginAtProvider(page, await provider(), app)
            expect(await page.locator('#user').textContent()).toBe(
              'Protected page for Alice Liddell (alice@example.test)',
            )
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
