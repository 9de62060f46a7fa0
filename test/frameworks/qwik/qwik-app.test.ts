/**
 * authchart/qwik in a real Qwik City 1.x app (test/frameworks/qwik/fixture-qwik1): Authchart packed with `npm pack`
 * and installed into a copy of the fixture, the app built by Vite (client build, then the Node server adapter's
 * build) and served by `node server/entry.node-server.js`, driven over HTTP and in headless Chromium against a real
 * OpenID Provider (`oidc-provider`) and, for database sessions, a real PostgreSQL.
 *
 * The fixture turns Qwik City's own `checkOrigin` off, so every cross-site refusal seen here is the binding's. The
 * guide's samples (docs/frameworks/qwik.md) are type-checked in the installed app too.
 */
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { messages } from '../../../src/frameworks/qwik/input.js'
import { qwikSamples } from '../../docs/framework-sample-projects.js'
import { expectSamplesToCompile } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { describeWithService, probePostgres } from '../../support/services.js'
import {
  chromiumArgs,
  chromiumPath,
  describeDatabaseConformance,
  describeJwtConformance,
  describeTrustHostConformance,
  hasChromium as withChromium,
  loginAtProvider as loginAt,
  sessionCookie,
  type BindingAdapter,
  type FixtureServer,
} from '../support/binding-conformance.js'
import {
  browse,
  CookieJar,
  freePort,
  installFixture,
  packAuthchart,
  removePackedAuthchart,
  run,
  startNodeServer,
  type RunningServer,
} from '../support/fixture-app.js'

vi.setConfig({ hookTimeout: 300_000, testTimeout: 60_000 })

const secret = 'qwik-fixture-secret-0123456789abcdefgh'
/** The actions' ids: Qwik City prefixes the `id` option given to globalActionQrl with `id_`. */
const signInAction = 'id_authchart-signin'
const signOutAction = 'id_authchart-signout'
const crossSite = 'Cross-site sign-in and sign-out requests are refused'

interface Built {
  dir: string
  remove(): void
}
let built: Promise<Built> | undefined

/** Installs and builds the fixture once for the file: client build, then the Node server build. */
function build(): Promise<Built> {
  built ??= (async () => {
    const app = installFixture(
      resolve(import.meta.dirname, 'fixture-qwik1'),
      await packAuthchart(),
      /[/\\](node_modules|dist|server|tmp)$/,
    )
    try {
      const vite = join(app.dir, 'node_modules/vite/bin/vite.js')
      const env = { ...process.env, NODE_ENV: 'production' }
      run(process.execPath, [vite, 'build'], app.dir, env)
      run(process.execPath, [vite, 'build', '-c', 'adapters/node-server/vite.config.js'], app.dir, env)
      return app
    } catch (error) {
      app.remove()
      throw error
    }
  })()
  return built
}

const ports: { jwt?: number; database?: number } = {}
let op: RunningOidcProvider | undefined
let browser: Browser | undefined
const running: RunningServer[] = []

async function provider(): Promise<RunningOidcProvider> {
  if (op) return op
  ports.jwt = await freePort()
  ports.database = await freePort()
  op = await startOidcProvider({
    clients: [
      {
        client_id: 'qwik-app',
        client_secret: 'qwik-app-secret',
        redirect_uris: [
          `http://127.0.0.1:${ports.jwt}/auth/callback/oidc`,
          `http://127.0.0.1:${ports.database}/auth/callback/oidc`,
        ],
      },
    ],
  })
  return op
}

async function serve(port: number, env: Record<string, string>): Promise<RunningServer> {
  const app = await build()
  const origin = `http://127.0.0.1:${port}`
  const server = await startNodeServer(process.execPath, ['server/entry.node-server.js'], app.dir, port, {
    HOST: '127.0.0.1',
    PORT: String(port),
    ORIGIN: origin,
    NODE_ENV: 'production',
    AUTH_SECRET: secret,
    AUTH_OIDC_ISSUER: (await provider()).issuer,
    AUTH_OIDC_ID: 'qwik-app',
    AUTH_OIDC_SECRET: 'qwik-app-secret',
    ...env,
  })
  running.push(server)
  return server
}

async function context(): Promise<BrowserContext> {
  browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  return browser.newContext()
}

beforeAll(async () => {
  await build()
})

afterAll(async () => {
  await browser?.close()
  for (const server of running) await server.stop()
  await op?.close()
  const app = await built?.catch(() => undefined)
  app?.remove()
  await removePackedAuthchart()
})

/** Posts a form to one of the binding's actions on `page`, as a browser without JavaScript would. */
function postAction(
  app: RunningServer,
  jar: CookieJar,
  page: string,
  action: string,
  form: Record<string, string>,
  origin = app.origin,
): Promise<Response> {
  return browse(`${app.origin}${page}?qaction=${action}`, jar, { form, headers: { origin } })
}

function signInWithCredentials(app: RunningServer, jar: CookieJar, password = 'wonderland'): Promise<Response> {
  return postAction(app, jar, '/signin/', signInAction, {
    providerId: 'credentials',
    username: 'alice',
    password,
    redirectTo: '/protected/',
  })
}

/** The action's result as the fixture's sign-in page prints it (`<pre id="result">`, HTML-escaped JSON). */
async function printedResult(response: Response): Promise<unknown> {
  const html = await response.text()
  const match = /<pre id="result">([^<]*)<\/pre>/.exec(html)
  if (!match?.[1]) throw new Error(`no action result on the page:\n${html.slice(0, 500)}`)
  const json = match[1]
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
  return JSON.parse(json)
}

/** Walks the OP's login form in the browser as `alice`. */
async function loginAtProvider(page: Page, app: FixtureServer): Promise<void> {
  await loginAt(page, (await provider()).issuer, app, '/auth')
}

/** How the conformance cases drive this app: the useSignIn / useSignOut actions posted without JavaScript. */
const adapter: Omit<BindingAdapter, 'app'> = {
  authPrefix: '/auth',
  protectedPath: '/protected/',
  signedOutRedirect: { status: 303, location: '/auth/signin?callbackUrl=%2Fprotected%2F' },
  postSignIn: (app, jar, headers, password = 'wonderland') =>
    browse(`${app.origin}/signin/?qaction=${signInAction}`, jar, {
      form: { providerId: 'credentials', username: 'alice', password, redirectTo: '/protected/' },
      headers,
    }),
  signedIn: { status: 303, location: () => '/protected/' },
  refusedStatus: 303,
  postSignOut: (app, jar, headers) =>
    browse(`${app.origin}/?qaction=${signOutAction}`, jar, { form: { redirectTo: '/' }, headers }),
  signedOut: { status: 303, location: () => '/' },
}

it(`every TypeScript sample of ${qwikSamples.page} compiles in this app (tsc)`, async () => {
  expectSamplesToCompile(qwikSamples, (await build()).dir)
})

describe('JWT sessions (production build, AUTH_TRUST_HOST=true)', () => {
  let app: RunningServer
  beforeAll(async () => {
    await provider()
    app = await serve(ports.jwt!, { AUTH_TRUST_HOST: 'true' })
  })

  describeJwtConformance({ ...adapter, app: () => app }, async () => (await provider()).issuer)

  it("an Auth.js Qwik form's options.username / options.password fields sign in (posted without JavaScript)", async () => {
    const jar = new CookieJar()
    const response = await postAction(app, jar, '/signin/', signInAction, {
      providerId: 'credentials',
      'options.username': 'alice',
      'options.password': 'wonderland',
      'options.redirectTo': '/protected/',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/protected/')
    expect(await (await browse(`${app.origin}/protected/`, jar)).text()).toContain(
      'Protected page for Alice Credentials (alice@fixture.test)',
    )
  })

  it('missing or malformed providerId / redirectTo / options / authorizationParams come back as fieldErrors, with no session', async () => {
    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [{ redirectTo: '/protected/' }, { providerId: [messages.providerRequired] }],
      [{ providerId: 'github' }, { providerId: [messages.providerUnknown] }],
      [
        { providerId: 'credentials', username: 'alice', password: 'wonderland', redirectTo: '//evil.test/' },
        { redirectTo: [messages.redirectOffSite] },
      ],
      [
        {
          providerId: 'credentials',
          username: 'alice',
          password: 'wonderland',
          'options.redirectTo': 'https://evil.test/',
        },
        { options: [messages.optionsRedirect] },
      ],
      [
        { providerId: 'oidc', 'authorizationParams.nested.deep': 'x' },
        { authorizationParams: [messages.authorizationParams] },
      ],
    ]
    for (const [form, fieldErrors] of cases) {
      const jar = new CookieJar()
      const response = await postAction(app, jar, '/signin/', signInAction, form)
      expect(response.status, JSON.stringify(form)).toBe(400)
      expect(await printedResult(response), JSON.stringify(form)).toEqual({ failed: true, fieldErrors, formErrors: [] })
      expect(jar.cookies.has(sessionCookie)).toBe(false)
    }
  })

  it('a malformed redirectTo of useSignOut is a fieldError and the session stays', async () => {
    const jar = new CookieJar()
    await signInWithCredentials(app, jar)
    const response = await postAction(app, jar, '/signin/', signOutAction, { redirectTo: 'https://evil.test/' })
    expect(response.status).toBe(400)
    expect(jar.cookies.has(sessionCookie)).toBe(true)
    expect((await browse(`${app.origin}/protected/`, jar)).status).toBe(200)
  })

  it('a cross-site post to an action is refused with formErrors naming why (the refusal itself: conformance)', async () => {
    const jar = new CookieJar()
    const foreign = await postAction(
      app,
      jar,
      '/signin/',
      signInAction,
      { providerId: 'credentials', username: 'alice', password: 'wonderland' },
      'http://evil.test',
    )
    expect(foreign.status).toBe(403)
    expect(await printedResult(foreign)).toEqual({ failed: true, fieldErrors: {}, formErrors: [crossSite] })
    expect(jar.cookies.has(sessionCookie)).toBe(false)
  })

  it.runIf(withChromium)(
    'in Chromium: OIDC sign-in through useSignIn (a <Form> on the home page), the protected page, useSignOut',
    async () => {
      const ctx = await context()
      try {
        const page = await ctx.newPage()
        await page.goto(`${app.origin}/`)
        expect(await page.locator('#status').textContent()).toBe('Not signed in')
        await page.getByRole('button', { name: 'Sign in with oidc' }).click()
        await loginAtProvider(page, app)
        expect(new URL(page.url()).pathname).toBe('/protected/')
        expect(await page.locator('#user').textContent()).toBe('Protected page for Alice Liddell (alice@example.test)')
        await page.goto(`${app.origin}/`)
        expect(await page.locator('#status').textContent()).toBe('Signed in as Alice Liddell')
        await page.getByRole('button', { name: 'Sign out' }).click()
        await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('Not signed in')
        expect((await ctx.cookies()).some((cookie) => cookie.name === sessionCookie)).toBe(false)
      } finally {
        await ctx.close()
      }
    },
  )

  it.runIf(withChromium)(
    "in Chromium: credentials through useSignIn submitted by Qwik City's client, and validation errors in action.value",
    async () => {
      const ctx = await context()
      try {
        const page = await ctx.newPage()
        await page.goto(`${app.origin}/signin/`)
        await page.locator('#bad-provider').click()
        await expect
          .poll(async () => JSON.parse((await page.locator('#result').textContent()) || 'null') as unknown, {
            timeout: 15_000,
          })
          .toEqual({
            failed: true,
            fieldErrors: { providerId: [messages.providerUnknown], redirectTo: [messages.redirectOffSite] },
            formErrors: [],
          })
        await page.locator('input[name="username"]').fill('alice')
        await page.locator('input[name="password"]').fill('wonderland')
        await page.getByRole('button', { name: 'Sign in with credentials' }).click()
        await page.waitForURL(`${app.origin}/protected/`)
        await expect
          .poll(() => page.locator('#user').textContent())
          .toBe('Protected page for Alice Credentials (alice@fixture.test)')
      } finally {
        await ctx.close()
      }
    },
  )

  it.runIf(withChromium)(
    "in Chromium: the Auth.js Qwik form (options.username / options.password) signs in through Qwik City's client",
    async () => {
      const ctx = await context()
      try {
        const page = await ctx.newPage()
        await page.goto(`${app.origin}/signin/`)
        await page.locator('input[name="options.username"]').fill('alice')
        await page.locator('input[name="options.password"]').fill('wonderland')
        await page.getByRole('button', { name: 'Sign in with options fields' }).click()
        await page.waitForURL(`${app.origin}/protected/`)
        await expect
          .poll(() => page.locator('#user').textContent())
          .toBe('Protected page for Alice Credentials (alice@fixture.test)')
      } finally {
        await ctx.close()
      }
    },
  )
})

await describeWithService('postgres', probePostgres, () => {
  describe('database sessions on PostgreSQL (KyselyAdapter, AUTH_URL set)', () => {
    let app: RunningServer
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

    it.runIf(withChromium)('in Chromium: OIDC sign-in creates the user, the account and a session row', async () => {
      const ctx = await context()
      try {
        const page = await ctx.newPage()
        await page.goto(`${app.origin}/`)
        await page.getByRole('button', { name: 'Sign in with oidc' }).click()
        await loginAtProvider(page, app)
        expect(await page.locator('#user').textContent()).toBe('Protected page for Alice Liddell (alice@example.test)')
        const token = (await ctx.cookies()).find((cookie) => cookie.name === sessionCookie)?.value ?? ''
        const row = await database().sessionRow(token)
        expect(row).toBeDefined()
        const account = await database().db.query('select "provider" from "Account" where "userId" = $1', [row!.userId])
        expect(account.rows).toEqual([{ provider: 'oidc' }])
      } finally {
        await ctx.close()
      }
    })
  })
})

// After the database sessions: its server takes a port picked while the database app's port was not yet bound.
describe('AUTH_TRUST_HOST=false in a production build', () => {
  describeTrustHostConformance(adapter, async (env) => serve(await freePort(), env))
})
