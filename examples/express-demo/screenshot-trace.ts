/**
 * Takes docs/observability-trace.png: an OIDC sign-in through the demo's development OP in headless Chromium
 * (Debian's /usr/bin/chromium through playwright-core), then the demo's `/dev/flow` page, whose trace section shows
 * the sign-in's spans. Run: `npx tsx examples/express-demo/screenshot-trace.ts docs/observability-trace.png`.
 */
import { randomBytes } from 'node:crypto'
import { chromium } from 'playwright-core'
import { startDemo } from './app.js'

process.env.AUTH_SECRET ??= randomBytes(32).toString('base64url')
const out = process.argv[2] ?? 'docs/observability-trace.png'
const demo = await startDemo({ port: 0, traces: true })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${demo.url}/auth/signin`)
  await Promise.all([page.waitForURL(`${demo.issuer}/interaction/**`), page.click('text=Sign in with Dev OP')])
  await page.fill('input[name=name]', 'Grace Hopper')
  await Promise.all([page.waitForURL(`${demo.url}/`), page.click('text=Sign in and allow')])
  await page.goto(`${demo.url}/dev/flow`)
  // The sign-in's trace: both of its requests, the redirect to the OP between them.
  const section = page.locator('.dev-trace[data-machine=oauth]').first()
  await section.scrollIntoViewIfNeeded()
  await section.screenshot({ path: out })
} finally {
  await browser.close()
  await demo.close()
}
