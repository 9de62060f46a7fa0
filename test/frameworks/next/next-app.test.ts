/**
 * authchart/next and authchart/react in a real Next.js 16 app (App Router, TypeScript). The fixture is a next-auth v5
 * app (next-auth@5.0.0-beta.32, PostgreSQL through @auth/kysely-adapter): it is built and served as written, and moved
 * to Authchart by rewriting its import specifiers only (rewrite-imports.ts) with Authchart installed from `npm pack`
 * output in place of next-auth; both are built by `next build` (kept between runs by next-app.ts) and served by
 * `next start` with one AUTH_SECRET and a real oidc-provider, each twice: with JWT sessions (credentials and OIDC),
 * and with database sessions in PostgreSQL (OIDC; the moved app on Authchart's SQL adapter). Driven over HTTP and in
 * headless Chromium, both pass the same checks, and a session cookie made by one is a session at the other. What every
 * binding passes (the session read, sign-in and sign-out, CSRF, database sessions) is the conformance suite's, run on
 * the moved app in next-conformance.test.ts; this file keeps what is Next's own.
 */
import { existsSync } from 'node:fs'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../adapters/sql/index.js'
import { nextjsSamples } from '../../docs/framework-sample-projects.js'
import { expectSamplesToCompile } from '../../docs/framework-samples.js'
import { startOidcProvider, type RunningOidcProvider } from '../../support/oidc-provider.js'
import { createScratchPostgresSchema, type ScratchPostgresSchema } from '../../support/services.js'
import {
  CookieJar,
  browse,
  freePort,
  packAuthchart,
  removePackedAuthchart,
  type RunningServer,
} from '../support/fixture-app.js'
import { buildNextApp, startNextApp, type BuiltNextApp } from './next-app.js'

const chromiumPath = '/usr/bin/chromium'
const secret = 'next-fixture-secret-0123456789abcdef0123456789'
const kinds = ['next-auth', 'authchart'] as const
type Kind = (typeof kinds)[number]
/** From the app that makes a session to the app that reads it. */
const bothWays = [
  ['next-auth', 'authchart'],
  ['authchart', 'next-auth'],
] as const
type Sessions = 'jwt' | 'database'
const client = { id: 'next-fixture', secret: 'next-fixture-client-secret' }

const servers = new Map<string, RunningServer>()
let moved: BuiltNextApp
let browser: Browser
let op: RunningOidcProvider
let scratch: ScratchPostgresSchema

/** The running app of `kind` with `sessions` (started by beforeAll). */
function serverOf(kind: Kind, sessions: Sessions = 'jwt'): RunningServer {
  const server = servers.get(`${kind}/${sessions}`)
  if (!server) throw new Error(`the ${kind} app with ${sessions} sessions is not running`)
  return server
}

beforeAll(async () => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is needed (apt-get install chromium)`)
  // One after the other: `next build` keeps both cores busy.
  const apps: BuiltNextApp[] = []
  for (const kind of kinds) {
    const app = await buildNextApp(kind === 'authchart' ? { kind, tarball: await packAuthchart() } : { kind })
    console.log(
      `[next-app] ${kind}: ${app.built ? `installed and built in ${app.seconds.toFixed(0)} s` : 'kept build'}`,
    )
    apps.push(app)
    if (app.kind === 'authchart') moved = app
  }
  // The apps' tables, made as the migration guide says (the default schema is @auth/kysely-adapter's).
  scratch = await createScratchPostgresSchema()
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url }) }) })
  await migrate(db)
  await db.destroy()
  const ports = new Map(apps.flatMap((app) => (['jwt', 'database'] as const).map((mode) => [`${app.kind}/${mode}`, 0])))
  for (const key of ports.keys()) ports.set(key, await freePort())
  // The apps are reached as `localhost`: next-auth takes its own origin (the OAuth redirect_uri, the Middleware's
  // callbackUrl) from the URL Next gives the request, which says `localhost` whatever the Host and AUTH_URL say.
  const origin = (key: string) => `http://localhost:${String(ports.get(key))}`
  op = await startOidcProvider({
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [...ports.keys()].map((key) => `${origin(key)}/api/auth/callback/oidc`),
      },
    ],
  })
  for (const app of apps) {
    for (const sessions of ['jwt', 'database'] as const) {
      const key = `${app.kind}/${sessions}`
      const env: Record<string, string> = {
        AUTH_SECRET: secret,
        AUTH_URL: origin(key),
        AUTH_OIDC_ISSUER: op.issuer,
        AUTH_OIDC_ID: client.id,
        AUTH_OIDC_SECRET: client.secret,
      }
      if (sessions === 'database') env.DATABASE_URL = scratch.url
      servers.set(key, { ...(await startNextApp(app, Number(ports.get(key)), env)), origin: origin(key) })
    }
  }
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] })
}, 1_500_000)

afterAll(async () => {
  await browser?.close()
  for (const server of servers.values()) await server.stop()
  await op?.close()
  await scratch?.drop()
  await removePackedAuthchart()
})

/** The Server Action id of the sign-in form, as Next renders it for a form without JavaScript. */
async function signInActionId(origin: string): Promise<string> {
  const html = await (await fetch(`${origin}/`)).text()
  const id = /name="\$ACTION_ID_([0-9a-f]+)"/.exec(html)?.[1]
  if (!id) throw new Error(`no Server Action id in the page:\n${html.slice(0, 2000)}`)
  return id
}

async function text(page: Page, selector: string): Promise<string> {
  return (await page.textContent(selector)) ?? ''
}

/** The home page in a new browser profile, once the React client has found no session. */
async function freshHomePage(origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(`${origin}/`)
  await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'unauthenticated')
  return page
}

/** What the app's Server Component says about the session `jar` carries. */
async function serverUser(origin: string, jar: CookieJar): Promise<string> {
  const html = await (await browse(`${origin}/`, jar)).text()
  return /<p id="server-user">([^<]*)<\/p>/.exec(html)?.[1] ?? `no server-user in:\n${html.slice(0, 2000)}`
}

/** Signs `name` in through the app's Route Handlers with credentials, as a browser form would; returns the jar. */
async function signedInOverHttp(origin: string, name: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrf = await browse(`${origin}/api/auth/csrf`, jar)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const answer = await browse(`${origin}/api/auth/callback/credentials`, jar, {
    form: { csrfToken, username: name, password: 'wonderland', callbackUrl: `${origin}/` },
    headers: { origin },
  })
  expect(answer.status).toBe(302)
  expect(jar.cookies.has('authjs.session-token')).toBe(true)
  return jar
}

describe.each(kinds)('the app on %s', (kind) => {
  describe('over HTTP', () => {
    it('the Middleware (proxy.ts) sends a visitor without a session to the sign-in page', async () => {
      const { origin } = serverOf(kind)
      const answer = await browse(`${origin}/dashboard`, new CookieJar())
      expect(answer.status).toBe(307)
      // Next.js writes a same-origin Location as a path.
      const location = new URL(answer.headers.get('location') ?? '', origin)
      expect(location.pathname).toBe('/api/auth/signin')
      expect(location.searchParams.get('callbackUrl')).toBe(`${origin}/dashboard`)
    })
  })

  describe('in Chromium', () => {
    it('signs in through a Server Action, reaches the protected page, and useSession follows', async () => {
      const { origin } = serverOf(kind)
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${origin}/`)
      await page.fill('#sign-in input[name=password]', 'wonderland')
      await page.click('#sign-in button')
      await page.waitForURL(`${origin}/dashboard`)
      expect(await text(page, '#dashboard-user')).toBe('Alice')
      await page.goto(`${origin}/`)
      expect(await text(page, '#server-user')).toBe('Alice')
      await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'authenticated')
      expect(await text(page, '#client-user')).toBe('Alice')
      await page.click('#client-update')
      await page.waitForFunction(() => document.querySelector('#client-user')?.textContent === 'Renamed')
      await page.reload()
      expect(await text(page, '#server-user')).toBe('Renamed')
      await page.click('#sign-out button')
      await page.waitForFunction(() => document.querySelector('#server-user')?.textContent === 'nobody')
      await context.close()
    }, 120_000)

    it('signs in and out through the React client, useSession updating without a reload', async () => {
      const { origin } = serverOf(kind)
      const page = await freshHomePage(origin)
      await page.click('#client-bad-sign-in')
      await page.waitForFunction(() => document.querySelector('#client-result')?.textContent?.startsWith('failed:'))
      expect(await text(page, '#client-result')).toBe('failed:CredentialsSignin')
      await page.click('#client-sign-in')
      await page.waitForFunction(() => document.querySelector('#client-user')?.textContent === 'Carol')
      expect(await text(page, '#client-status')).toBe('authenticated')
      await page.click('#client-sign-out')
      await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'unauthenticated')
      await page.goto(`${origin}/dashboard`)
      expect(new URL(page.url()).pathname).toBe('/api/auth/signin')
      await page.context().close()
    }, 120_000)
  })
})

describe('moved to Authchart', () => {
  it(`every TypeScript sample of ${nextjsSamples.page} compiles in this app (tsc, Next's and React's types)`, () => {
    expectSamplesToCompile(nextjsSamples, moved.dir)
  })

  it('refuses a sign-in Server Action posted from another site (whose Host Next.js would accept)', async () => {
    const server = serverOf('authchart')
    const id = await signInActionId(server.origin)
    const form = new FormData()
    form.set(`$ACTION_ID_${id}`, '')
    form.set('username', 'Mallory')
    form.set('password', 'wonderland')
    // Next.js compares Origin with X-Forwarded-Host (else Host), which a proxy passes on; the binding compares it
    // with AUTH_URL.
    const forged = await fetch(`${server.origin}/`, {
      method: 'POST',
      headers: { 'x-forwarded-host': 'evil.test', origin: 'http://evil.test' },
      body: form,
      redirect: 'manual',
    })
    expect(forged.headers.getSetCookie().some((line) => line.startsWith('authjs.session-token='))).toBe(false)
    expect(server.output()).toContain('refused:csrf')
  })
})

// The two apps share AUTH_SECRET and run on one host: the session cookie (same name, salt and JWE) made by either is a
// session at the other, so an app can move with its users signed in.
describe('session cookies between next-auth and Authchart', () => {
  it.each(bothWays)('over HTTP: a cookie made by the %s app is a session at the %s app', async (from, to) => {
    const jar = await signedInOverHttp(serverOf(from).origin, `Made by ${from}`)
    expect(await serverUser(serverOf(to).origin, jar)).toBe(`Made by ${from}`)
    const session = await browse(`${serverOf(to).origin}/api/auth/session`, jar)
    expect(await session.json()).toMatchObject({ user: { name: `Made by ${from}`, email: 'alice@example.test' } })
  })

  it.each(bothWays)(
    'in Chromium: signed in at the %s app, the %s app lets the browser in',
    async (from, to) => {
      // Cookies are not kept apart by port: one browser holds one authjs.session-token for localhost.
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${serverOf(from).origin}/`)
      await page.fill('#sign-in input[name=username]', `Browser at ${from}`)
      await page.fill('#sign-in input[name=password]', 'wonderland')
      await page.click('#sign-in button')
      await page.waitForURL(`${serverOf(from).origin}/dashboard`)
      await page.goto(`${serverOf(to).origin}/dashboard`)
      expect(new URL(page.url()).pathname).toBe('/dashboard')
      expect(await text(page, '#dashboard-user')).toBe(`Browser at ${from}`)
      await page.goto(`${serverOf(to).origin}/`)
      await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'authenticated')
      expect(await text(page, '#client-user')).toBe(`Browser at ${from}`)
      // Signing out at the other app ends the session at the first one too: one cookie.
      await page.click('#sign-out button')
      await page.waitForFunction(() => document.querySelector('#server-user')?.textContent === 'nobody')
      await page.goto(`${serverOf(from).origin}/dashboard`)
      expect(new URL(page.url()).pathname).toBe('/api/auth/signin')
      await context.close()
    },
    120_000,
  )
})

/** Signs in at the OP's login page, which the browser has been sent to, as `account`. */
async function logInAtOp(page: Page, account: string): Promise<void> {
  await page.waitForURL((url) => url.origin === op.issuer && url.pathname.startsWith('/interaction/'))
  await page.fill('input[name=login]', account)
  await page.press('input[name=login]', 'Enter')
}

/** The session rows in PostgreSQL, with their user's name (the apps with database sessions share the tables). */
async function sessionRows(): Promise<Array<{ name: string; sessionToken: string }>> {
  const client = new pg.Client({ connectionString: scratch.url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string; sessionToken: string }>(
      'select u.name, s."sessionToken" from "Session" s join "User" u on u.id = s."userId" order by u.name',
    )
    return rows
  } finally {
    await client.end()
  }
}

/** The session cookie the browser holds for the apps' host. */
async function sessionCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'authjs.session-token')?.value
}

describe.each(kinds)('OIDC against oidc-provider, on %s', (kind) => {
  it('with JWT sessions: signs in through the React client', async () => {
    const { origin } = serverOf(kind)
    const page = await freshHomePage(origin)
    await page.click('#client-sign-in-oidc')
    await logInAtOp(page, 'alice')
    await page.waitForURL(`${origin}/`)
    expect(await text(page, '#server-user')).toBe('Alice Liddell')
    await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'authenticated')
    expect(await text(page, '#client-user')).toBe('Alice Liddell')
    await page.context().close()
  }, 120_000)

  it('with database sessions in PostgreSQL: signs in through a Server Action, the session a row, sign-out its end', async () => {
    const { origin } = serverOf(kind, 'database')
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${origin}/`)
    await page.click('#sign-in-oidc button')
    await logInAtOp(page, 'bob')
    await page.waitForURL(`${origin}/dashboard`)
    expect(await text(page, '#dashboard-user')).toBe('Bob Builder')
    // The cookie holds the session row's token, not a JWT.
    expect(await sessionRows()).toEqual([{ name: 'Bob Builder', sessionToken: await sessionCookie(page) }])
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'authenticated')
    expect(await text(page, '#client-user')).toBe('Bob Builder')
    await page.click('#sign-out button')
    await page.waitForFunction(() => document.querySelector('#server-user')?.textContent === 'nobody')
    expect(await sessionRows()).toEqual([])
    await context.close()
  }, 120_000)
})

describe('database sessions between next-auth (@auth/kysely-adapter) and Authchart (its SQL adapter)', () => {
  it.each(bothWays)(
    'in Chromium: signed in with OIDC at the %s app, the %s app reads the session row',
    async (from, to) => {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${serverOf(from, 'database').origin}/`)
      await page.click('#sign-in-oidc button')
      await logInAtOp(page, 'alice')
      await page.waitForURL(`${serverOf(from, 'database').origin}/dashboard`)
      await page.goto(`${serverOf(to, 'database').origin}/dashboard`)
      expect(new URL(page.url()).pathname).toBe('/dashboard')
      expect(await text(page, '#dashboard-user')).toBe('Alice Liddell')
      await page.goto(`${serverOf(to, 'database').origin}/`)
      await page.click('#sign-out button')
      await page.waitForFunction(() => document.querySelector('#server-user')?.textContent === 'nobody')
      expect(await sessionRows()).toEqual([])
      await context.close()
    },
    120_000,
  )
})
