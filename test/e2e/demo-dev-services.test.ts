/**
 * The demo's development services over real HTTP on loopback: the live flow feed keeps each browser's steps to that
 * browser (keyed by the `authchart-watch` cookie of `createFlowWatch`, fed by `onTransition`), and ignores a cookie it did not make; the
 * development OpenID provider answers discovery for its loopback issuer and turns an unknown interaction into a
 * plain 400 page, never a stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type RunningDemo } from '../../examples/express-demo/app.js'
import { HttpBrowser } from '../support/http-site.js'

let demo: RunningDemo
let origin: string
const savedSecret = process.env.AUTH_SECRET

beforeAll(async () => {
  process.env.AUTH_SECRET = 'demo-services-test-secret-of-at-least-32-chars'
  // No hostname: the demo's own default, which must keep it on this machine.
  demo = await startDemo({ port: 0 })
  origin = `http://127.0.0.1:${demo.port}`
})
afterAll(async () => {
  await demo?.close()
  if (savedSecret === undefined) delete process.env.AUTH_SECRET
  else process.env.AUTH_SECRET = savedSecret
})

it('listens on loopback only unless told otherwise (its mail page shows sign-in links)', () => {
  expect(demo.server.address()).toMatchObject({ address: '127.0.0.1' })
})

interface Step {
  machine: string
  flowId: string
  from: string
  to: string
  event: string
}

async function feed(browser: HttpBrowser): Promise<Step[]> {
  const response = await browser.request('/dev/flow.json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  return ((await response.json()) as { steps: Step[] }).steps
}

async function signInWithCredentials(browser: HttpBrowser): Promise<void> {
  const csrfToken = await browser.csrfToken()
  const answer = await browser.request('/auth/callback/credentials', {
    form: { username: 'ada', password: 'lovelace', csrfToken, callbackUrl: '/' },
  })
  expect(answer.status).toBe(302)
  expect((await browser.session())?.user?.email).toBe('ada@example.com')
}

describe('the live flow feed', () => {
  it("keeps each browser's steps to that browser, from the first to the final state", async () => {
    const ada = new HttpBrowser(origin)
    const other = new HttpBrowser(origin)
    expect(await feed(ada)).toEqual([])
    expect(ada.jar.cookies.get('authchart-watch')).toMatch(/^[A-Za-z0-9_-]{16}$/)
    await feed(other)

    await signInWithCredentials(ada)
    const credentials = (await feed(ada)).filter((s) => s.machine === 'credentials')
    expect(credentials[0]).toMatchObject({ from: 'idle' })
    expect(credentials.at(-1)).toMatchObject({ to: 'signedIn' })
    expect(new Set(credentials.map((s) => s.flowId)).size).toBe(1)
    // Each step starts where the one before ended: the feed is the flow, in order.
    for (let i = 1; i < credentials.length; i++) expect(credentials[i].from).toBe(credentials[i - 1].to)
    expect(await feed(other)).toEqual([])
  })

  it('ignores a cookie it did not make: a fresh id, no steps', async () => {
    const forged = new HttpBrowser(origin)
    forged.jar.cookies.set('authchart-watch', '../../etc/passwd')
    expect(await feed(forged)).toEqual([])
    expect(forged.jar.cookies.get('authchart-watch')).toMatch(/^[A-Za-z0-9_-]{16}$/)
  })
})

describe('the development OpenID provider', () => {
  it('publishes discovery for its loopback issuer', async () => {
    const response = await fetch(`${demo.issuer}/.well-known/openid-configuration`)
    expect(response.status).toBe(200)
    const metadata = (await response.json()) as { issuer: string; authorization_endpoint: string }
    expect(metadata.issuer).toBe(demo.issuer)
    expect(new URL(metadata.authorization_endpoint).hostname).toBe('127.0.0.1')
  })

  it('answers an unknown interaction with a plain 400 page, no stack', async () => {
    const response = await fetch(`${demo.issuer}/interaction/not-a-real-one`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Mallory',
    })
    expect(response.status).toBe(400)
    const text = await response.text()
    expect(text).toContain('expired or is unknown')
    expect(text).not.toMatch(/\bat .+\.(js|ts):\d+/)
  })
})
