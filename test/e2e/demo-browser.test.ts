/**
 * The demo in a real browser, started exactly as a user starts it: `npm start` in the repository (tsx, not vitest's
 * module loader: the two do not produce the same JavaScript, and a page script once broke under tsx alone), offline: Debian's headless Chromium (/usr/bin/chromium, driven by
 * playwright-core; no browser is downloaded) signs in with every method the demo offers, on its built-in pages:
 * credentials, e-mail through the development mail page, OpenID Connect through the development OP the demo starts
 * on a loopback port, and a passkey made by the DevTools Protocol's virtual authenticator. A second tab keeps the
 * live flow view open and must show the state the browser's flow is in, step by step. Every request the browser
 * makes that is not to a loopback address is aborted and recorded, and the test asserts there were none. Without
 * Chromium the suite is skipped with a reason, except under CI=true.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { Secret, TOTP } from 'otpauth'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { freePort, npm, root } from '../frameworks/support/fixture-app.js'
import { chromiumArgs, chromiumPath } from '../support/chromium.js'

const inCI = process.env.CI === 'true'
const canRun = existsSync(chromiumPath) || inCI
if (!canRun)
  console.log(
    `[demo-browser] ${chromiumPath} not found: skipping the demo's Chromium tests (apt-get install chromium; under CI=true this fails instead)`,
  )

const args = chromiumArgs

/** The demo started by `npm start`: where it is, as it printed it. */
interface StartedDemo {
  url: string
  issuer: string
  output(): string
  stop(): Promise<void>
}

/** Runs `npm start` in the repository on a free loopback port and waits for the lines naming the demo and its OP. */
async function npmStart(): Promise<StartedDemo> {
  const port = await freePort()
  // Its own process group, so that stopping it stops npm's shell, tsx and the server alike.
  const child = spawn(npm, ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH_SECRET: 'demo-browser-test-secret-of-at-least-32-chars',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 60_000
  for (;;) {
    const url = /Authchart demo on (http:\/\/\S+)/.exec(output)?.[1]
    const issuer = /development OpenID provider \(in this process\): (http:\/\/\S+)/.exec(output)?.[1]
    if (url && issuer)
      return {
        url,
        issuer,
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
            process.kill(-child.pid, 'SIGTERM')
            await exited
          }
        },
      }
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm start printed no demo URL within a minute:\n${output}`)
    await new Promise((wait) => setTimeout(wait, 100))
  }
}

let browser: Browser | undefined
let demo: StartedDemo
/** Every request a browser context tried to send beyond loopback (aborted). */
const offLoopback: string[] = []
const contexts: BrowserContext[] = []

beforeAll(async () => {
  if (!canRun) return
  demo = await npmStart()
  browser = await chromium.launch({ executablePath: chromiumPath, args })
}, 90_000)
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
})
afterAll(async () => {
  await browser?.close()
  await demo?.stop()
})

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A fresh browser context whose every non-loopback request is aborted and recorded. */
async function freshContext(): Promise<BrowserContext> {
  const context = await (browser as Browser).newContext()
  contexts.push(context)
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if ((url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname))
      await route.continue()
    else {
      offLoopback.push(url.href)
      await route.abort('blockedbyclient')
    }
  })
  return context
}

async function pageWithErrors(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  return { page, problems }
}

/** What the demo's home page says about who is signed in. */
async function signedInLine(page: Page): Promise<string> {
  await page.goto(`${demo.url}/`)
  return (await page.locator('body > p').first().textContent()) ?? ''
}

/** The live view's marks: the machine and state it highlights, and the steps the feed holds. */
async function liveMarks(live: Page) {
  return live.evaluate(async () => {
    const steps = ((await (await fetch('/dev/flow.json')).json()) as { steps: Array<Record<string, string>> }).steps
    const current = [...document.querySelectorAll<SVGGElement>('.state.current')].map((g) => ({
      machine: g.closest('section')?.dataset.machine,
      state: g.dataset.state,
      awaiting: g.classList.contains('awaiting'),
    }))
    const oauth = document.querySelector('section[data-machine="oauth"]')
    const visited = [...(oauth?.querySelectorAll<SVGGElement>('.state.visited') ?? [])].map((g) => g.dataset.state)
    const taken = [...(oauth?.querySelectorAll<SVGGElement>('.edge.taken') ?? [])].map(
      (g) => `${g.dataset.source}->${g.dataset.target}`,
    )
    // Whether anything fixed or sticky in the page lies over the current state (#36 point 10: the panel covered it).
    const mark = document.querySelector('.state.current')?.getBoundingClientRect()
    const covered = [...document.querySelectorAll<HTMLElement>('aside.live, header')].some((el) => {
      const box = el.getBoundingClientRect()
      const overlaps =
        mark !== undefined &&
        box.left < mark.right &&
        mark.left < box.right &&
        box.top < mark.bottom &&
        mark.top < box.bottom
      return overlaps && getComputedStyle(el).position !== 'static'
    })
    return {
      current,
      steps,
      oauth: { visited, taken },
      status: document.getElementById('live-status')?.textContent ?? '',
      covered,
    }
  })
}

describe('the demo in Chromium, with no network beyond loopback', () => {
  it.runIf(canRun)(
    'credentials: ada / lovelace on the built-in sign-in page',
    async () => {
      const { page, problems } = await pageWithErrors(await freshContext())
      await page.goto(`${demo.url}/auth/signin`)
      await page.fill('#input-username-for-credentials', 'ada')
      await page.fill('#input-password-for-credentials', 'lovelace')
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('text=Sign in with Credentials')])
      expect(await signedInLine(page)).toContain('Signed in as Ada Lovelace (ada@example.com)')
      expect(problems).toEqual([])
    },
    60_000,
  )

  it.runIf(canRun)(
    'TOTP: the home page leads to /auth/factors (QR code and key; one code enrols it), and the next sign-in asks for a code',
    async () => {
      const { page, problems } = await pageWithErrors(await freshContext())
      await page.goto(`${demo.url}/auth/signin`)
      await page.fill('#input-username-for-credentials', 'alan')
      await page.fill('#input-password-for-credentials', 'turing')
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('text=Sign in with Credentials')])
      await Promise.all([page.waitForURL(`${demo.url}/auth/factors`), page.click('text=Second factor')])
      await page.click('text=Add an authenticator app')
      await page.locator('.qr svg[role="img"]').waitFor()
      const key = ((await page.locator('.key').textContent()) ?? '').replace(/\s/g, '')
      expect(key).toMatch(/^[A-Z2-7]{16,}$/)
      // What the user's authenticator app shows for the key it scanned.
      await page.fill('#code', new TOTP({ secret: Secret.fromBase32(key) }).generate())
      await page.click('text=Confirm')
      await page.locator('ol.codes').waitFor()
      expect(await page.locator('h1').textContent()).toBe('Your recovery codes')
      expect(await page.locator('ol.codes li').count()).toBe(10)

      // Signed out and in again: the sign-in stops at the challenge, and the app's next code finishes it (the
      // enrolment spent the current one; one step of drift is allowed).
      await page.goto(`${demo.url}/auth/signout`)
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('form button')])
      await page.goto(`${demo.url}/auth/signin`)
      await page.fill('#input-username-for-credentials', 'alan')
      await page.fill('#input-password-for-credentials', 'turing')
      await Promise.all([page.waitForURL(/\/auth\/second-factor/), page.click('text=Sign in with Credentials')])
      expect(await signedInLine(page)).toContain('You are not signed in')
      await page.goBack()
      await page.fill(
        '#code',
        new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + 30_000 }),
      )
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('form:has(#code) button')])
      expect(await signedInLine(page)).toContain('Signed in as Alan Turing (alan@example.com)')
      expect(problems).toEqual([])
    },
    60_000,
  )

  it.runIf(canRun)(
    'e-mail: the link shown on the development mail page signs the user in',
    async () => {
      const { page, problems } = await pageWithErrors(await freshContext())
      await page.goto(`${demo.url}/auth/signin`)
      await page.fill('#input-email-for-email', 'grace@example.com')
      await Promise.all([page.waitForURL(/\/auth\/verify-request/), page.click('text=Sign in with Email')])
      await page.goto(`${demo.url}/dev/mail`)
      await page.click('li:has-text("grace@example.com") >> text=sign-in link')
      // The link opens a confirmation page (so mail scanners that follow links do not spend it): confirm.
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('form button')])
      expect(await signedInLine(page)).toContain('(grace@example.com)')
      expect(problems).toEqual([])
    },
    60_000,
  )

  it.runIf(canRun)(
    'OpenID Connect: the in-demo OP signs the user in, and the live view follows the flow step by step',
    async () => {
      expect(new URL(demo.issuer).hostname).toBe('127.0.0.1')
      const context = await freshContext()
      const { page, problems } = await pageWithErrors(context)
      // The live view first, in its own tab of the same browser (same demo cookie).
      const { page: live, problems: liveProblems } = await pageWithErrors(context)
      await live.goto(`${demo.url}/dev/flow`)
      await expect.poll(async () => (await liveMarks(live)).status).toContain('No flow yet')

      await page.goto(`${demo.url}/auth/signin`)
      await Promise.all([page.waitForURL(`${demo.issuer}/interaction/**`), page.click('text=Sign in with Dev OP')])
      // Mid-flow: the oauth machine waits for the OP's answer, and the live tab highlights exactly that state.
      await expect
        .poll(async () => (await liveMarks(live)).current)
        .toEqual([{ machine: 'oauth', state: 'awaitingCallback', awaiting: true }])
      expect((await liveMarks(live)).status).toMatch(/of the oauth machine is in state awaitingCallback/)
      expect((await liveMarks(live)).covered).toBe(false)

      await page.fill('input[name=name]', 'Grace Hopper')
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('text=Sign in and allow')])
      expect(await signedInLine(page)).toContain('Signed in as Grace Hopper (grace-hopper@dev-op.test)')

      // After the callback the same flow (one flow id across both requests) went on to signedIn.
      const { steps } = await liveMarks(live)
      const oauthSteps = steps.filter((s) => s.machine === 'oauth')
      expect(new Set(oauthSteps.map((s) => s.flowId)).size).toBe(1)
      expect(oauthSteps.map((s) => s.to)).toContain('awaitingCallback')
      expect(oauthSteps.at(-1)?.to).toBe('signedIn')
      // The home page's session check ran after the callback (a session flow of its own, last in the feed), and the
      // current mark stays on the sign-in the person followed: the check does not take it (#36 point 10).
      expect(steps.at(-1)).toMatchObject({ machine: 'session', event: expect.stringMatching(/^SESSION_/) })
      expect(steps.some((s) => s.machine === 'session' && s.event === 'SESSION_REQUESTED')).toBe(true)
      // The oauth chart keeps the path its flow took.
      await expect
        .poll(async () => (await liveMarks(live)).oauth)
        .toEqual({
          visited: expect.arrayContaining([
            'idle',
            'awaitingCallback',
            'checkingState',
            'checkingAuthorizationResponse',
            'exchangingCode',
            'signedIn',
          ]),
          taken: expect.arrayContaining([
            'awaitingCallback->checkingState',
            'checkingState->checkingAuthorizationResponse',
            'checkingAuthorizationResponse->exchangingCode',
            'completingSignIn.announcingSignIn->signedIn',
          ]),
        })
      await expect
        .poll(async () => (await liveMarks(live)).current)
        .toEqual([{ machine: 'oauth', state: 'signedIn', awaiting: false }])
      expect((await liveMarks(live)).covered).toBe(false)
      expect([...problems, ...liveProblems]).toEqual([])
    },
    60_000,
  )

  it.runIf(canRun)(
    'passkey: a virtual authenticator registers on the sign-in page, and the passkey signs in again after sign-out',
    async () => {
      const context = await freshContext()
      const { page, problems } = await pageWithErrors(context)
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
      await page.goto(`${demo.url}/auth/signin`)
      await page.fill('#input-email-for-passkey', 'katherine@example.com')
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('text=Sign in with Passkey')])
      expect(await signedInLine(page)).toContain('(katherine@example.com)')
      const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
      expect(credential?.isResidentCredential).toBe(true)

      await page.goto(`${demo.url}/auth/signout`)
      await Promise.all([page.waitForURL(`${demo.url}/`), page.click('form button')])
      expect(await signedInLine(page)).toContain('You are not signed in')

      // The demo offers passkeys in autofill (conditional UI): with the authenticator present, opening the sign-in
      // page is enough; nothing is typed.
      await page.goto(`${demo.url}/auth/signin`)
      await page.waitForURL(`${demo.url}/`, { timeout: 15_000 })
      expect(await signedInLine(page)).toContain('(katherine@example.com)')
      const [used] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
      expect(used?.signCount).toBeGreaterThan(credential.signCount)
      expect(problems).toEqual([])
    },
    60_000,
  )

  it.runIf(canRun)('no request left loopback, and the guard that would have caught one works', async () => {
    expect(offLoopback).toEqual([])
    // The guard itself: a request to a reserved name that never resolves is stopped in the browser and recorded.
    const { page } = await pageWithErrors(await freshContext())
    await page.goto(`${demo.url}/`)
    const failed = await page.evaluate(() =>
      fetch('http://offline-probe.invalid/').then(
        () => false,
        () => true,
      ),
    )
    expect(failed).toBe(true)
    expect(offLoopback).toEqual(['http://offline-probe.invalid/'])
  })
})
