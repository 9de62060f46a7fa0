/**
 * The second factor end to end in Debian's headless Chromium (/usr/bin/chromium, driven by playwright-core; no
 * browser is downloaded), on PostgreSQL (Kysely adapter, scratch schema, `migrate`), with the mail sent to a real SMTP
 * server (test/support/smtp-sink.ts) and a real `oidc-provider` on loopback (test/support/oidc-provider.ts). One
 * user enrols an authenticator app on the built-in factors page and registers a passkey, signs out, and signs in by
 * password, e-mail link and OpenID Connect: each stops at the challenge page and is finished with the app's code
 * (computed from the key the enrolment page showed). A recovery code works once and is refused the second time; the
 * passkey (the DevTools Protocol's virtual authenticator) answers the challenge through its JSON endpoints, and an
 * assertion made for one stopped sign-in does not answer another. The challenge page's own passkey button answers
 * it too, and shows its failure text when an authenticator that only claims the passkey's id (another key) answers;
 * without JavaScript the button stays hidden and the codes answer.
 * Without Chromium the suite is skipped with a reason, except under CI=true.
 */
import { generateKeyPairSync } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { Kysely, PostgresDialect } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import pg from 'pg'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import { ExpressAuth } from '../../src/frameworks/express.js'
import { getSessionAuthentication } from '../../src/index.js'
import { builtInPageMessages } from '../../src/pages/messages.js'
import type { AuthConfig } from '../../src/types/index.js'
import { passkeyClientSource } from '../../src/pages/passkey-client-source.js'
import Credentials from '../../src/providers/credentials.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import OIDC from '../../src/providers/oidc.js'
import Passkey from '../../src/providers/passkey.js'
import type { Adapter } from '../../src/types/adapters.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { chromiumArgs, chromiumPath } from '../support/chromium.js'

const inCI = process.env.CI === 'true'
const canRun = existsSync(chromiumPath) || inCI
if (!canRun)
  console.log(
    `[second-factor-browser-postgres] ${chromiumPath} not found: skipping (apt-get install chromium; under CI=true this fails instead)`,
  )

const email = 'ada@example.test'
const password = 'correct horse battery staple'

await describeWithService('postgres', probePostgres, () => {
  let scratch: ScratchPostgresSchema
  let db: Kysely<unknown>
  let smtp: SmtpSink
  let op: RunningOidcProvider
  let server: Server
  let browser: Browser
  let base: string
  let context: BrowserContext
  let page: Page
  let authenticatorId: string
  let cdp: CDPSession
  let config: AuthConfig
  let credentials: () => Promise<Array<{ credentialId: string; signCount: number }>>
  /** What the enrolment showed: the authenticator app's key and the ten recovery codes. */
  let key = ''
  let recoveryCodes: string[] = []
  const refusals: string[] = []
  const errors: string[] = []

  beforeAll(async () => {
    if (!canRun) return
    scratch = await createScratchPostgresSchema()
    db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 4 }) }),
    })
    await migrate(db)
    const adapter: Adapter = KyselyAdapter(db)
    smtp = await startSmtpSink()
    const app = express()
    server = createServer(app)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    // localhost, not the address: WebAuthn refuses IP-address origins.
    base = `http://localhost:${(server.address() as AddressInfo).port}`
    op = await startOidcProvider({
      clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [`${base}/auth/callback/idp`] }],
      accounts: { ada: { sub: 'ada', email, email_verified: true, name: 'Ada Lovelace' } },
    })
    config = {
      secret: 'second-factor-browser-postgres-secret-32-chars',
      trustHost: true,
      // The e-mail link is built only for a known origin.
      allowedOrigins: [base],
      adapter,
      session: { strategy: 'jwt' },
      experimental: { enableWebAuthn: true },
      providers: [
        Credentials({
          credentials: { email: { label: 'E-mail' }, password: { label: 'Password', type: 'password' } },
          // The stored user, so the challenge finds the factors enrolled under its id.
          authorize: async (input) =>
            input.email === email && input.password === password
              ? ((await adapter.getUserByEmail?.(email)) ?? null)
              : null,
        }),
        Nodemailer({ id: 'email', name: 'Email', server: smtp.url, from: 'login@site.test' }),
        OIDC({
          id: 'idp',
          name: 'IdP',
          issuer: op.issuer,
          clientId: 'app',
          clientSecret: 'app-secret',
          // The OP proves the address, and the user signed up by e-mail first: the accounts are one user.
          allowDangerousEmailAccountLinking: true,
        }),
        // No autofill request: the virtual authenticator would answer it on every visit to the sign-in page.
        Passkey({ enableConditionalUI: false }),
      ],
      logger: {
        warn: (code, detail) => refusals.push(`${code}${detail?.reason ? ` (${detail.reason})` : ''}`),
        error: (error) => errors.push(error.message),
        debug: () => {},
      },
    }
    app.use(ExpressAuth(config))
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    context = await browser.newContext()
    // The OP's login and consent are driven from here: the site's redirect to the OP is caught (a route does not
    // see the requests a redirect leads to), the OP answers for `ada`, and the browser follows its answer back to the
    // site with the site's own cookies.
    await context.route(
      (url) => url.pathname === '/auth/signin/idp',
      async (route) => {
        const sent = await route.fetch({ maxRedirects: 0 })
        const result = await op.signInAs(sent.headers()['location'] ?? '', 'ada')
        if (result.mode !== 'query') throw new Error('expected a query response')
        await route.fulfill({ response: sent, headers: { ...sent.headers(), location: result.callbackUrl.href } })
      },
    )
    page = await context.newPage()
    cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    authenticatorId = await newAuthenticator()
    credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await op?.close()
    if (server) await new Promise((done) => server.close(done))
    await smtp?.close()
    await db?.destroy()
    await scratch?.drop()
  })

  const landing = () => `${base}/auth/session`

  /** A virtual authenticator of the kind a phone's or laptop's platform authenticator is, verifying the user. */
  async function newAuthenticator(): Promise<string> {
    const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })
    return added.authenticatorId
  }

  const challengeTexts = builtInPageMessages.en?.secondFactor
  const passkeyButton = () => page.getByRole('button', { name: challengeTexts?.usePasskey })

  /**
   * Runs `body` with another authenticator in place of the user's: it claims the user's passkey (its id and user
   * handle) but signs with a key of its own. The user's own authenticator is back afterwards.
   */
  async function withImpostor(body: () => Promise<void>): Promise<void> {
    const [real] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })
    authenticatorId = await newAuthenticator()
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'der', type: 'pkcs8' })
      .toString('base64')
    await cdp.send('WebAuthn.addCredential', {
      authenticatorId,
      credential: { ...real, privateKey: otherKey, signCount: real.signCount + 10 },
    })
    try {
      await body()
    } finally {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })
      authenticatorId = await newAuthenticator()
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: real })
    }
  }

  /** The `amr` of the browser's session, read by the app's server-side helper from the browser's cookies. */
  async function sessionMethods(of: BrowserContext = context): Promise<string[] | null> {
    const cookie = (await of.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ')
    const signedIn = await getSessionAuthentication(new Request(`${base}/`, { headers: { cookie } }), config)
    return signedIn === null ? null : (signedIn.amr ?? [])
  }

  async function session(): Promise<{ user?: { email?: string }; amr?: string[] } | null> {
    const body = await page.evaluate(async (url) => (await fetch(url)).text(), `${base}/auth/session`)
    return JSON.parse(body) as { user?: { email?: string } } | null
  }

  async function signOut() {
    await page.goto(`${base}/auth/signout?callbackUrl=${encodeURIComponent(landing())}`)
    await Promise.all([page.waitForURL(landing()), page.click('form button')])
    expect(await session()).toBeNull()
  }

  const signInPage = () => page.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(landing())}`)

  async function byPassword() {
    await signInPage()
    await page.fill('#input-email-for-credentials', email)
    await page.fill('#input-password-for-credentials', password)
    await Promise.all([page.waitForURL(/\/auth\/second-factor/), page.click('text=Sign in with Credentials')])
  }

  async function byEmailLink(to: string) {
    const seen = smtp.messages.length
    await signInPage()
    await page.fill('#input-email-for-email', to)
    await Promise.all([page.waitForURL(/\/auth\/verify-request/), page.click('text=Sign in with Email')])
    await page.goto(signInLinkOf(await smtp.next(seen)).href)
    // The link opens a confirmation page (mail scanners do not spend it); its button signs in.
    await page.click('form button')
  }

  async function byOidc() {
    await signInPage()
    await Promise.all([page.waitForURL(/\/auth\/second-factor/), page.click('text=Sign in with IdP')])
  }

  /**
   * The authenticator app's next unused code: a code works once and none of an earlier step after it, and one step of
   * drift is allowed, so a step ahead of the clock is used, or the clock is waited for.
   */
  let lastStep = 0
  async function nextCode(): Promise<string> {
    const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1)
    while (Math.floor(Date.now() / 30_000) < step - 1) await new Promise((wait) => setTimeout(wait, 250))
    lastStep = step
    return new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: step * 30_000 })
  }

  async function answerWithCode() {
    await page.fill('#code', await nextCode())
    await Promise.all([page.waitForURL(landing()), page.click('form:has(#code) button')])
  }

  /** Asks the challenge's options as JSON, lets the authenticator sign them, and posts the assertion. */
  async function answerWithPasskey(): Promise<{ status: number; body: Record<string, unknown> }> {
    return page.evaluate(async (basePath) => {
      const asked = await fetch(`${basePath}/second-factor?factor=webauthn`, {
        headers: { accept: 'application/json' },
      })
      if (!asked.ok) return { status: asked.status, body: (await asked.json()) as Record<string, unknown> }
      const { options } = (await asked.json()) as { options: PublicKeyCredentialRequestOptionsJSON }
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options)
      const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential
      const { csrfToken } = (await (await fetch(`${basePath}/csrf`)).json()) as { csrfToken: string }
      const answered = await fetch(`${basePath}/second-factor`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfToken, factor: 'webauthn', data: JSON.stringify(credential.toJSON()) }),
      })
      return { status: answered.status, body: (await answered.json()) as Record<string, unknown> }
    }, `${base}/auth`)
  }

  it.runIf(canRun)(
    'enrols an authenticator app and a passkey after an e-mail sign-up, then signs out',
    async () => {
      await byEmailLink(email)
      await page.waitForURL(landing())
      expect(await session()).toMatchObject({ user: { email } })

      await page.goto(`${base}/auth/factors`)
      await page.click('text=Add an authenticator app')
      await page.locator('.qr svg[role="img"]').waitFor()
      key = ((await page.locator('.key').textContent()) ?? '').replace(/\s/g, '')
      expect(key).toMatch(/^[A-Z2-7]{16,}$/)
      await page.fill('#code', await nextCode())
      await page.click('text=Confirm')
      await page.locator('ol.codes').waitFor()
      recoveryCodes = (await page.locator('ol.codes li').allTextContents()).map((c) => c.trim())
      expect(recoveryCodes).toHaveLength(10)

      // A passkey for the signed-in user, made by the built-in client script (registration while signed in).
      await page.goto(landing())
      const url = await page.evaluate(
        `(() => { ${passkeyClientSource}\n return passkeySignIn({ provider: 'passkey', action: 'register', callbackUrl: '${landing()}' }) })()`,
      )
      // Adding a passkey is a sign-in of its own (the registration's machine): with an app enrolled, it is challenged.
      expect(url).toBe(`${base}/auth/second-factor`)
      await page.goto(`${base}/auth/second-factor`)
      await answerWithCode()
      expect(await credentials()).toHaveLength(1)
      await signOut()
    },
    90_000,
  )

  it.runIf(canRun)(
    'password: stopped at the challenge, no session until the code',
    async () => {
      await byPassword()
      expect(await session()).toBeNull()
      await page.goto(`${base}/auth/second-factor`)
      await answerWithCode()
      expect(await session()).toMatchObject({ user: { email } })
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'e-mail link: stopped at the challenge, finished with a code',
    async () => {
      await byEmailLink(email)
      await page.waitForURL(/\/auth\/second-factor/)
      expect(await session()).toBeNull()
      await answerWithCode()
      expect(await session()).toMatchObject({ user: { email } })
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'OpenID Connect: stopped at the challenge, finished with a code',
    async () => {
      await byOidc()
      expect(await session()).toBeNull()
      await answerWithCode()
      expect(await session()).toMatchObject({ user: { email } })
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'a recovery code works once; the second time it is refused',
    async () => {
      const [code] = recoveryCodes
      await byPassword()
      await page.click('text=Use a recovery code')
      await page.fill('#recovery', code)
      await Promise.all([page.waitForURL(landing()), page.click('form:has(#recovery) button')])
      expect(await session()).toMatchObject({ user: { email } })
      await signOut()

      await byPassword()
      await page.click('text=Use a recovery code')
      await page.fill('#recovery', code)
      await page.click('form:has(#recovery) button')
      await page.locator('#code-error[role="alert"]').waitFor()
      expect(await session()).toBeNull()
      // The challenge still waits: a code finishes it.
      await answerWithCode()
      expect(await session()).toMatchObject({ user: { email } })
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'a passkey answers the challenge; an assertion made for one stopped sign-in answers no other',
    async () => {
      await byOidc()
      const factors = await page.evaluate(
        async (url) => (await fetch(url, { headers: { accept: 'application/json' } })).json(),
        `${base}/auth/second-factor`,
      )
      expect(factors).toEqual({ factors: ['otp', 'recovery', 'webauthn'] })
      const before = (await credentials())[0].signCount
      const answered = await answerWithPasskey()
      expect(answered).toEqual({ status: 200, body: { url: landing() } })
      expect(await session()).toMatchObject({ user: { email } })
      expect((await credentials())[0].signCount).toBeGreaterThan(before)
      await signOut()

      // The options of sign-in A, signed, posted to sign-in B: refused, and B still waits for an answer.
      await byPassword()
      const stale = await page.evaluate(async (basePath) => {
        const asked = await fetch(`${basePath}/second-factor?factor=webauthn`, {
          headers: { accept: 'application/json' },
        })
        const { options } = (await asked.json()) as { options: PublicKeyCredentialRequestOptionsJSON }
        const credential = (await navigator.credentials.get({
          publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
        })) as PublicKeyCredential
        return JSON.stringify(credential.toJSON())
      }, `${base}/auth`)
      await byPassword()
      const replayed = await page.evaluate(
        async ([basePath, data]) => {
          const { csrfToken } = (await (await fetch(`${basePath}/csrf`)).json()) as { csrfToken: string }
          const answered = await fetch(`${basePath}/second-factor`, {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ csrfToken, factor: 'webauthn', data }),
          })
          return { status: answered.status, body: (await answered.json()) as Record<string, unknown> }
        },
        [`${base}/auth`, stale] as const,
      )
      expect(replayed).toEqual({ status: 401, body: { error: 'InvalidCode', message: 'That code is not valid' } })
      expect(await session()).toBeNull()
      expect((await answerWithPasskey()).status).toBe(200)
      expect(await session()).toMatchObject({ user: { email } })
      expect(refusals).toContain('refused:second-factor-code (wrong recovery answer)')
      expect(refusals.some((r) => r.startsWith('refused:second-factor-code (wrong webauthn answer'))).toBe(true)
      expect(errors).toEqual([])
    },
    60_000,
  )
  it.runIf(canRun)(
    "the challenge page's passkey button answers it (shown again after a wrong code): signed in, the passkey in the amr",
    async () => {
      await byPassword()
      // A mistyped code first: the page that says so still offers the passkey.
      await page.fill('#code', '000000')
      await page.click('form:has(#code) button')
      await page.locator('#code-error[role="alert"]').waitFor()
      const button = passkeyButton()
      await button.waitFor()
      const before = (await credentials())[0].signCount
      await Promise.all([page.waitForURL(landing()), button.click()])
      expect(await session()).toMatchObject({ user: { email } })
      // A password and a device-bound passkey that verified the user: both factors, the passkey as `hwk`.
      expect(await sessionMethods()).toEqual(['hwk', 'mfa', 'pwd', 'user'])
      expect((await credentials())[0].signCount).toBeGreaterThan(before)
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'the button with an assertion from another authenticator: refused, the page shows why, the challenge still waits',
    async () => {
      await withImpostor(async () => {
        await byPassword()
        const refusedBefore = refusals.length
        await passkeyButton().click()
        const alert = page.locator('.passkey p.error[role="alert"]')
        await alert.waitFor()
        expect(await alert.textContent()).toBe(challengeTexts?.passkeyFailed)
        expect(page.url()).toBe(`${base}/auth/second-factor`)
        expect(await session()).toBeNull()
        expect(
          refusals.slice(refusedBefore).some((r) => r.startsWith('refused:second-factor-code (wrong webauthn')),
        ).toBe(true)
      })
      // The challenge still waits: the real passkey, through the same button, finishes it.
      await Promise.all([page.waitForURL(landing()), passkeyButton().click()])
      expect(await session()).toMatchObject({ user: { email } })
      expect(errors).toEqual([])
      await signOut()
    },
    60_000,
  )

  it.runIf(canRun)(
    'five refused answers through the button end the challenge: the browser goes to the error page, as the form would',
    async () => {
      await withImpostor(async () => {
        await byPassword()
        const alert = page.locator('.passkey p.error[role="alert"]')
        for (let attempt = 1; attempt < 5; attempt++) {
          await passkeyButton().click()
          await alert.waitFor()
          await page.locator('.passkey button:not([disabled])').waitFor()
        }
        await Promise.all([page.waitForURL(`${base}/auth/error?error=AccessDenied`), passkeyButton().click()])
        expect(await session()).toBeNull()
        expect(refusals.some((r) => r.startsWith('refused:second-factor-limit'))).toBe(true)
      })
    },
    60_000,
  )
  it.runIf(canRun)(
    'without JavaScript the challenge page is the code forms: no passkey button, and a code finishes the sign-in',
    async () => {
      const plain = await browser.newContext({ javaScriptEnabled: false })
      try {
        const tab = await plain.newPage()
        await tab.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(landing())}`)
        await tab.fill('#input-email-for-credentials', email)
        await tab.fill('#input-password-for-credentials', password)
        await Promise.all([tab.waitForURL(`${base}/auth/second-factor`), tab.click('text=Sign in with Credentials')])
        // The user holds a passkey, so its button is in the page, hidden until a script shows it.
        expect(await tab.locator('[data-passkey-answer]').count()).toBe(1)
        expect(
          await tab.getByRole('button', { name: builtInPageMessages.en?.secondFactor?.usePasskey }).isVisible(),
        ).toBe(false)
        expect(await sessionMethods(plain)).toBeNull()
        await tab.fill('#code', await nextCode())
        await Promise.all([tab.waitForURL(landing()), tab.click('form:has(#code) button')])
        expect(await sessionMethods(plain)).toEqual(['mfa', 'otp', 'pwd'])
      } finally {
        await plain.close()
      }
    },
    60_000,
  )
})
