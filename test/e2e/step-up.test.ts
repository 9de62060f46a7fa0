/**
 * Step-up end to end (docs/step-up.md): a route behind `requireRecentAuth` over real HTTP (Express) and through the
 * fetch function, for JWT and database sessions, on the memory adapter and on PostgreSQL (Kysely, after `migrate`).
 * Time passes by moving the clock (`Date` only, the one clock the library reads); an old or forged cookie is sealed
 * through the real `encode`. Nothing of the library is mocked.
 */
import type express from 'express'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import {
  ExpressAuth,
  getSessionAuthentication as expressSessionAuthentication,
  requireRecentAuth as expressRequireRecentAuth,
} from '../../src/frameworks/express.js'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import { encode } from '../../src/jwt.js'
import { Auth, getSessionAuthentication, requireRecentAuth, revokeUserSessions } from '../../src/index.js'
import type { Adapter } from '../../src/types/adapters.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, secret, testConfig, users } from '../support/auth-harness.js'
import { HttpBrowser } from '../support/http-site.js'
import { startApp } from '../frameworks/express-http.js'
import { signIn as signInAtOp, startLogoutSite } from '../support/logout-site.js'
import { createScratchPostgresSchema, describeWithService, probePostgres } from '../support/services.js'

const maxAge = 300
const cookieName = 'authjs.session-token'
const seconds = () => Math.floor(Date.now() / 1000)

/** Moves the clock the library reads (`Date`, held still for each test) forward. */
function timePasses(secondsLater: number): void {
  vi.setSystemTime(Date.now() + secondsLater * 1000)
}

// Only `Date` is held: timers stay real, so sockets and pools behave.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
})
afterEach(() => {
  vi.useRealTimers()
})

interface Backend {
  name: string
  open(): Promise<{ adapter: Adapter; close(): Promise<void> }>
}

const memory: Backend = {
  name: 'memory',
  open: async () => ({ adapter: MemoryAdapter(), close: async () => {} }),
}

const postgres: Backend = {
  name: 'PostgreSQL',
  async open() {
    const scratch = await createScratchPostgresSchema()
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 3 }) }),
    })
    await migrate(db)
    return {
      adapter: KyselyAdapter(db),
      async close() {
        await db.destroy()
        await scratch.drop()
      },
    }
  },
}

/**
 * The users of the test credentials provider, in the adapter (a database session needs a user the adapter knows;
 * it picks the ids). Answers the id each session names: the adapter's for a database session, the one `authorize`
 * returned for a JWT session.
 */
async function seedUsers(adapter: Adapter, strategy: Strategy): Promise<Record<string, string>> {
  const ids: Record<string, string> = {}
  for (const [username, { user }] of Object.entries(users)) {
    const created = await adapter.createUser?.({ id: '', name: user.name, email: user.email, emailVerified: null })
    ids[username] = strategy === 'database' ? (created?.id ?? '') : user.id
  }
  return ids
}

type Strategy = 'jwt' | 'database'

function siteConfig(adapter: Adapter, strategy: Strategy, overrides: Partial<AuthConfig> = {}) {
  return testConfig({
    adapter,
    session: { strategy, updateAge: 0 },
    sessionManagement: { store: new MemorySessionStore() },
    // An app whose jwt callback copies `update()` data into the token, as many do: it must not move the sign-in.
    callbacks: {
      jwt: ({ token, trigger, session }) =>
        trigger === 'update' && session && typeof session === 'object' ? { ...token, ...session } : token,
    },
    ...overrides,
  })
}

interface Site {
  origin: string
  close(): Promise<void>
}

/** An Express app: Authchart under /auth, `/account` behind a five-minute step-up, `/mfa` asking for a one-time code. */
async function startSite(config: AuthConfig): Promise<Site> {
  const running = await startApp((app) => {
    app.use('/auth', ExpressAuth(config))
    const signIn = async (req: express.Request, res: express.Response) => {
      res.json(await expressSessionAuthentication(req, config))
    }
    app.get('/account', expressRequireRecentAuth(config, { maxAge }), signIn)
    app.get('/mfa', expressRequireRecentAuth(config, { maxAge, factors: ['otp'] }), signIn)
    app.get('/who', signIn)
  })
  return { origin: `http://127.0.0.1:${running.port}`, close: () => running.close() }
}

/** Signs in with the credentials form, coming back to `callbackUrl`; answers the callback's redirect target. */
async function signInAs(browser: HttpBrowser, username: string, callbackUrl: string): Promise<string | null> {
  const csrfToken = await browser.csrfToken()
  const response = await browser.request('/auth/callback/credentials', {
    form: { username, password: users[username]?.password ?? '', csrfToken, callbackUrl },
  })
  return response.headers.get('location')
}

/** What the step-up sends an old session to: the sign-in page, back to `path`, with the marker. */
function reauthenticationUrl(origin: string, path: string): string {
  const query = new URLSearchParams({ callbackUrl: `${origin}${path}`, error: 'ReauthenticationRequired' })
  return `${origin}/auth/signin?${query.toString()}`
}

async function signInTime(browser: HttpBrowser): Promise<{ userId: string; authTime?: number; amr?: string[] }> {
  return (await (await browser.request('/who')).json()) as { userId: string; authTime?: number; amr?: string[] }
}

function stepUpSuite(backend: Backend, strategy: Strategy): void {
  describe(`${strategy} sessions on ${backend.name}, over HTTP (Express)`, () => {
    let opened: Awaited<ReturnType<Backend['open']>>
    let config: ReturnType<typeof siteConfig>
    let site: Site
    let ids: Record<string, string>

    beforeAll(async () => {
      opened = await backend.open()
      ids = await seedUsers(opened.adapter, strategy)
      config = siteConfig(opened.adapter, strategy)
      site = await startSite(config)
    })
    afterAll(async () => {
      await site.close()
      await opened.close()
    })

    it('sends an old session through the sign-in page and back; the session then shows the new auth_time', async () => {
      const browser = new HttpBrowser(site.origin)
      const signedInAt = seconds()
      expect(await signInAs(browser, 'ada', `${site.origin}/account`)).toBe(`${site.origin}/account`)
      const fresh = await browser.request('/account')
      expect(fresh.status).toBe(200)
      expect(await fresh.json()).toEqual({ userId: ids.ada, authTime: signedInAt, amr: ['pwd'] })
      // A password sign-in has no one-time code: the route that asks for one sends even a fresh session to sign in.
      expect((await browser.request('/mfa')).status).toBe(303)

      timePasses(maxAge + 60)
      const stale = await browser.request('/account?tab=danger')
      expect(stale.status).toBe(303)
      const location = stale.headers.get('location') ?? ''
      expect(location).toBe(reauthenticationUrl(site.origin, '/account?tab=danger'))
      const page = await browser.request(location)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('For your security, please sign in again to continue.')
      expect(config.recorded.warnings.filter((code) => code === 'refused:step-up').length).toBeGreaterThan(0)

      const callbackUrl = new URL(location).searchParams.get('callbackUrl') ?? ''
      expect(await signInAs(browser, 'ada', callbackUrl)).toBe(`${site.origin}/account?tab=danger`)
      const passed = await browser.request('/account?tab=danger')
      expect(passed.status).toBe(200)
      expect(await passed.json()).toEqual({ userId: ids.ada, authTime: signedInAt + maxAge + 60, amr: ['pwd'] })
    })

    it('an old session cannot pass by update(), by the session check re-sealing it, or by a forged cookie', async () => {
      const browser = new HttpBrowser(site.origin)
      await signInAs(browser, 'ada', `${site.origin}/account`)
      const signedInAt = seconds()
      timePasses(maxAge + 60)
      const now = seconds()

      // update() with data naming a fresh sign-in: the jwt callback copies it into the token, the claims stay.
      const csrfToken = await browser.csrfToken()
      const viaJson = await fetch(`${site.origin}/auth/session`, {
        method: 'POST',
        headers: { cookie: browser.jar.header(), 'content-type': 'application/json' },
        body: JSON.stringify({ csrfToken, data: { auth_time: now, amr: ['otp', 'pwd', 'mfa'], authTime: now } }),
        redirect: 'manual',
      })
      expect(viaJson.status).toBe(200)
      browser.jar.take(viaJson)
      expect(await viaJson.json()).toMatchObject({ user: { email: 'ada@example.com' } })
      expect((await browser.request('/account')).status).toBe(303)
      expect((await signInTime(browser)).authTime).toBe(signedInAt)

      // The session check re-seals the cookie (or slides the row) every time here (`updateAge: 0`).
      for (let i = 0; i < 2; i++) expect((await browser.request('/auth/session')).status).toBe(200)
      expect((await browser.request('/account')).status).toBe(303)
      expect((await signInTime(browser)).authTime).toBe(signedInAt)

      // A cookie claiming a fresh sign-in, sealed with any other secret (or not at all), is no session.
      for (const forged of [
        await encode({
          token: { sub: 'u-ada', auth_time: now, amr: ['pwd'] },
          secret: `${secret}-other`,
          salt: cookieName,
        }),
        Buffer.from(JSON.stringify({ sub: 'u-ada', auth_time: now })).toString('base64url'),
      ]) {
        const attacker = new HttpBrowser(site.origin)
        attacker.jar.cookies.set(cookieName, forged)
        const answer = await attacker.request('/account')
        expect(answer.status).toBe(303)
        expect(await signInTime(attacker)).toBeNull()
      }
    })

    it('an old cookie stays old after another session (or this browser) signed in again', async () => {
      const laptop = new HttpBrowser(site.origin)
      const phone = new HttpBrowser(site.origin)
      await signInAs(laptop, 'ada', `${site.origin}/account`)
      await signInAs(phone, 'ada', `${site.origin}/account`)
      const before = laptop.jar.cookies.get(cookieName) ?? ''
      timePasses(maxAge + 60)
      await signInAs(laptop, 'ada', `${site.origin}/account`)
      expect((await laptop.request('/account')).status).toBe(200)
      expect((await phone.request('/account')).status).toBe(303)
      // The laptop's cookie from before its re-authentication, replayed by someone who kept it.
      const replay = new HttpBrowser(site.origin)
      replay.jar.cookies.set(cookieName, before)
      expect((await replay.request('/account')).status).toBe(303)
    })

    if (strategy === 'jwt')
      it('a cookie from before auth_time was recorded is signed in, never recent', async () => {
        const browser = new HttpBrowser(site.origin)
        const token = { sub: ids.ada, name: 'Ada Lovelace', email: 'ada@example.com' }
        browser.jar.cookies.set(cookieName, await encode({ token, secret, salt: cookieName }))
        expect(await browser.session()).toMatchObject({ user: { email: 'ada@example.com' } })
        expect(await signInTime(browser)).toEqual({ userId: ids.ada })
        expect((await browser.request('/account')).status).toBe(303)
      })

    it('a different user signing in at the step-up is a normal sign-in: the route then sees that user', async () => {
      const browser = new HttpBrowser(site.origin)
      await signInAs(browser, 'ada', `${site.origin}/account`)
      timePasses(maxAge + 60)
      const location = (await browser.request('/account')).headers.get('location') ?? ''
      await signInAs(browser, 'alan', new URL(location).searchParams.get('callbackUrl') ?? '')
      const passed = await browser.request('/account')
      expect(passed.status).toBe(200)
      expect(await passed.json()).toMatchObject({ userId: ids.alan, authTime: seconds() })
    })
  })
}

stepUpSuite(memory, 'jwt')
stepUpSuite(memory, 'database')
await describeWithService('postgres', probePostgres, () => {
  stepUpSuite(postgres, 'jwt')
  stepUpSuite(postgres, 'database')
})

/** A fetch-style server: Authchart under /auth, `/account` behind `requireRecentAuth`, in one function. */
function fetchSite(config: AuthConfig) {
  return async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname.startsWith('/auth/')) return Auth(request, config)
    const stepUp = await requireRecentAuth(request, config, { maxAge })
    return stepUp ?? Response.json(await getSessionAuthentication(request, config))
  }
}

/** A browser of a fetch-style server: its cookies, requests handed to the server function as they are. */
class FetchBrowser {
  readonly jar = new CookieJar()
  constructor(private readonly handle: (request: Request) => Promise<Response>) {}

  async request(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({ cookie: this.jar.header() })
    if (form) headers.set('content-type', 'application/x-www-form-urlencoded')
    const body = form ? new URLSearchParams(form).toString() : undefined
    const request = new Request(`http://localhost:3000${path}`, { method: form ? 'POST' : 'GET', headers, body })
    const response = await this.handle(request)
    this.jar.take(response)
    return response
  }

  async signIn(username: string, callbackUrl: string): Promise<string | null> {
    const { csrfToken } = (await (await this.request('/auth/csrf')).json()) as { csrfToken: string }
    const password = users[username]?.password ?? ''
    const answer = await this.request('/auth/callback/credentials', { username, password, csrfToken, callbackUrl })
    return answer.headers.get('location')
  }
}

describe.each(['jwt', 'database'] as const)('%s sessions through the fetch function', (strategy) => {
  it('redirects an old session to sign in again and lets the fresh one pass', async () => {
    const adapter = MemoryAdapter()
    const ids = await seedUsers(adapter, strategy)
    const config = siteConfig(adapter, strategy)
    const browser = new FetchBrowser(fetchSite(config))
    const signedInAt = seconds()
    await browser.signIn('ada', 'http://localhost:3000/account')
    expect(await (await browser.request('/account')).json()).toEqual({
      userId: ids.ada,
      authTime: signedInAt,
      amr: ['pwd'],
    })
    timePasses(maxAge + 1)
    const stale = await browser.request('/account')
    expect(stale.status).toBe(303)
    const location = stale.headers.get('location') ?? ''
    expect(location).toBe(reauthenticationUrl('http://localhost:3000', '/account'))
    expect(await browser.signIn('ada', new URL(location).searchParams.get('callbackUrl') ?? '')).toBe(
      'http://localhost:3000/account',
    )
    const passed = await browser.request('/account')
    expect(passed.status).toBe(200)
    expect(await passed.json()).toEqual({ userId: ids.ada, authTime: signedInAt + maxAge + 1, amr: ['pwd'] })
  })

  if (strategy === 'database')
    it('a session whose record was lost is not made recent when it slides (its slide is no sign-in)', async () => {
      // An Auth.js adapter: its rows keep no record (no `listSessionsByUser`), the session store does.
      const { listSessionsByUser: _keepsRecords, ...adapter } = MemoryAdapter()
      await seedUsers(adapter, strategy)
      const browser = new FetchBrowser(fetchSite(siteConfig(adapter, strategy)))
      await browser.signIn('ada', 'http://localhost:3000/account')
      // The app restarts on a new session store: the row is there, its record is not. The next check slides the
      // row and writes a record from now, which must not say the user signed in now.
      const restarted = new FetchBrowser(fetchSite(siteConfig(adapter, strategy)))
      restarted.jar.cookies.set(cookieName, browser.jar.cookies.get(cookieName) ?? '')
      expect(await (await restarted.request('/auth/session')).json()).toMatchObject({ user: { name: 'Ada Lovelace' } })
      expect((await restarted.request('/account')).status).toBe(303)
    })

  it('requireRecentAuth refuses options that cannot be right, at once', async () => {
    const config = siteConfig(MemoryAdapter(), strategy)
    const request = new Request('http://localhost:3000/account')
    await expect(requireRecentAuth(request, config, { maxAge: -1 })).rejects.toThrow(/maxAge/)
    await expect(requireRecentAuth(request, config, { maxAge: 60, factors: 'otp' as never })).rejects.toThrow(/factors/)
    expect(() => expressRequireRecentAuth(config, { maxAge: Number.NaN })).toThrow(/maxAge/)
  })
})

it('database sessions without session management: requireRecentAuth says what is missing', async () => {
  const config = testConfig({ adapter: MemoryAdapter(), session: { strategy: 'database' } })
  await expect(requireRecentAuth(new Request('http://localhost:3000/account'), config, { maxAge: 60 })).rejects.toThrow(
    /sessionManagement/,
  )
})

describe('a session ended elsewhere is no recent sign-in (JWT sessions signed in at a real OpenID provider)', () => {
  it('refuses a fresh session revoked by back-channel logout, and one ended through session management', async () => {
    const s = await startLogoutSite({
      strategy: 'jwt',
      config: { sessionManagement: { store: new MemorySessionStore() } },
    })
    try {
      const account = async (browser: HttpBrowser, cookie = browser.jar.header()) =>
        requireRecentAuth(new Request(`${s.site.origin}/account`, { headers: { cookie } }), s.config, { maxAge })
      const browser = new HttpBrowser(s.site.origin)
      const atOp = s.op.browser()
      await signInAtOp(browser, atOp, 'alice')
      expect(await account(browser)).toBeNull()
      const kept = browser.jar.header()

      // The user signs out at the OP: its logout token revokes the OP session. The cookie, as kept before the session
      // check clears it (by a tab that has not checked yet, or by whoever copied it), is still a well-sealed token
      // with a fresh auth_time.
      await atOp.endSession(`${s.op.issuer}/session/end`)
      expect(await browser.session()).toBeNull()
      const afterLogout = await account(browser, kept)
      expect(afterLogout?.status).toBe(303)
      expect(afterLogout?.headers.get('location')).toContain('error=ReauthenticationRequired')

      // A new sign-in passes; the app then ends all of the user's sessions (session management).
      const again = new HttpBrowser(s.site.origin)
      await signInAtOp(again, s.op.browser(), 'alice')
      const who = await getSessionAuthentication(
        new Request(`${s.site.origin}/account`, { headers: { cookie: again.jar.header() } }),
        s.config,
      )
      expect(who?.authTime).toBe(seconds())
      expect(await account(again)).toBeNull()
      // (A revocation ends the sessions signed in before it: a second later, still well within maxAge.)
      timePasses(1)
      await revokeUserSessions(s.config, who?.userId ?? '')
      expect((await account(again))?.status).toBe(303)
    } finally {
      await s.close()
    }
  })
})
