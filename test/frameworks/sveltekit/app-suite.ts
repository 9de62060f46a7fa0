/**
 * The checks every SvelteKit fixture app passes, whatever its SvelteKit major: Authchart installed from the packed
 * tarball, the app built by `vite build` and served by `node build`, driven over HTTP and in headless Chromium,
 * against a real OpenID Provider (`oidc-provider`) and, for database sessions, a real PostgreSQL.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectSamplesToCompile, type SamplesProject } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { describeWithService, probePostgres } from '../../support/services.js'
import {
  chromiumArgs,
  chromiumPath,
  describeDatabaseConformance,
  describeJwtConformance,
  describeTrustHostConformance,
  hasChromium,
  loginAtProvider,
  sessionCookie,
  type BindingAdapter,
} from '../support/binding-conformance.js'
import {
  browse,
  buildFixture,
  clientHeaders,
  freePort,
  packAuthchart,
  startApp,
  typecheckFixture,
  type BuiltApp,
  type NodeChoice,
  type RunningApp,
} from './kit-app.js'

const secret = 'sveltekit-fixture-secret-0123456789abcdef'
/** The origin the fixture's svelte.config.js trusts for forms (`csrf.trustedOrigins`). */
const trustedPartner = 'http://trusted-partner.test'

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

/** How the conformance cases drive this app: the `signIn` / `signOut` form actions on `/signin` and `/signout`. */
const adapter: Omit<BindingAdapter, 'app'> = {
  authPrefix: '/auth',
  protectedPath: '/protected',
  signedOutRedirect: { status: 303, location: '/auth/signin?callbackUrl=%2Fprotected' },
  postSignIn: (app, jar, headers, password = 'wonderland') =>
    browse(`${app.origin}/signin`, jar, {
      form: { providerId: 'credentials', username: 'alice', password, redirectTo: '/protected' },
      headers,
    }),
  signedIn: { status: 303, location: (origin) => `${origin}/protected` },
  refusedStatus: 303,
  postSignOut: (app, jar, headers) => browse(`${app.origin}/signout`, jar, { form: { redirectTo: '/' }, headers }),
  signedOut: { status: 303, location: (origin) => `${origin}/` },
  devicesPath: '/devices',
  // svelte.config.js trusts it for forms (`csrf.trustedOrigins`): the binding's own checks must still refuse it.
  lenientOrigins: [trustedPartner],
}

/** Opens a page of the app and waits until it is hydrated (the fixture's root layout marks it). */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
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

    describeJwtConformance({ ...adapter, app: () => app }, async () => (await provider()).issuer)

    it.runIf(hasChromium)(
      'in Chromium: OIDC sign-in with the SignIn component, the protected page, sign-out with SignOut',
      async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await gotoHydrated(page, `${app.origin}/`)
          expect(await page.locator('#status').textContent()).toBe('Not signed in')
          await page.getByRole('button', { name: 'Sign in with oidc' }).click()
          await loginAtProvider(page, (await provider()).issuer, app, '/auth')
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

    it.runIf(hasChromium)(
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
    describeTrustHostConformance(adapter, async (env) => serve(await freePort(), env))
  })

  await describeWithService('postgres', probePostgres, () => {
    describe('database sessions on PostgreSQL (KyselyAdapter, AUTH_URL set)', () => {
      let app: RunningApp
      const { database } = describeDatabaseConformance(
        { ...adapter, app: () => app },
        {
          async beforeAll({ url }) {
            await provider()
            app = await serve(ports.database!, {
              SESSION_STRATEGY: 'database',
              DATABASE_URL: url,
              AUTH_URL: `http://127.0.0.1:${ports.database!}`,
              AUTH_TRUST_HOST: 'true',
            })
          },
        },
      )
      afterAll(async () => {
        await app?.stop()
      })

      it.runIf(hasChromium)('in Chromium: OIDC sign-in creates the user, the account and a session row', async () => {
        const ctx = await context()
        try {
          const page = await ctx.newPage()
          await gotoHydrated(page, `${app.origin}/signin`)
          await page.getByRole('button', { name: 'Sign in with oidc' }).click()
          await loginAtProvider(page, (await provider()).issuer, app, '/auth')
          expect(await page.locator('#user').textContent()).toBe(
            'Protected page for Alice Liddell (alice@example.test)',
          )
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
      })
    })
  })
}
