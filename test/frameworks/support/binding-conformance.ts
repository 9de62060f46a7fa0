/**
 * The conformance suite every framework binding passes in its real fixture app (SvelteKit, SolidStart, Qwik,
 * Next.js): the same cases, written once, driven over HTTP against the app its own toolchain built. What differs
 * between the bindings (how the app's sign-in and sign-out are posted, which status a redirect has, where the auth
 * routes live) is the per-app `BindingAdapter`; what only one framework has (form-action details, type checks of its
 * samples, its browser components) stays in that framework's test file.
 *
 * Also here: what the fixture suites share around those cases (the headless Chromium they launch, the walk through
 * the OpenID Provider's login form, and the PostgreSQL schema holding the credentials provider's user).
 */
import { existsSync } from 'node:fs'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../../adapters/sql/index.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { createScratchPostgresSchema, type ScratchPostgresSchema } from '../../support/services.js'
import { browse, clientHeaders, CookieJar, freePort } from './fixture-app.js'
import { chromiumArgs, chromiumPath } from '../../support/chromium.js'

export { chromiumArgs, chromiumPath }

export const hasChromium = existsSync(chromiumPath) || process.env.CI === 'true'
export const sessionCookie = 'authjs.session-token'
/** The id of the user the fixtures' credentials provider returns (a UUID: the SQL schema's ids are). */
export const aliceId = '5f0c1a2e-7d1b-4c5e-9a51-3e8d2b6f4a10'
/** What the fixtures' protected page prints for the credentials user. */
const aliceOnProtectedPage = 'Protected page for Alice Credentials (alice@fixture.test)'
const foreignOrigin = 'http://evil.test'

/** A running fixture app, as the cases need it. */
export interface FixtureServer {
  origin: string
  /** What the server printed (for the log checks and failure messages). */
  output(): string
}

/** Extra headers of a post: an `origin`, or Fetch Metadata without one. */
export type PostHeaders = Record<string, string>

/** How one fixture app is driven: the only place the cases see a framework's differences. */
export interface BindingAdapter {
  /** The running app the cases run against (started by the framework's own beforeAll). */
  app(): FixtureServer
  /** Where the binding mounts Auth()'s routes (`/auth`, `/api/auth`). */
  authPrefix: string
  /** The page the app protects with the binding's server-side session read. */
  protectedPath: string
  /** What the protected page answers a visitor without a session. */
  signedOutRedirect: { status: number; location: string }
  /**
   * Posts a credentials sign-in as alice through the binding's server-side `signIn` (form action, server function,
   * route action), with `headers` added (a same-origin post sends `origin: app.origin`).
   */
  postSignIn(app: FixtureServer, jar: CookieJar, headers: PostHeaders, password?: string): Promise<Response>
  /** What a successful sign-in answers (the redirect to the protected page). */
  signedIn: { status: number; location(origin: string): string }
  /** The status of the redirect a refused sign-in (wrong password) answers. */
  refusedStatus: number
  /** Posts the binding's server-side `signOut`, with `headers` added. */
  postSignOut(app: FixtureServer, jar: CookieJar, headers: PostHeaders): Promise<Response>
  /** What a successful sign-out answers. */
  signedOut: { status: number; location?(origin: string): string }
  /** The app's route over the binding's session management (GET lists, POST ends the others); absent: none. */
  devicesPath?: string
  /** Origins the framework itself lets a form through from, which the binding must still refuse. */
  lenientOrigins?: readonly string[]
  /**
   * The status a refused cross-site post of the binding's `signIn` / `signOut` answers; default 403. Next.js answers
   * 500 (its error page, no stack): a failed Server Action has no other status there (docs/frameworks/nextjs.md).
   */
  crossSiteStatus?: number
}

function signIn(adapter: BindingAdapter, jar: CookieJar, password?: string): Promise<Response> {
  const app = adapter.app()
  return adapter.postSignIn(app, jar, { origin: app.origin }, password)
}

function sessionSet(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => line.startsWith(`${sessionCookie}=`))
}

/** A CSRF token from the app's csrf endpoint, its cookie into `jar`, as a page of the app would get it. */
export async function csrfToken(app: FixtureServer, prefix: string, jar: CookieJar): Promise<string> {
  const response = await browse(`${app.origin}${prefix}/csrf`, jar, { headers: { accept: 'application/json' } })
  if (!response.ok) return ''
  const body = (await response.json()) as { csrfToken?: string }
  return body.csrfToken ?? ''
}

/** The cases with JWT sessions (the app runs with AUTH_TRUST_HOST=true); call inside the app's describe. */
export function describeJwtConformance(adapter: BindingAdapter, issuer: () => Promise<string>): void {
  const prefix = () => adapter.authPrefix

  it('conformance: the protected page redirects a signed-out visitor; the server-side session read says nobody', async () => {
    const app = adapter.app()
    const response = await browse(`${app.origin}${adapter.protectedPath}`, new CookieJar())
    expect(response.status).toBe(adapter.signedOutRedirect.status)
    expect(response.headers.get('location')).toBe(adapter.signedOutRedirect.location)
    expect(await (await browse(`${app.origin}/`, new CookieJar())).text()).toContain('Not signed in')
  })

  it("conformance: credentials sign-in through the binding's server-side signIn sets an HttpOnly JWT session; the server-side session read sees the user", async () => {
    const app = adapter.app()
    const jar = new CookieJar()
    const response = await signIn(adapter, jar)
    expect(response.status).toBe(adapter.signedIn.status)
    expect(response.headers.get('location')).toBe(adapter.signedIn.location(app.origin))
    // A JWT session: the cookie is an encrypted token (JWE compact form, five parts), HttpOnly as the core set it.
    expect(jar.cookies.get(sessionCookie)?.split('.')).toHaveLength(5)
    expect(response.headers.getSetCookie().find((line) => line.startsWith(`${sessionCookie}=`))).toMatch(/HttpOnly/i)
    const page = await browse(`${app.origin}${adapter.protectedPath}`, jar)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(aliceOnProtectedPage)
    expect(await (await browse(`${app.origin}/`, jar)).text()).toContain('Signed in as Alice Credentials')
  })

  if (adapter.devicesPath !== undefined) {
    const devices = adapter.devicesPath
    it('conformance: session management through the binding lists the user’s devices and ends the others', async () => {
      const app = adapter.app()
      const [here, elsewhere] = [new CookieJar(), new CookieJar()]
      await signIn(adapter, elsewhere)
      await signIn(adapter, here)
      const listed = (await (await browse(`${app.origin}${devices}`, here)).json()) as Array<{ current: boolean }>
      expect(listed.length).toBeGreaterThanOrEqual(2)
      expect(listed.filter((session) => session.current)).toHaveLength(1)
      expect(listed[0]?.current).toBe(true)
      const ended = await browse(`${app.origin}${devices}`, here, { method: 'POST', headers: { origin: app.origin } })
      expect(((await ended.json()) as { ended: number }).ended).toBe(listed.length - 1)
      expect(await (await browse(`${app.origin}${prefix()}/session`, elsewhere)).json()).toBeNull()
      expect(await (await browse(`${app.origin}${devices}`, here)).json()).toHaveLength(1)
      expect(await (await browse(`${app.origin}${devices}`, new CookieJar())).json()).toBeNull()
    })
  }

  it('conformance: a wrong password signs nobody in and lands on the sign-in page with the error', async () => {
    const app = adapter.app()
    const jar = new CookieJar()
    const response = await signIn(adapter, jar, 'not-the-password')
    expect(response.status).toBe(adapter.refusedStatus)
    const location = new URL(response.headers.get('location') ?? '', app.origin)
    expect(location.pathname).toBe(`${prefix()}/signin`)
    expect(location.searchParams.get('error')).toBe('CredentialsSignin')
    expect(jar.cookies.has(sessionCookie)).toBe(false)
  })

  it("conformance: the binding's server-side signOut ends the session; the protected page redirects again", async () => {
    const app = adapter.app()
    const jar = new CookieJar()
    await signIn(adapter, jar)
    expect(jar.cookies.has(sessionCookie)).toBe(true)
    const response = await adapter.postSignOut(app, jar, { origin: app.origin })
    expect(response.status).toBe(adapter.signedOut.status)
    if (adapter.signedOut.location) {
      expect(response.headers.get('location')).toBe(adapter.signedOut.location(app.origin))
    }
    expect(jar.cookies.has(sessionCookie)).toBe(false)
    expect((await browse(`${app.origin}${adapter.protectedPath}`, jar)).status).toBe(adapter.signedOutRedirect.status)
  })

  it("conformance: the binding's signIn and signOut refuse a cross-site POST (foreign Origin, Fetch Metadata cross-site): nobody signed in or out", async () => {
    const app = adapter.app()
    const refused = async (response: Response, what: string) => {
      expect(response.status, what).toBe(adapter.crossSiteStatus ?? 403)
      expect(await response.text(), what).not.toMatch(/\n\s+at /)
    }
    // A refused sign-in sets no session. (A refused sign-out may carry the visitor's own session cookie, re-issued by
    // the session read of the app's request hook, as Qwik's does: what counts there is that the session still works.)
    const refusedSignIn = async (response: Response, what: string) => {
      expect(sessionSet(response), what).toBe(false)
      await refused(response, what)
    }
    for (const origin of [foreignOrigin, ...(adapter.lenientOrigins ?? [])]) {
      await refusedSignIn(await adapter.postSignIn(app, new CookieJar(), { origin }), origin)
    }
    // Without Origin, only Fetch Metadata could vouch for the post; cross-site says it is not.
    await refusedSignIn(
      await adapter.postSignIn(app, new CookieJar(), { 'sec-fetch-site': 'cross-site' }),
      'cross-site',
    )
    // A signed-in visitor cannot be signed out by another site either.
    const jar = new CookieJar()
    await signIn(adapter, jar)
    const crossSite: PostHeaders[] = [{ origin: foreignOrigin }, { 'sec-fetch-site': 'cross-site' }]
    for (const headers of crossSite) {
      await refused(await adapter.postSignOut(app, jar, headers), JSON.stringify(headers))
    }
    expect(jar.cookies.has(sessionCookie)).toBe(true)
    expect((await browse(`${app.origin}${adapter.protectedPath}`, jar)).status).toBe(200)
  })

  it(`conformance: CSRF on the auth routes: a foreign Origin is refused even with a valid token pair, a post without the double-submitted token signs nobody in, with both the same post works`, async () => {
    const app = adapter.app()
    const callback = `${app.origin}${prefix()}/callback/credentials`
    const form = { username: 'alice', password: 'wonderland', callbackUrl: `${app.origin}${adapter.protectedPath}` }
    for (const origin of [foreignOrigin, app.origin]) {
      const jar = new CookieJar()
      const token = await csrfToken(app, prefix(), jar)
      expect(token).toMatch(/^[0-9a-f]{32,}$/)
      const oidc = await browse(`${app.origin}${prefix()}/signin/oidc`, jar, {
        form: { csrfToken: token, callbackUrl: adapter.protectedPath },
        headers: { origin },
      })
      const credentials = await browse(callback, jar, { form: { ...form, csrfToken: token }, headers: { origin } })
      if (origin === app.origin) {
        expect(oidc.status).toBe(302)
        expect(new URL(oidc.headers.get('location') ?? '').origin).toBe(new URL(await issuer()).origin)
        expect(credentials.status).toBe(302)
        expect(jar.cookies.has(sessionCookie)).toBe(true)
      } else {
        expect(oidc.status).toBe(403)
        expect(oidc.headers.get('location')).toBeNull()
        expect(credentials.status).toBe(403)
        expect(sessionSet(credentials)).toBe(false)
      }
    }
    // Fetch Metadata alone, with the cookie and token a page of the app would hold, is refused too.
    const jar = new CookieJar()
    const token = await csrfToken(app, prefix(), jar)
    const bare = await fetch(`${app.origin}${prefix()}/signout`, {
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
    // Without the double-submitted token, Auth()'s own check refuses: from the app's origin and from one the
    // framework lets through. MissingCSRF reaches the client as the generic `Signin` error.
    for (const origin of [app.origin, ...(adapter.lenientOrigins ?? [])]) {
      const response = await browse(callback, new CookieJar(), { form, headers: { origin } })
      expect(sessionSet(response), origin).toBe(false)
      expect(response.status, origin).toBe(302)
      expect(new URL(response.headers.get('location') ?? '', app.origin).searchParams.get('error'), origin).toBe(
        'Signin',
      )
    }
  })
}

/**
 * AUTH_TRUST_HOST=false and no AUTH_URL in a production build: `serve` starts the app with that environment (the
 * caller stops it). Call inside a describe of its own.
 */
export function describeTrustHostConformance(
  adapter: Omit<BindingAdapter, 'app'>,
  serve: (env: Record<string, string>) => Promise<FixtureServer>,
): void {
  it('conformance: AUTH_TRUST_HOST=false without AUTH_URL is honoured: the host is not trusted, signIn sets no session, and no error carries a stack', async () => {
    const app = await serve({ AUTH_TRUST_HOST: 'false' })
    const response = await browse(`${app.origin}${adapter.authPrefix}/session`, new CookieJar())
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(await response.text()).not.toMatch(/\n\s+at /)
    const jar = new CookieJar()
    const signedIn = await adapter.postSignIn(app, jar, { origin: app.origin })
    expect(jar.cookies.has(sessionCookie)).toBe(false)
    expect(await signedIn.text()).not.toMatch(/\n\s+at /)
    // Refused as an error page, or as a redirect that names the error.
    const location = new URL(signedIn.headers.get('location') ?? '/', app.origin)
    expect(signedIn.status >= 400 || location.searchParams.has('error'), `${signedIn.status} ${location.href}`).toBe(
      true,
    )
    expect(app.output()).toContain('UntrustedHost')
  })
}

/** A fixture suite's OpenID Provider, and the loopback ports of its two apps (JWT and database sessions). */
export interface FixtureProvider {
  op: RunningOidcProvider
  ports: { jwt: number; database: number }
}

/** Picks the two apps' ports and starts the OP with `client`, which may come back to either app's `callbackPath`. */
export async function startFixtureProvider(
  client: { id: string; secret: string },
  callbackPath: string,
): Promise<FixtureProvider> {
  const ports = { jwt: await freePort(), database: await freePort() }
  const op = await startOidcProvider({
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [ports.jwt, ports.database].map((port) => `http://127.0.0.1:${port}${callbackPath}`),
      },
    ],
  })
  return { op, ports }
}

/** A scratch PostgreSQL schema with Authchart's tables and the credentials provider's user, and a pool on it. */
export interface AliceDatabase {
  url: string
  db: pg.Pool
  /** The session row of `token`, if any. */
  sessionRow(token: string): Promise<{ userId: string } | undefined>
  close(): Promise<void>
}

export async function createAliceDatabase(): Promise<AliceDatabase> {
  const scratch: ScratchPostgresSchema = await createScratchPostgresSchema()
  const kysely = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 1 }) }),
  })
  await migrate(kysely)
  // Database sessions point at a user row: the user the credentials provider returns must exist.
  await KyselyAdapter(kysely).createUser({
    id: aliceId,
    name: 'Alice Credentials',
    email: 'alice@fixture.test',
    emailVerified: null,
  })
  await kysely.destroy()
  const db = new pg.Pool({ connectionString: scratch.url, max: 2 })
  return {
    url: scratch.url,
    db,
    async sessionRow(token) {
      const result = await db.query<{ userId: string }>('select "userId" from "Session" where "sessionToken" = $1', [
        token,
      ])
      return result.rows[0]
    },
    async close() {
      await db.end()
      await scratch.drop()
    },
  }
}

/**
 * The database-sessions case: `start` serves the app on the database (the caller's `serve`, which stops it).
 * Registers its own beforeAll/afterAll; resolves the database for the framework's own cases through `database()`.
 */
export function describeDatabaseConformance(
  adapter: BindingAdapter,
  setUp: { beforeAll(database: AliceDatabase): Promise<void> },
): { database(): AliceDatabase } {
  let database: AliceDatabase | undefined
  const current = () => {
    if (!database) throw new Error('the database was not set up')
    return database
  }
  beforeAll(async () => {
    database = await createAliceDatabase()
    await setUp.beforeAll(database)
  })
  afterAll(async () => {
    await database?.close()
  })

  it("conformance: database sessions: the binding's signIn stores a session row, the server-side session read sees it, signOut deletes it", async () => {
    const app = adapter.app()
    const jar = new CookieJar()
    const response = await signIn(adapter, jar)
    expect(response.status).toBe(adapter.signedIn.status)
    const token = jar.cookies.get(sessionCookie) ?? ''
    // A database session: the cookie holds an opaque token, not a JWE.
    expect(token).toMatch(/^[^.]{16,}$/)
    expect((await current().sessionRow(token))?.userId).toBe(aliceId)
    expect(await (await browse(`${app.origin}${adapter.protectedPath}`, jar)).text()).toContain(
      'Protected page for Alice Credentials',
    )
    const out = await adapter.postSignOut(app, jar, { origin: app.origin })
    expect(out.status).toBe(adapter.signedOut.status)
    expect(await current().sessionRow(token)).toBeUndefined()
    expect((await browse(`${app.origin}${adapter.protectedPath}`, jar)).status).toBe(adapter.signedOutRedirect.status)
  })

  return { database: current }
}

/** Walks the OP's login form in the browser as `alice` and waits until the app has taken the callback. */
export async function loginAtProvider(
  page: Page,
  issuer: string,
  app: FixtureServer,
  callbackPrefix: string,
): Promise<void> {
  try {
    await page.waitForURL((url) => url.origin === new URL(issuer).origin, { timeout: 15_000 })
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
  await page.waitForURL((url) => url.origin === app.origin && !url.pathname.startsWith(`${callbackPrefix}/callback`))
}
