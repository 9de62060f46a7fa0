/**
 * Migration without lost links: a verification token that `@auth/core`'s own e-mail flow wrote into an adapter is
 * accepted by Authchart sharing that adapter and secret. @auth/core is driven for real (its CSRF route, its sign-in
 * route, its nodemailer provider delivering to a real SMTP server); the link it mailed is then followed and
 * confirmed at an Authchart site over HTTP.
 */
import { Auth as AuthjsAuth } from '@auth/core'
import type { Adapter as AuthjsAdapter } from '@auth/core/adapters'
import AuthjsNodemailer from '@auth/core/providers/nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import { secret } from '../support/auth-harness.js'
import { confirmationFields, HttpBrowser, startHttpSite, type HttpSite } from '../support/http-site.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'

let smtp: SmtpSink
let site: HttpSite
const store = createMemoryStore()

beforeAll(async () => {
  smtp = await startSmtpSink()
  site = await startHttpSite((origin) => ({
    url: `${origin}/auth`,
    secret,
    adapter: MemoryAdapter(store),
    session: { strategy: 'jwt' },
    providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'login@site.test' })],
  }))
})
afterAll(async () => {
  await site?.close()
  await smtp?.close()
})

/** Cookies set by an @auth/core response, as a Cookie header. */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

describe('a link mailed by @auth/core, followed at Authchart', () => {
  it('is accepted: the token @auth/core stored in the shared adapter signs the user in once', async () => {
    // @auth/core gets the methods its e-mail request uses, on the very store Authchart reads. (Its AdapterAccount type
    // and ours differ in linkAccount's declared return, so the whole adapter object does not type-check as theirs.)
    const shared = MemoryAdapter(store)
    const adapter: AuthjsAdapter = {
      getUserByEmail: (email) => shared.getUserByEmail(email),
      createVerificationToken: (token) => shared.createVerificationToken(token),
      useVerificationToken: (params) => shared.useVerificationToken(params),
    }
    const authjsConfig = {
      secret,
      trustHost: true,
      basePath: '/auth',
      adapter,
      session: { strategy: 'jwt' as const },
      providers: [AuthjsNodemailer({ id: 'email', server: smtp.url, from: 'login@site.test' })],
    }
    const csrf = await AuthjsAuth(new Request(`${site.origin}/auth/csrf`), authjsConfig)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const seen = smtp.messages.length
    const signIn = await AuthjsAuth(
      new Request(`${site.origin}/auth/signin/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(csrf) },
        body: new URLSearchParams({ email: 'migrated@example.com', csrfToken, callbackUrl: `${site.origin}/welcome` }),
      }),
      authjsConfig,
    )
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get('location')).toContain('/auth/verify-request')
    expect([...store.verificationTokens.values()].map((t) => t.identifier)).toContain('migrated@example.com')

    const link = signInLinkOf(await smtp.next(seen))
    expect(link.origin + link.pathname).toBe(`${site.origin}/auth/callback/email`)
    const browser = new HttpBrowser(site.origin)
    const page = await browser.request(link.href)
    const html = await page.text()
    const action = (/<form action="([^"]+)"/.exec(html)?.[1] as string).replace(/&amp;/g, '&')
    const confirmed = await browser.request(action, { form: confirmationFields(html) })
    expect(confirmed.headers.get('location')).toBe(`${site.origin}/welcome`)
    expect((await browser.session())?.user?.email).toBe('migrated@example.com')
    expect([...store.verificationTokens.values()].filter((t) => t.identifier === 'migrated@example.com')).toHaveLength(
      0,
    )
  })
})
