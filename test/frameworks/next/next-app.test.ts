/**
 * authchart/next and authchart/react in a real Next.js 16 app (App Router, TypeScript): the fixture is written as a
 * next-auth v5 app and moved by rewriting its import specifiers only (rewrite-imports.ts), built by `next build` with
 * Authchart installed from `npm pack` output (kept between runs by next-app.ts), served by `next start`, and driven
 * over HTTP and in headless Chromium. Not here yet: the OIDC sign-in against oidc-provider, PostgreSQL, and the same
 * app run on next-auth itself (see the report of issue #33).
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

let app: BuiltNextApp
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  const tarball = await packAuthchart()
  app = await buildNextApp(tarball)
  console.log(`[next-app] ${app.built ? `installed and built in ${app.seconds.toFixed(0)} s` : 'kept build used'}`)
  const port = await freePort()
  server = await startNextApp(app, port, { AUTH_SECRET: secret, AUTH_URL: `http://127.0.0.1:${port}` })
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is needed (apt-get install chromium)`)
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] })
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await removePackedAuthchart()
})

/** The Server Action id of the sign-in form, as Next renders it for a form without JavaScript. */
async function signInActionId(): Promise<string> {
  const html = await (await fetch(`${server.origin}/`)).text()
  const id = /name="\$ACTION_ID_([0-9a-f]+)"/.exec(html)?.[1]
  if (!id) throw new Error(`no Server Action id in the page:\n${html.slice(0, 2000)}`)
  return id
}

describe('over HTTP', () => {
  it('auth() in a Server Component: nobody without a session', async () => {
    const html = await (await browse(`${server.origin}/`, new CookieJar())).text()
    expect(html).toContain('<p id="server-user">nobody</p>')
  })

  it('the Middleware (proxy.ts) sends a visitor without a session to the sign-in page', async () => {
    const answer = await browse(`${server.origin}/dashboard`, new CookieJar())
    expect(answer.status).toBe(307)
    // Next.js writes a same-origin Location as a path.
    const location = new URL(answer.headers.get('location') ?? '', server.origin)
    expect(location.pathname).toBe('/api/auth/signin')
    expect(location.searchParams.get('callbackUrl')).toBe(`${server.origin}/dashboard`)
  })

  it('the Route Handlers answer under /api/auth', async () => {
    const providers = await fetch(`${server.origin}/api/auth/providers`)
    expect(await providers.json()).toMatchObject({ credentials: { type: 'credentials' } })
  })

  it('refuses a sign-in Server Action posted from another site (whose Host Next.js would accept)', async () => {
    const id = await signInActionId()
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

async function text(page: Page, selector: string): Promise<string> {
  return (await page.textContent(selector)) ?? ''
}

describe('in Chromium', () => {
  it('signs in through a Server Action, reaches the protected page, and useSession follows', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.origin}/`)
    await page.fill('#sign-in input[name=password]', 'wonderland')
    await page.click('#sign-in button')
    await page.waitForURL(`${server.origin}/dashboard`)
    expect(await text(page, '#dashboard-user')).toBe('Alice')
    await page.goto(`${server.origin}/`)
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
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.origin}/`)
    await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'unauthenticated')
    await page.click('#client-bad-sign-in')
    await page.waitForFunction(() => document.querySelector('#client-result')?.textContent?.startsWith('failed:'))
    expect(await text(page, '#client-result')).toBe('failed:CredentialsSignin')
    await page.click('#client-sign-in')
    await page.waitForFunction(() => document.querySelector('#client-user')?.textContent === 'Carol')
    expect(await text(page, '#client-status')).toBe('authenticated')
    await page.click('#client-sign-out')
    await page.waitForFunction(() => document.querySelector('#client-status')?.textContent === 'unauthenticated')
    await page.goto(`${server.origin}/dashboard`)
    expect(new URL(page.url()).pathname).toBe('/api/auth/signin')
    await context.close()
  }, 120_000)
})
