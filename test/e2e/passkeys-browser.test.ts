/**
 * Passkeys in a real browser: Debian's headless Chromium (/usr/bin/chromium, driven by playwright-core; no browser is
 * downloaded) with the DevTools Protocol's virtual authenticator (CTAP2, internal, resident keys, user verification)
 * on http://localhost:<port> (WebAuthn refuses IP-address origins). The built-in sign-in page registers a passkey,
 * the user signs out, signs in with it (button, then browser autofill), and the session holds the user. Runs on the
 * memory adapter and on PostgreSQL (Kysely adapter, scratch schema). Without Chromium the suite is skipped with a
 * reason, except under CI=true.
 */
import { existsSync } from 'node:fs'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { Adapter } from '../../src/types/adapters.js'
import { ExpressAuth } from '../../src/frameworks/express.js'
import Passkey from '../../src/providers/passkey.js'
import { startApp, type RunningApp } from '../frameworks/express-http.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  type ScratchPostgresSchema,
} from '../support/services.js'
import { chromiumArgs, chromiumPath } from '../support/chromium.js'

const inCI = process.env.CI === 'true'
const canRun = existsSync(chromiumPath) || inCI
if (!canRun)
  console.log(
    `[passkeys-browser] ${chromiumPath} not found: skipping the Chromium passkey tests (apt-get install chromium; under CI=true this fails instead)`,
  )

const args = chromiumArgs

let browser: Browser | undefined
beforeAll(async () => {
  if (canRun) browser = await chromium.launch({ executablePath: chromiumPath, args })
})
afterAll(async () => {
  await browser?.close()
})

async function site(adapter: Adapter, conditional: boolean): Promise<RunningApp> {
  return startApp((app) =>
    app.use(
      ExpressAuth({
        secret: 'passkeys-browser-test-secret-at-least-32-chars',
        trustHost: true,
        adapter,
        session: { strategy: 'jwt' },
        experimental: { enableWebAuthn: true },
        providers: [Passkey({ enableConditionalUI: conditional })],
        // The test's own logger: the experimental warning is expected, refusals would fail the assertions below.
        logger: { warn: () => {}, error: () => {}, debug: () => {} },
      }),
    ),
  )
}

/** A fresh browser context with a virtual platform authenticator that verifies the user. */
async function pageWithAuthenticator(): Promise<{
  page: Page
  credentials: () => Promise<Array<{ credentialId: string; signCount: number; isResidentCredential: boolean }>>
}> {
  const context = await (browser as Browser).newContext()
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { page, credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials }
}

async function sessionOf(page: Page, base: string): Promise<{ user?: { email?: string } } | null> {
  try {
    const body: unknown = await page.evaluate(async (url) => (await fetch(url)).text(), `${base}/auth/session`)
    return JSON.parse(String(body)) as { user?: { email?: string } } | null
  } catch (error) {
    throw new Error(`session fetch from ${page.url()} failed`, { cause: error })
  }
}

/** Registers with the button (an unknown e-mail makes Authchart choose registration), then signs out through the built-in page. */
async function registerAndSignOut(page: Page, base: string, landing: string, email: string) {
  await page.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(landing)}`)
  await page.fill('input[name=email]', email)
  await Promise.all([page.waitForURL(landing), page.click('form[data-passkey] button')])
  expect(await sessionOf(page, base)).toMatchObject({ user: { email } })
  await page.goto(`${base}/auth/signout?callbackUrl=${encodeURIComponent(landing)}`)
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/signout')), page.click('form button')])
  await page.waitForLoadState('load')
  expect(await sessionOf(page, base)).toBeNull()
}

function journey(name: string, adapterFor: () => Adapter) {
  it.runIf(canRun)(
    `${name}: registers a passkey on the sign-in page, signs out, signs in with it by the button`,
    async () => {
      const app = await site(adapterFor(), false)
      const base = `http://localhost:${app.port}`
      const landing = `${base}/auth/session`
      try {
        const { page, credentials } = await pageWithAuthenticator()
        const problems: string[] = []
        page.on('pageerror', (e) => problems.push(e.message))
        await registerAndSignOut(page, base, landing, 'ada@example.com')
        const [registered] = await credentials()
        expect(registered?.isResidentCredential).toBe(true)
        // No e-mail typed: the options allow any discoverable passkey, and the one just made answers.
        await page.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(landing)}`)
        await Promise.all([page.waitForURL(landing), page.click('form[data-passkey] button')])
        expect(await sessionOf(page, base)).toMatchObject({ user: { email: 'ada@example.com' } })
        expect((await credentials())[0]?.signCount).toBeGreaterThan(registered.signCount)
        expect(problems).toEqual([])
        await page.context().close()
      } finally {
        await app.close()
      }
    },
    60_000,
  )

  it.runIf(canRun)(
    `${name}: with conditional UI, the passkey offered in autofill signs the user in`,
    async () => {
      const app = await site(adapterFor(), true)
      const base = `http://localhost:${app.port}`
      const landing = `${base}/auth/session`
      try {
        const { page } = await pageWithAuthenticator()
        const optionsRequests: string[] = []
        page.on('request', (r) => {
          if (r.url().includes('/webauthn-options/')) optionsRequests.push(new URL(r.url()).search)
        })
        await registerAndSignOut(page, base, landing, 'grace@example.com')
        optionsRequests.length = 0
        // Nothing clicked: the page's conditional request is answered by the (automatically present) authenticator.
        await page.goto(`${base}/auth/signin?callbackUrl=${encodeURIComponent(landing)}`)
        await page.waitForURL(landing, { timeout: 15_000 })
        expect(optionsRequests).toEqual(['?action=authenticate'])
        expect(await sessionOf(page, base)).toMatchObject({ user: { email: 'grace@example.com' } })
        await page.context().close()
      } finally {
        await app.close()
      }
    },
    60_000,
  )
}

describe('passkeys in Chromium', () => {
  journey('memory adapter', () => MemoryAdapter())
})

let scratch: ScratchPostgresSchema | undefined
let db: Kysely<unknown> | undefined
await describeWithService('postgres', probePostgres, () => {
  describe('passkeys in Chromium on PostgreSQL', () => {
    beforeAll(async () => {
      scratch = await createScratchPostgresSchema()
      db = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url, max: 3 }) }),
      })
      await migrate(db)
    })
    afterAll(async () => {
      await db?.destroy()
      await scratch?.drop()
    })
    journey('PostgreSQL', () => KyselyAdapter(db as Kysely<unknown>))
  })
})
