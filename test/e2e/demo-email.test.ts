/**
 * The demo app (`npm start`) offers e-mail sign-in with no outside service: the link appears on its development mail
 * page, and following and confirming it signs the user in. Driven over real HTTP on a loopback port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type RunningDemo } from '../../examples/express-demo/app.js'
import { confirmationFields, HttpBrowser } from '../support/http-site.js'

let demo: RunningDemo
let origin: string
const savedSecret = process.env.AUTH_SECRET

beforeAll(async () => {
  process.env.AUTH_SECRET = 'demo-test-secret-of-at-least-32-characters'
  demo = await startDemo({ port: 0, hostname: '127.0.0.1' })
  origin = `http://127.0.0.1:${demo.port}`
})
afterAll(async () => {
  await demo?.close()
  if (savedSecret === undefined) delete process.env.AUTH_SECRET
  else process.env.AUTH_SECRET = savedSecret
})

describe('the demo: e-mail sign-in through the development mail sink', () => {
  it('shows the sent link on /dev/mail; following and confirming it signs the user in', async () => {
    const browser = new HttpBrowser(origin)
    const csrfToken = await browser.csrfToken()
    const requested = await browser.request('/auth/signin/email', {
      form: { email: 'grace@example.com', csrfToken, callbackUrl: '/' },
    })
    expect(requested.headers.get('location')).toBe(`${origin}/auth/verify-request?provider=email&type=email`)

    const mailPage = await (await browser.request('/dev/mail')).text()
    expect(mailPage).toContain('grace@example.com')
    const link = (/<a href="([^"]+)">sign-in link<\/a>/.exec(mailPage)?.[1] as string).replace(/&#38;/g, '&')
    const confirmation = await (await browser.request(link)).text()
    const action = (/<form action="([^"]+)"/.exec(confirmation)?.[1] as string).replace(/&amp;/g, '&')
    const confirmed = await browser.request(action, { form: confirmationFields(confirmation) })
    expect(confirmed.headers.get('location')).toBe(`${origin}/`)
    expect(await (await browser.request('/')).text()).toContain('grace@example.com')
  })
})
