/**
 * The built-in pages in real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core; no browser is
 * downloaded), served over HTTP by Express on loopback. Every page, in light and dark mode, at desktop (1280 wide)
 * and phone (375 wide, mobile viewport emulation) width:
 * - looks like its baseline screenshot in test/pages/screenshots/ (small tolerance, see screenshot-baseline.ts);
 * - fits the width (no horizontal scroll);
 * - passes axe-core with zero violations;
 * - logs no console error.
 * Dark mode is checked both ways Auth.js offers it: the browser's prefers-color-scheme with `theme.colorScheme`
 * 'auto' (the default), and `theme.colorScheme` forcing a scheme against the browser's preference. The sign-in page
 * is also shot in each built-in language, chosen by the browser's language. Without Chromium the suite is skipped
 * with a reason, except under CI=true.
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtInPageMessages } from '../../src/pages/messages.js'
import type { Theme } from '../../src/types/index.js'
import type { HttpSite } from '../support/http-site.js'
import { axeViolations, describeViolations } from './axe.js'
import { HttpBrowser, startHttpSite } from '../support/http-site.js'
import { builtInPages, pagesConfig, startPageSite, type BuiltInPage, type ProviderSet } from './page-sites.js'
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import { MemoryAdapter } from '../../adapters/memory.js'
import { compareWithBaseline } from './screenshot-baseline.js'
import { Secret, TOTP } from 'otpauth'
import { chromiumArgs, chromiumPath } from '../support/chromium.js'

const inCI = process.env.CI === 'true'
const canRun = existsSync(chromiumPath) || inCI
if (!canRun)
  console.log(
    `[pages-browser] ${chromiumPath} not found: skipping the page screenshots and audits (apt-get install chromium; under CI=true this fails instead)`,
  )

const args = [
  ...chromiumArgs,
  // The same colours and glyph shapes on every run: screenshots are compared pixel by pixel.
  '--force-color-profile=srgb',
  '--font-render-hinting=none',
]

type Device = 'desktop' | 'phone'
type Scheme = 'light' | 'dark'

const devices: Record<Device, BrowserContextOptions> = {
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false },
  // isMobile: Chromium lays a page without a viewport meta out 980 px wide, as a phone does.
  phone: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true },
}

let browser: Browser | undefined
const sites = new Map<string, HttpSite>()

async function site(set: ProviderSet, theme?: Theme): Promise<HttpSite> {
  const key = `${set}:${JSON.stringify(theme ?? {})}`
  let found = sites.get(key)
  if (!found) {
    found = await startPageSite(set, theme)
    sites.set(key, found)
  }
  return found
}

beforeAll(async () => {
  if (canRun) browser = await chromium.launch({ executablePath: chromiumPath, args })
})
afterAll(async () => {
  await browser?.close()
  await Promise.all([...sites.values()].map((s) => s.close()))
})

interface Opened {
  page: Page
  problems: string[]
  close(): Promise<void>
}

/** Opens `page` in a fresh context (no cookies) at the given width, colour-scheme preference and language. */
async function open(
  target: BuiltInPage,
  options: { device: Device; scheme: Scheme; locale?: string; theme?: Theme },
): Promise<Opened> {
  const { origin } = await site(target.set, options.theme)
  const context = await (browser as Browser).newContext({
    ...devices[options.device],
    deviceScaleFactor: 1,
    colorScheme: options.scheme,
    locale: options.locale ?? 'en-US',
  })
  const page = await context.newPage()
  const problems: string[] = []
  const url = `${origin}${target.path}`
  // Failed loads are read from the responses (the console only says "Failed to load resource", without the URL). The
  // page itself may come with an error status (the error page does), and the site has no favicon.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`)
  })
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname
    if (response.status() >= 400 && response.url() !== url && path !== '/favicon.ico')
      problems.push(`${response.status()} for ${response.url()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  const response = await page.goto(url)
  expect(response?.status(), `${target.path} answers`).toBe(target.status ?? 200)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  return { page, problems, close: () => context.close() }
}

/** Takes the screenshot `name` and compares it with its baseline; the tolerance is a share of the card's area. */
async function expectLikeBaseline(
  page: Page,
  name: string,
  options: { comparesOnly?: boolean; mask?: string } = {},
): Promise<void> {
  // `mask`: parts that differ on every run (times) are painted over as one box, so the rest is still compared.
  const mask = options.mask ? [page.locator(options.mask)] : []
  const png = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide', mask })
  const box = await page.locator('main').boundingBox()
  expect(box, 'the page has a <main> card').not.toBeNull()
  const area = Math.round((box?.width ?? 0) * (box?.height ?? 0))
  const result = compareWithBaseline(name, png, area, options)
  expect(
    result.differentPixels,
    `${name}.png: ${result.differentPixels} pixels differ, ${result.allowedPixels} allowed (actual and diff in test-artifacts/pages/)`,
  ).toBeLessThanOrEqual(result.allowedPixels)
}

/** No horizontal scroll: the document is no wider than the viewport the device has. */
async function expectFitsWidth(page: Page, device: Device): Promise<void> {
  const width = devices[device].viewport?.width as number
  const measured = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(measured).toEqual({ scrollWidth: width, innerWidth: width })
}

async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page)
  expect(violations, describeViolations(violations)).toEqual([])
}

/** Relative luminance (WCAG) of a computed `rgb()` / `rgba()` colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)
}

/** The computed colours of the parts dark mode must reach: page, card, a text field, a provider button. */
async function colours(page: Page) {
  return page.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector) as Element)
    const input = style('input[name=username]')
    const provider = style('button.provider')
    return {
      body: style('body').backgroundColor,
      card: style('main').backgroundColor,
      inputBackground: input.backgroundColor,
      inputText: input.color,
      providerBackground: provider.backgroundColor,
      providerText: provider.color,
    }
  })
}

const signIn = builtInPages.find((p) => p.name === 'signin') as BuiltInPage

describe.runIf(canRun)('built-in pages in Chromium', () => {
  for (const target of builtInPages) {
    describe(target.name, () => {
      for (const device of ['desktop', 'phone'] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          it(`${device}, ${scheme}: like its baseline, fits the width, no axe violation`, async () => {
            const opened = await open(target, { device, scheme })
            try {
              await expectLikeBaseline(opened.page, `${target.name}-${device}-${scheme}`)
              await expectFitsWidth(opened.page, device)
              await expectAccessible(opened.page)
              expect(opened.problems).toEqual([])
            } finally {
              await opened.close()
            }
          })
        }
      }

      // theme.colorScheme wins over the browser's preference: the forced page looks like the preferred one.
      for (const forced of ['light', 'dark'] as const) {
        it(`theme.colorScheme '${forced}' against a browser that prefers the other: same look, no axe violation`, async () => {
          const other = forced === 'dark' ? 'light' : 'dark'
          const opened = await open(target, { device: 'desktop', scheme: other, theme: { colorScheme: forced } })
          try {
            await expectLikeBaseline(opened.page, `${target.name}-desktop-${forced}`, { comparesOnly: true })
            await expectAccessible(opened.page)
          } finally {
            await opened.close()
          }
        })
      }
    })
  }

  it('the comparison catches a changed word: "Sign out" → "Log out" does not pass as the baseline', async () => {
    const signOut = builtInPages.find((p) => p.name === 'signout') as BuiltInPage
    const theme: Theme = { locales: { en: { signOutButton: 'Log out' } } }
    const opened = await open(signOut, { device: 'desktop', scheme: 'light', theme })
    try {
      const png = await opened.page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' })
      const box = await opened.page.locator('main').boundingBox()
      const area = Math.round((box?.width ?? 0) * (box?.height ?? 0))
      const result = compareWithBaseline('signout-desktop-light', png, area, {
        comparesOnly: true,
        keepFailures: false,
      })
      expect(result.differentPixels).toBeGreaterThan(result.allowedPixels)
    } finally {
      await opened.close()
    }
  })

  it('dark mode reaches the fields and buttons, not only the background', async () => {
    const ways: Array<{ scheme: Scheme; theme?: Theme }> = [
      { scheme: 'dark' },
      { scheme: 'light', theme: { colorScheme: 'dark' } },
    ]
    for (const way of ways) {
      const opened = await open(signIn, { device: 'desktop', ...way })
      try {
        const c = await colours(opened.page)
        for (const surface of [c.body, c.card, c.inputBackground, c.providerBackground])
          expect(luminance(surface), `${JSON.stringify(way)}: ${JSON.stringify(c)}`).toBeLessThan(0.05)
        for (const text of [c.inputText, c.providerText]) expect(luminance(text)).toBeGreaterThan(0.7)
      } finally {
        await opened.close()
      }
    }
    const light = await open(signIn, { device: 'desktop', scheme: 'light' })
    try {
      const c = await colours(light.page)
      for (const surface of [c.card, c.inputBackground, c.providerBackground]) expect(luminance(surface)).toBe(1)
    } finally {
      await light.close()
    }
  })

  describe('the sign-in page in each built-in language, chosen by the browser', () => {
    for (const [lang, browserLocale] of [
      ['fr', 'fr-FR'],
      ['de', 'de-DE'],
      ['es', 'es-ES'],
      ['ja', 'ja-JP'],
    ] as const) {
      it(`${browserLocale}: <html lang="${lang}">, its texts, like its baseline at phone width, no axe violation`, async () => {
        const opened = await open(signIn, { device: 'phone', scheme: 'light', locale: browserLocale })
        try {
          const messages = builtInPageMessages[lang]
          expect(await opened.page.getAttribute('html', 'lang')).toBe(lang)
          expect(await opened.page.locator('h1').textContent()).toBe(messages?.signInTitle)
          expect(await opened.page.title()).toBe(messages?.signInTitle)
          await expectLikeBaseline(opened.page, `signin-phone-light-${lang}`)
          await expectFitsWidth(opened.page, 'phone')
          await expectAccessible(opened.page)
          expect(opened.problems).toEqual([])
        } finally {
          await opened.close()
        }
      })
    }
  })

  describe('the sessions page (session management), signed in on three devices', () => {
    const userAgents = {
      here: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      phone:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      laptop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    }

    /** A site whose one user has signed in on a phone, a laptop and (last) this browser; its session cookie. */
    async function signedInSite() {
      const site = await startHttpSite(() =>
        pagesConfig('credentials', {
          providers: [
            Credentials({
              credentials: { username: { label: 'Username' } },
              authorize: () => ({ id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }),
            }),
          ],
          sessionManagement: { store: new MemorySessionStore() },
        }),
      )
      let here: HttpBrowser | undefined
      for (const device of ['laptop', 'phone', 'here'] as const) {
        const client = new HttpBrowser(site.origin)
        const headers = { 'user-agent': userAgents[device] }
        const csrfToken = await client.csrfToken()
        await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada' }, headers })
        // Distinct sign-in times, so the list's order (most recently seen first) is the same on every run.
        await new Promise((resolve) => setTimeout(resolve, 5))
        here = client
      }
      const cookie = here?.jar.cookies.get('authjs.session-token')
      expect(cookie, 'signed in').toBeTruthy()
      return { site, cookie: cookie ?? '' }
    }

    for (const device of ['desktop', 'phone'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        it(`${device}, ${scheme}: like its baseline (times masked), fits the width, no axe violation`, async () => {
          const { site, cookie } = await signedInSite()
          const context = await (browser as Browser).newContext({
            ...devices[device],
            deviceScaleFactor: 1,
            colorScheme: scheme,
            locale: 'en-US',
            userAgent: userAgents.here,
          })
          try {
            await context.addCookies([{ name: 'authjs.session-token', value: cookie, url: site.origin }])
            const page = await context.newPage()
            const problems: string[] = []
            page.on('pageerror', (error) => problems.push(error.message))
            const response = await page.goto(`${site.origin}/auth/sessions`)
            expect(response?.status()).toBe(200)
            await page.evaluate(() => document.fonts.ready.then(() => undefined))
            // This device first, then the others by when they were last seen; a sign-out form for each other one.
            const headings = await page.locator('ul.sessions .device').allTextContents()
            expect(headings).toHaveLength(3)
            expect(headings[0]).toContain('Chrome on Linux')
            expect(headings.slice(1).join(' ')).toMatch(/Safari on iOS.*Firefox on Windows/)
            expect(await page.locator('ul.sessions form').count()).toBe(2)
            await expectLikeBaseline(page, `sessions-${device}-${scheme}`, { mask: '.facts' })
            await expectFitsWidth(page, device)
            await expectAccessible(page)
            expect(problems).toEqual([])
          } finally {
            await context.close()
            await site.close()
          }
        })
      }
    }
  })

  describe('the second-factor pages: enrolment, recovery codes, challenge (without and with a passkey)', () => {
    const locales = [
      ['en', 'en-US'],
      ['fr', 'fr-FR'],
      ['de', 'de-DE'],
      ['es', 'es-ES'],
      ['ja', 'ja-JP'],
    ] as const
    /** What an authenticator app shows now for `key` (as the page shows it, in groups). */
    const appCode = (key: string, offsetSteps = 0) =>
      new TOTP({ secret: Secret.fromBase32(key.replace(/ /g, '')) }).generate({
        timestamp: Date.now() + offsetSteps * 30_000,
      })

    /**
     * A site whose credentials sign in Ada, with a memory adapter that stores factors (and passkeys: the passkey
     * provider lets a passkey answer the challenge; no autofill request on the sign-in page the test goes through).
     */
    function factorSite(adapter = MemoryAdapter()) {
      return startHttpSite(() =>
        pagesConfig('credentials', {
          adapter,
          providers: [
            Credentials({
              credentials: { username: { label: 'Username' } },
              authorize: () => ({ id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }),
            }),
            Passkey({ enableConditionalUI: false }),
          ],
        }),
      )
    }

    async function newPage(origin: string, device: Device, scheme: Scheme, locale: string) {
      const context = await (browser as Browser).newContext({
        ...devices[device],
        deviceScaleFactor: 1,
        colorScheme: scheme,
        locale,
      })
      const page = await context.newPage()
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      // Signed in through the browser itself, as Ada.
      await page.goto(`${origin}/auth/signin`)
      await page.locator('#input-username-for-credentials').fill('ada')
      await page.locator('form[action$="/callback/credentials"] button[type=submit]').click()
      await page.waitForURL(`${origin}/`)
      return { page, problems, context }
    }

    async function checked(page: Page, name: string, device: Device, mask: string): Promise<void> {
      await page.evaluate(() => document.fonts.ready.then(() => undefined))
      await expectLikeBaseline(page, name, { mask })
      await expectFitsWidth(page, device)
      await expectAccessible(page)
    }

    const cases = [
      ...(['desktop', 'phone'] as const).flatMap((device) =>
        (['light', 'dark'] as const).map((scheme) => ({ device, scheme, lang: 'en', locale: 'en-US' })),
      ),
      ...locales
        .slice(1)
        .map(([lang, locale]) => ({ device: 'phone' as const, scheme: 'light' as const, lang, locale })),
    ]
    for (const { device, scheme, lang, locale } of cases) {
      const suffix = `${device}-${scheme}${lang === 'en' ? '' : `-${lang}`}`
      it(`${locale}, ${device}, ${scheme}: each page in its language, like its baseline (secrets masked), fits, no axe violation`, async () => {
        const adapter = MemoryAdapter()
        const site = await factorSite(adapter)
        const { page, problems, context } = await newPage(site.origin, device, scheme, locale)
        try {
          const factors = builtInPageMessages[lang]?.factors
          const challenge = builtInPageMessages[lang]?.secondFactor
          // Enrolment: the QR code and the key, then the first code.
          await page.goto(`${site.origin}/auth/factors`)
          await page.locator('input[name=intent][value=start] ~ button').click()
          await page.waitForSelector('.qr svg')
          expect(await page.getAttribute('html', 'lang')).toBe(lang)
          expect(await page.locator('h1').textContent()).toBe(factors?.enrolTitle)
          await checked(page, `factor-enrol-${suffix}`, device, '.qr, .key')
          const key = (await page.locator('.key').textContent()) ?? ''
          await page.locator('#code').fill(appCode(key))
          await page.locator('form button[type=submit]').first().click()
          // Recovery codes, shown once.
          await page.waitForSelector('ol.codes')
          expect(await page.locator('h1').textContent()).toBe(factors?.codesTitle)
          expect(await page.locator('ol.codes li').count()).toBe(10)
          await checked(page, `factor-codes-${suffix}`, device, 'ol.codes')
          // Signed out and in again: the challenge, with its recovery-code form.
          await context.clearCookies()
          await page.goto(`${site.origin}/auth/signin`)
          await page.locator('#input-username-for-credentials').fill('ada')
          await page.locator('form[action$="/callback/credentials"] button[type=submit]').click()
          await page.waitForURL(`${site.origin}/auth/second-factor`)
          expect(await page.locator('h1').textContent()).toBe(challenge?.title)
          await checked(page, `factor-challenge-${suffix}`, device, 'input[type=hidden]')
          expect(await page.locator('[data-passkey-answer]').count()).toBe(0)
          // Once Ada holds a passkey (stored as a registration would store it; test/e2e/second-factor-browser-postgres
          // answers with a real one), the challenge offers it.
          await adapter.createAuthenticator?.({
            credentialID: 'cGFnZXMtdGVzdC1wYXNza2V5',
            userId: 'ada',
            providerAccountId: 'cGFnZXMtdGVzdC1wYXNza2V5',
            credentialPublicKey: 'pQECAyYgASFYIA',
            counter: 0,
            credentialDeviceType: 'singleDevice',
            credentialBackedUp: false,
            transports: 'internal',
          })
          await page.reload()
          await page.getByRole('button', { name: challenge?.usePasskey }).waitFor()
          await checked(page, `factor-challenge-passkey-${suffix}`, device, 'input[type=hidden]')
          await page.locator('#code').fill(appCode(key, 1))
          await page.locator('#code').press('Enter')
          await page.waitForURL(`${site.origin}/`)
          expect(problems).toEqual([])
        } finally {
          await context.close()
          await site.close()
        }
        // Four pages, each shot and audited, on a shared two-core machine.
      }, 120_000)
    }
  })
})
