/**
 * authchart/next in the binding conformance suite (test/frameworks/support/binding-conformance.ts), as the SvelteKit,
 * SolidStart and Qwik apps are: the fixture app moved to Authchart (next-app.ts), built once for this file by
 * `next build` and served by `next start`, driven over HTTP, with a real oidc-provider and, for database sessions, a
 * real PostgreSQL. The binding's server-side `signIn` and `signOut` are the home page's Server Actions, posted as a
 * form without JavaScript posts them. Also here: step-up (`requireRecentAuth`) on the moved app's /step-up page.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { decode, encode } from '../../../src/jwt.js'
import { describeWithService, probePostgres } from '../../support/services.js'
import {
  aliceId,
  csrfToken,
  describeDatabaseConformance,
  describeJwtConformance,
  describeTrustHostConformance,
  sessionCookie,
  startFixtureProvider,
  type BindingAdapter,
  type FixtureProvider,
  type FixtureServer,
  type PostHeaders,
} from '../support/binding-conformance.js'
import {
  browse,
  clientHeaders,
  CookieJar,
  freePort,
  packAuthchart,
  removePackedAuthchart,
  type RunningServer,
} from '../support/fixture-app.js'
import { buildNextApp, startNextApp, type BuiltNextApp } from './next-app.js'

const secret = 'next-conformance-secret-0123456789abcdef0123'
const client = { id: 'next-conformance', secret: 'next-conformance-client-secret' }

let built: Promise<BuiltNextApp> | undefined
/** The moved app, packed, installed and built once for the file. */
const app = () =>
  (built ??= packAuthchart().then(async (tarball) => {
    const moved = await buildNextApp({ kind: 'authchart', tarball })
    console.log(`[next-conformance] ${moved.built ? `built in ${moved.seconds.toFixed(0)} s` : 'kept build'}`)
    return moved
  }))

let started: Promise<FixtureProvider> | undefined
/** The OP, and the ports of the apps with JWT and with database sessions; started once. */
const provider = () => (started ??= startFixtureProvider(client, '/api/auth/callback/oidc'))
const running: RunningServer[] = []

async function serve(port: number, env: Record<string, string>): Promise<RunningServer> {
  const server = await startNextApp(await app(), port, {
    AUTH_SECRET: secret,
    AUTH_OIDC_ISSUER: (await provider()).op.issuer,
    AUTH_OIDC_ID: client.id,
    AUTH_OIDC_SECRET: client.secret,
    ...env,
  })
  running.push(server)
  return server
}

beforeAll(async () => {
  await app()
}, 1_500_000)

afterAll(async () => {
  for (const server of running) await server.stop()
  // A provider that failed to start has nothing to close.
  await (await started?.catch(() => undefined))?.op.close()
  await removePackedAuthchart()
})

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 })

/**
 * The id of the Server Action `exportedName` of app/actions.ts, from the build's manifest (a page that renders the
 * form may itself fail: with an untrusted host, `auth()` on the home page does).
 */
async function actionId(exportedName: string): Promise<string> {
  const manifest: unknown = JSON.parse(
    readFileSync(join((await app()).dir, '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
  )
  const actions = typeof manifest === 'object' && manifest !== null && 'node' in manifest ? manifest.node : {}
  for (const [id, action] of Object.entries(actions ?? {}))
    if (
      typeof action === 'object' &&
      action !== null &&
      'exportedName' in action &&
      action.exportedName === exportedName
    )
      return id
  throw new Error(`no Server Action ${exportedName} in the build's manifest`)
}

/** Posts the Server Action `exportedName` with `fields` to the home page, as a form without JavaScript does. */
async function postAction(
  server: FixtureServer,
  jar: CookieJar,
  exportedName: string,
  fields: Record<string, string>,
  headers: PostHeaders,
): Promise<Response> {
  const body = new FormData()
  body.set(`$ACTION_ID_${await actionId(exportedName)}`, '')
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const response = await fetch(`${server.origin}/`, {
    method: 'POST',
    headers: {
      accept: 'text/html',
      ...clientHeaders,
      ...(jar.cookies.size > 0 && { cookie: jar.header() }),
      ...headers,
    },
    body,
    redirect: 'manual',
  })
  jar.take(response)
  return response
}

/** How the conformance cases drive the Next app: the home page's sign-in and sign-out Server Actions. */
const adapter: Omit<BindingAdapter, 'app'> = {
  authPrefix: '/api/auth',
  protectedPath: '/protected',
  // The page's own `redirect()`: Next answers a redirect from a Server Component with 307.
  signedOutRedirect: { status: 307, location: '/api/auth/signin?callbackUrl=%2Fprotected' },
  postSignIn: (server, jar, headers, password = 'wonderland') =>
    postAction(server, jar, 'signInWithPassword', { username: 'alice', password, redirectTo: '/protected' }, headers),
  // A Server Action's `redirect()` is a 303.
  signedIn: { status: 303, location: (origin) => `${origin}/protected` },
  // The binding throws CredentialsSignin, as next-auth's does; the fixture's action sends the browser to sign-in.
  refusedStatus: 303,
  postSignOut: (server, jar, headers) => postAction(server, jar, 'signOutAction', {}, headers),
  signedOut: { status: 303, location: (origin) => `${origin}/` },
  // A Server Action that fails (Next's own Origin check, or the binding's refusal) is Next's error page.
  crossSiteStatus: 500,
}

describe('JWT sessions (production build, AUTH_TRUST_HOST=true, no AUTH_URL)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await serve((await provider()).ports.jwt, { AUTH_TRUST_HOST: 'true' })
  })

  describeJwtConformance({ ...adapter, app: () => server }, async () => (await provider()).op.issuer)

  describe('step-up: /step-up asks for a sign-in of the last 60 seconds (requireRecentAuth)', () => {
    const now = () => Math.floor(Date.now() / 1000)

    /** The sign-in time the session cookie in `jar` carries. */
    async function authTimeOf(jar: CookieJar): Promise<unknown> {
      const token = await decode({ token: jar.cookies.get(sessionCookie), secret, salt: sessionCookie })
      return token?.auth_time
    }

    /** The session in `jar`, resealed (with the app's secret) as if its user had signed in `seconds` ago. */
    async function age(jar: CookieJar, seconds: number): Promise<number> {
      const token = await decode({ token: jar.cookies.get(sessionCookie), secret, salt: sessionCookie })
      expect(token?.sub).toBe(aliceId)
      const signedInAt = now() - seconds
      jar.cookies.set(
        sessionCookie,
        await encode({ token: { ...token, auth_time: signedInAt }, secret, salt: sessionCookie }),
      )
      return signedInAt
    }

    it('a fresh sign-in passes; the page sees its auth_time', async () => {
      const jar = new CookieJar()
      const before = now()
      expect((await adapter.postSignIn(server, jar, { origin: server.origin })).status).toBe(303)
      const page = await browse(`${server.origin}/step-up`, jar)
      expect(page.status).toBe(200)
      const authTime = await authTimeOf(jar)
      expect(authTime).toBeGreaterThanOrEqual(before)
      expect(await page.text()).toContain(`<p id="auth-time">${String(authTime)}</p>`)
    })

    it('a session older than maxAge goes to sign in again and back; the route then passes with the new auth_time', async () => {
      const jar = new CookieJar()
      await adapter.postSignIn(server, jar, { origin: server.origin })
      const old = await age(jar, 61)
      expect((await browse(`${server.origin}/step-up`, new CookieJar())).status).toBe(307)

      const refused = await browse(`${server.origin}/step-up`, jar)
      // Next's `redirect()` from a Server Component answers 307 (303 from a Server Action).
      expect(refused.status).toBe(307)
      const location = new URL(refused.headers.get('location') ?? '', server.origin)
      expect(location.pathname).toBe('/api/auth/signin')
      expect(location.searchParams.get('error')).toBe('ReauthenticationRequired')
      const callbackUrl = location.searchParams.get('callbackUrl') ?? ''
      expect(callbackUrl).toBe(`${server.origin}/step-up`)
      expect(await authTimeOf(jar)).toBe(old)
      const signInPage = await browse(location.href, jar)
      expect(await signInPage.text()).toContain('For your security, please sign in again to continue.')

      // The sign-in page's credentials form, posted with the callbackUrl it was given.
      const before = now()
      const token = await csrfToken(server, adapter.authPrefix, jar)
      const signedIn = await browse(`${server.origin}${adapter.authPrefix}/callback/credentials`, jar, {
        form: { csrfToken: token, username: 'alice', password: 'wonderland', callbackUrl },
        headers: { origin: server.origin },
      })
      expect(signedIn.status).toBe(302)
      expect(signedIn.headers.get('location')).toBe(callbackUrl)
      const authTime = await authTimeOf(jar)
      expect(authTime).toBeGreaterThanOrEqual(before)
      const page = await browse(callbackUrl, jar)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain(`<p id="auth-time">${String(authTime)}</p>`)
    })
  })
})

describe('AUTH_TRUST_HOST=false in a production build', () => {
  describeTrustHostConformance(adapter, async (env) => serve(await freePort(), env))
})

await describeWithService('postgres', probePostgres, () => {
  describe('database sessions on PostgreSQL (the SQL adapter, AUTH_URL set)', () => {
    let server: RunningServer
    describeDatabaseConformance(
      { ...adapter, app: () => server },
      {
        async beforeAll({ url }) {
          const port = (await provider()).ports.database
          server = await serve(port, {
            DATABASE_URL: url,
            // The fixture keeps credentials to JWT sessions (as Auth.js does) unless told otherwise.
            DATABASE_CREDENTIALS: 'true',
            AUTH_URL: `http://127.0.0.1:${port}`,
          })
        },
      },
    )
  })
})
