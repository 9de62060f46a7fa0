/**
 * Migrating a real `@auth/express` app (test/migration/fixture-app/): credentials with a custom error code, a
 * generic OIDC provider configured from `AUTH_OIDC_*`, `jwt` / `session` callbacks adding fields, `pages.signIn`,
 * `getSession` in routes, Session/JWT augmentation, and database sessions on PostgreSQL through `@auth/pg-adapter`.
 *
 * The app runs twice, as written against `@auth/express` + `@auth/core`, and as a copy whose import specifiers this
 * test rewrote to Authchart (the packed package). The same HTTP checks (fetch with a cookie jar, redirects followed
 * by hand) run on both; the rewritten copy must pass `tsc --noEmit`; and a session cookie issued by either app is
 * accepted by the other, for JWT and for database sessions. The OpenID Provider is a real `oidc-provider`.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CookieJar, freePort, root, type RunningServer } from '../frameworks/support/fixture-app.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { removePackedAuthchart, unpackAuthchart, type UnpackedAuthchart } from '../support/packed-authchart.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { copyFixture, fixtureDir, rewriteImports, startFixtureApp, useExpress4 } from './app-migration.js'

const libraries = ['authjs', 'authchart'] as const
type Library = (typeof libraries)[number]
const secret = 'migration-test-secret-0123456789abcdef0123456789abcdef'
const client = { id: 'migration-app', secret: 'migration-app-secret' }

interface Apps {
  jwt: RunningServer
  database: RunningServer
}

/** One request as a browser tab makes it: cookies from and into `jar`, redirects not followed. */
async function browse(
  url: string,
  jar: CookieJar,
  init: { method?: string; form?: Record<string, string>; json?: unknown } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'text/html,application/json' }
  if (jar.cookies.size > 0) headers.cookie = jar.header()
  let body: string | undefined
  if (init.form) {
    body = new URLSearchParams(init.form).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    headers['content-type'] = 'application/json'
  }
  const response = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  })
  jar.take(response)
  return response
}

async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T
}

async function csrfToken(origin: string, jar: CookieJar): Promise<string> {
  return (await json<{ csrfToken: string }>(await browse(`${origin}/api/auth/csrf`, jar))).csrfToken
}

/** Where a redirect points, a relative Location resolved against the URL that answered it. */
function location(response: Response): URL {
  return new URL(response.headers.get('location') ?? 'about:blank', response.url)
}

/** Signs in with the credentials form; answers the callback response. */
async function credentialsSignIn(origin: string, jar: CookieJar, password: string): Promise<Response> {
  const token = await csrfToken(origin, jar)
  return browse(`${origin}/api/auth/callback/credentials`, jar, {
    form: { username: 'ada', password, csrfToken: token, callbackUrl: `${origin}/protected` },
  })
}

/** Signs in at the OpenID Provider as `account`; answers the app's callback response. */
async function oidcSignIn(op: RunningOidcProvider, origin: string, jar: CookieJar, account: string): Promise<Response> {
  const token = await csrfToken(origin, jar)
  const start = await browse(`${origin}/api/auth/signin/oidc`, jar, {
    form: { csrfToken: token, callbackUrl: `${origin}/protected` },
  })
  expect(start.status).toBe(302)
  expect(location(start).origin).toBe(new URL(op.issuer).origin)
  const answer = await op.signInAs(location(start), account)
  if (answer.mode !== 'query') throw new Error('the OP answered with form_post')
  return browse(answer.callbackUrl.href, jar)
}

async function session(origin: string, jar: CookieJar): Promise<Record<string, unknown> | null> {
  return json<Record<string, unknown> | null>(await browse(`${origin}/api/auth/session`, jar))
}

await describeWithService('postgres', probePostgres, () => {
  describe('an @auth/express app, as written and with its imports rewritten to Authchart', () => {
    let packed: UnpackedAuthchart
    let op: RunningOidcProvider
    let database: ScratchPostgresSchema
    let sql: pg.Client
    const apps = {} as Record<Library, Apps>

    beforeAll(async () => {
      packed = await unpackAuthchart('migration-')
      useExpress4(packed.dir)
      copyFixture(join(packed.dir, 'authjs'), false)
      copyFixture(join(packed.dir, 'authchart'), true)

      const ports = { authjs: [await freePort(), await freePort()], authchart: [await freePort(), await freePort()] }
      op = await startOidcProvider({
        clients: [
          {
            client_id: client.id,
            client_secret: client.secret,
            redirect_uris: [...ports.authjs, ...ports.authchart].map(
              (p) => `http://127.0.0.1:${p}/api/auth/callback/oidc`,
            ),
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
      })
      database = await createScratchPostgresSchema()
      sql = new pg.Client({ connectionString: database.url })
      await sql.connect()
      await sql.query(readFileSync(join(fixtureDir, 'schema.sql'), 'utf8'))

      const env = {
        AUTH_SECRET: secret,
        AUTH_TRUST_HOST: 'true',
        AUTH_OIDC_ID: client.id,
        AUTH_OIDC_SECRET: client.secret,
        AUTH_OIDC_ISSUER: op.issuer,
        DATABASE_URL: database.url,
      }
      for (const library of libraries) {
        const dir = join(packed.dir, library)
        const [jwtPort = 0, databasePort = 0] = ports[library]
        apps[library] = {
          jwt: await startFixtureApp(dir, jwtPort, { ...env, APP_SESSIONS: 'jwt' }),
          database: await startFixtureApp(dir, databasePort, { ...env, APP_SESSIONS: 'database' }),
        }
      }
    }, 240_000)

    afterAll(async () => {
      for (const app of Object.values(apps)) {
        await app.jwt.stop()
        await app.database.stop()
      }
      await sql?.end()
      await database?.drop()
      await op?.close()
      packed?.remove()
      await removePackedAuthchart()
    })

    describe('the rewrite', () => {
      it('changes only module specifiers, and only those of Auth.js', () => {
        const original = readFileSync(join(fixtureDir, 'auth.ts'), 'utf8')
        const rewritten = rewriteImports(original)
        const changed = original.split('\n').filter((line, i) => line !== rewritten.split('\n')[i])
        expect(changed).toEqual([
          "import type { ExpressAuthConfig } from '@auth/express'",
          "import type { Provider } from '@auth/core/providers'",
          "import Credentials from '@auth/core/providers/credentials'",
        ])
        expect(rewritten).toContain("import PostgresAdapter from '@auth/pg-adapter'")
        expect(rewriteImports("declare module '@auth/core/jwt' {")).toBe("declare module 'authchart/jwt' {")
      })

      it('type-checks with tsc --noEmit, as the original does', () => {
        for (const library of libraries) {
          const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', '.'], {
            cwd: join(packed.dir, library),
            encoding: 'utf8',
          })
          expect(`${result.stdout}${result.stderr}`, library).toBe('')
          expect(result.status, library).toBe(0)
        }
      })
    })

    for (const library of libraries) {
      describe(`the same checks on ${library === 'authjs' ? '@auth/express' : 'Authchart'}`, () => {
        const origin = () => apps[library].jwt.origin

        it('lists the providers, the OIDC one configured from AUTH_OIDC_*', async () => {
          const providers = await json(await browse(`${origin()}/api/auth/providers`, new CookieJar()))
          expect(providers).toEqual({
            credentials: {
              id: 'credentials',
              name: 'Credentials',
              type: 'credentials',
              signinUrl: `${origin()}/api/auth/signin/credentials`,
              callbackUrl: `${origin()}/api/auth/callback/credentials`,
            },
            oidc: {
              id: 'oidc',
              name: 'Corporate SSO',
              type: 'oidc',
              signinUrl: `${origin()}/api/auth/signin/oidc`,
              callbackUrl: `${origin()}/api/auth/callback/oidc`,
            },
          })
        })

        it("sends the built-in sign-in page's visitors and signed-out visitors to pages.signIn", async () => {
          const signIn = await browse(`${origin()}/api/auth/signin`, new CookieJar())
          expect(signIn.status).toBe(302)
          expect(location(signIn).pathname).toBe('/login')
          expect(location(signIn).searchParams.get('callbackUrl')).toBe(origin())
          const guarded = await browse(`${origin()}/protected`, new CookieJar())
          expect(guarded.status).toBe(302)
          expect(location(guarded).pathname).toBe('/login')
        })

        it('refuses a wrong password with the custom error code, on the custom sign-in page', async () => {
          const jar = new CookieJar()
          const result = await credentialsSignIn(origin(), jar, 'wrong')
          expect(result.status).toBe(302)
          const target = location(result)
          expect(target.origin + target.pathname).toBe(`${origin()}/login`)
          expect(target.searchParams.get('error')).toBe('CredentialsSignin')
          expect(target.searchParams.get('code')).toBe('invalid_login')
          expect(jar.cookies.has('authjs.session-token')).toBe(false)
          const page = await (await browse(target.href, jar)).text()
          expect(page).toContain('<p id="code">invalid_login</p>')
          // The app's own logger receives the app's CredentialsSignin subclass itself, as Auth.js passes it.
          const logged = await json<unknown[]>(await browse(`${origin()}/logged-errors`, new CookieJar()))
          expect(logged).toContainEqual({ name: 'InvalidLoginError', type: 'CredentialsSignin', code: 'invalid_login' })
        })

        it('signs in with credentials: the callbacks add their fields, getSession sees them', async () => {
          const jar = new CookieJar()
          const result = await credentialsSignIn(origin(), jar, 'lovelace')
          expect(result.status).toBe(302)
          expect(location(result).href).toBe(`${origin()}/protected`)
          expect(jar.cookies.has('authjs.session-token')).toBe(true)
          expect(await (await browse(`${origin()}/protected`, jar)).text()).toBe('Hello Ada Lovelace (admin)')
          const current = await session(origin(), jar)
          expect(current).toMatchObject({
            user: { name: 'Ada Lovelace', email: 'ada@example.test', role: 'admin' },
            provider: 'credentials',
          })
          expect(Date.parse(String(current?.expires))).toBeGreaterThan(Date.now())
          // Both slide `expires` on every read of the session, so the two reads differ by the time between them: compare the rest.
          const me = await json<{ session: Record<string, unknown> }>(await browse(`${origin()}/me`, jar))
          expect({ ...me.session, expires: undefined }).toEqual({ ...current, expires: undefined })
          expect(Date.parse(String(me.session.expires))).toBeGreaterThanOrEqual(Date.parse(String(current?.expires)))
          // Auth.js also keeps an `authjs.callback-url` cookie; Authchart does not write one (docs/migrating-from-authjs.md).
          expect([...jar.cookies.keys()]).toEqual(expect.arrayContaining(['authjs.csrf-token', 'authjs.session-token']))
        })

        it('updates the session through POST /session: the jwt callback reads session.nickname', async () => {
          const jar = new CookieJar()
          await credentialsSignIn(origin(), jar, 'lovelace')
          const token = await csrfToken(origin(), jar)
          const updated = await browse(`${origin()}/api/auth/session`, jar, {
            json: { csrfToken: token, data: { nickname: 'Countess' } },
          })
          expect(updated.status).toBe(200)
          expect(await json(updated)).toMatchObject({ nickname: 'Countess', user: { role: 'admin' } })
          expect(await session(origin(), jar)).toMatchObject({ nickname: 'Countess' })
        })

        it('signs out', async () => {
          const jar = new CookieJar()
          await credentialsSignIn(origin(), jar, 'lovelace')
          const token = await csrfToken(origin(), jar)
          const out = await browse(`${origin()}/api/auth/signout`, jar, { form: { csrfToken: token } })
          expect(out.status).toBe(302)
          expect(jar.cookies.has('authjs.session-token')).toBe(false)
          expect(await session(origin(), jar)).toBeNull()
        })

        it('signs in with the OIDC provider against a real OpenID Provider', async () => {
          const jar = new CookieJar()
          const callback = await oidcSignIn(op, origin(), jar, 'alice')
          expect(callback.status).toBe(302)
          expect(location(callback).href).toBe(`${origin()}/protected`)
          // The sign-in's own cookies (Auth.js: state and PKCE; Authchart: its flow cookie) are gone after the callback.
          expect([...jar.cookies.keys()].filter((name) => /state|pkce|nonce|flow/.test(name))).toEqual([])
          expect(await session(origin(), jar)).toMatchObject({
            user: { name: 'Alice Liddell', role: 'member' },
            provider: 'oidc',
          })
        })

        it('keeps database sessions in PostgreSQL through @auth/pg-adapter', async () => {
          const dbOrigin = apps[library].database.origin
          const jar = new CookieJar()
          const callback = await oidcSignIn(op, dbOrigin, jar, 'bob')
          expect(callback.status).toBe(302)
          const token = jar.cookies.get('authjs.session-token') ?? ''
          expect(token).not.toContain('.')
          const rows = await sql.query('select "userId" from sessions where "sessionToken" = $1', [token])
          expect(rows.rowCount).toBe(1)
          const me = await json<{ session: Record<string, unknown> }>(await browse(`${dbOrigin}/me`, jar))
          expect(me.session).toMatchObject({ user: { name: 'Bob Builder', email: 'bob@example.test', role: 'member' } })
          const csrf = await csrfToken(dbOrigin, jar)
          await browse(`${dbOrigin}/api/auth/signout`, jar, { form: { csrfToken: csrf } })
          expect((await sql.query('select 1 from sessions where "sessionToken" = $1', [token])).rowCount).toBe(0)
          expect(await session(dbOrigin, jar)).toBeNull()
        })
      })
    }

    describe('sessions cross over', () => {
      for (const [from, to] of [
        ['authjs', 'authchart'],
        ['authchart', 'authjs'],
      ] as const) {
        it(`a JWT session cookie issued by ${from} is accepted by ${to}`, async () => {
          const jar = new CookieJar()
          await credentialsSignIn(apps[from].jwt.origin, jar, 'lovelace')
          const issued = await session(apps[from].jwt.origin, jar)
          const seen = await session(apps[to].jwt.origin, jar)
          expect(seen).toMatchObject({ user: issued?.user, provider: 'credentials' })
          expect(await (await browse(`${apps[to].jwt.origin}/protected`, jar)).text()).toBe(
            'Hello Ada Lovelace (admin)',
          )
        })

        it(`a database session cookie issued by ${from} is accepted by ${to}`, async () => {
          const jar = new CookieJar()
          await oidcSignIn(op, apps[from].database.origin, jar, 'alice')
          const me = await json<{ session: { user: Record<string, unknown> } | null }>(
            await browse(`${apps[to].database.origin}/me`, jar),
          )
          expect(me.session?.user).toMatchObject({ name: 'Alice Liddell', role: 'member' })
        })
      }
    })
  })
})
