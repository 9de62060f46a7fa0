/**
 * #29 finding 2, the passkey pre-account takeover: signed out, an attacker registers a passkey for an address that has
 * no account yet; the owner of the mailbox later signs up by e-mail link, or by OAuth with
 * `allowDangerousEmailAccountLinking`. The owner must not land in the attacker's user, and the attacker's passkey must
 * never sign in as the owner. And the legitimate passkey-first sign-up keeps working: the person who holds both the
 * passkey and the mailbox proves the address from their own session, after which the address is theirs for every
 * sign-in. Run in-process through `Auth()` and over HTTP through `ExpressAuth` (each party with only its own cookies),
 * with the real SMTP sink, the real OIDC provider and a software authenticator for each person.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import OIDC from '../../src/providers/oidc.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Passkey from '../../src/providers/passkey.js'
import type { AuthConfig } from '../../src/types/index.js'
import { CookieJar, origin as inProcessOrigin, recordingLogger, secret, send } from '../support/auth-harness.js'
import { confirmationFields, HttpBrowser, startHttpSite } from '../support/http-site.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { SoftAuthenticator } from '../support/soft-authenticator.js'

/** One browser: its own cookies, nothing else. */
interface Browser {
  readonly jar: CookieJar
  request(pathOrUrl: string, init?: { form?: Record<string, string> }): Promise<Response>
}

interface Site {
  origin: string
  store: ReturnType<typeof createMemoryStore>
  adapter: ReturnType<typeof MemoryAdapter>
  refusals: () => string[]
  browser(): Browser
  close(): Promise<void>
}

let smtp: SmtpSink
const ops: RunningOidcProvider[] = []

beforeAll(async () => {
  smtp = await startSmtpSink()
})
afterAll(async () => {
  await smtp?.close()
  await Promise.all(ops.map((op) => op.close()))
})

const address = 'future@example.test'

async function siteConfig(origin: string) {
  const op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: 's3cret', redirect_uris: [`${origin}/auth/callback/idp`] }],
    accounts: {
      owner: { name: 'The Owner', email: address, email_verified: true },
      ada: { name: 'Ada', email: 'ada@example.test', email_verified: true },
    },
  })
  ops.push(op)
  const store = createMemoryStore()
  const adapter = MemoryAdapter(store)
  const logger = recordingLogger()
  const config: AuthConfig = {
    secret,
    url: `${origin}/auth`,
    adapter,
    logger: logger.logger,
    session: { strategy: 'jwt' },
    experimental: { enableWebAuthn: true },
    providers: [
      Passkey(),
      Nodemailer({ id: 'email', server: smtp.url, from: 'login@site.test' }),
      OIDC({
        id: 'idp',
        name: 'IdP',
        issuer: op.issuer,
        clientId: 'app',
        clientSecret: 's3cret',
        allowDangerousEmailAccountLinking: true,
      }),
    ],
  }
  return { config, store, adapter, refusals: () => logger.refusals.map((r) => r.code), op }
}

const transports = {
  'in-process (Auth)': async (): Promise<Site & { op: RunningOidcProvider }> => {
    const { config, ...rest } = await siteConfig(inProcessOrigin)
    return {
      ...rest,
      origin: inProcessOrigin,
      browser: () => {
        const jar = new CookieJar()
        return {
          jar,
          request: (pathOrUrl, init = {}) => {
            const url = new URL(pathOrUrl, inProcessOrigin)
            return send(config, `${url.pathname}${url.search}`, { jar, form: init.form })
          },
        }
      },
      close: async () => undefined,
    }
  },
  'over HTTP (ExpressAuth)': async (): Promise<Site & { op: RunningOidcProvider }> => {
    let built: Awaited<ReturnType<typeof siteConfig>> | undefined
    const http = await startHttpSite(async (origin) => {
      built = await siteConfig(origin)
      return built.config
    })
    const { config: _config, ...rest } = built as Awaited<ReturnType<typeof siteConfig>>
    return { ...rest, origin: http.origin, browser: () => new HttpBrowser(http.origin), close: () => http.close() }
  },
}

async function csrf(browser: Browser): Promise<string> {
  return ((await (await browser.request('/auth/csrf')).json()) as { csrfToken: string }).csrfToken
}

async function sessionEmail(browser: Browser): Promise<string | undefined> {
  const body = (await (await browser.request('/auth/session')).json()) as { user?: { email?: string } } | null
  return body?.user?.email
}

/** A passkey ceremony from the sign-in page's point of view: options, the authenticator, the callback. */
async function passkey(site: Site, browser: Browser, authenticator: SoftAuthenticator, query = ''): Promise<Response> {
  const answer = (await (await browser.request(`/auth/webauthn-options/passkey${query}`)).json()) as {
    action: 'register' | 'authenticate'
    options: never
  }
  const data = answer.action === 'register' ? authenticator.create(answer.options) : authenticator.get(answer.options)
  return browser.request('/auth/callback/passkey', {
    form: {
      action: answer.action,
      data: JSON.stringify(data),
      csrfToken: await csrf(browser),
      callbackUrl: `${site.origin}/home`,
    },
  })
}

/** Asks for an e-mail link, follows it and confirms it, as the mailbox's owner does; answers the final redirect. */
async function emailSignIn(site: Site, browser: Browser, email: string): Promise<string | null> {
  const seen = smtp.messages.length
  await browser.request('/auth/signin/email', {
    form: { email, csrfToken: await csrf(browser), callbackUrl: `${site.origin}/home` },
  })
  const mail = await smtp.next(seen)
  expect(mail.envelopeTo).toEqual([email])
  const page = await browser.request(signInLinkOf(mail).href)
  const html = await page.text()
  const action = (/<form action="([^"]+)"/.exec(html)?.[1] as string).replace(/&amp;/g, '&')
  const confirmed = await browser.request(action, { form: confirmationFields(html) })
  return confirmed.headers.get('location')
}

/** Signs in at the OIDC provider as `account` and brings its answer back to the site. */
async function oauthSignIn(site: Site & { op: RunningOidcProvider }, browser: Browser, account: string) {
  const start = await browser.request('/auth/signin/idp', {
    form: { csrfToken: await csrf(browser), callbackUrl: `${site.origin}/home` },
  })
  const result = await site.op.signInAs(start.headers.get('location') as string, account)
  if (result.mode !== 'query') throw new Error('expected a query response')
  const done = await browser.request(`${result.callbackUrl.pathname}${result.callbackUrl.search}`)
  return done.headers.get('location')
}

describe.each(Object.keys(transports) as (keyof typeof transports)[])('passkey pre-account takeover, %s', (name) => {
  let site: Site & { op: RunningOidcProvider }
  afterEach(async () => {
    await site?.close()
  })

  it("the mailbox's owner never lands in a passkey account someone else made for the address", async () => {
    site = await transports[name]()
    const attacker = { browser: site.browser(), authenticator: new SoftAuthenticator(site.origin) }

    // Signed out, no mailbox proof asked: the attacker's passkey makes an account for the owner's future address.
    const squat = await passkey(site, attacker.browser, attacker.authenticator, `?email=${address}`)
    expect(squat.headers.get('location')).toBe(`${site.origin}/home`)
    const squatter = await site.adapter.getUserByEmail(address)
    expect(squatter?.emailVerified).toBeNull()

    // The owner signs up by e-mail link: refused, no session, the squatter's account is not marked verified.
    const owner = site.browser()
    expect(await emailSignIn(site, owner, address)).toContain('error=OAuthAccountNotLinked')
    expect(await sessionEmail(owner)).toBeUndefined()

    // And by OAuth, whose provider allows dangerous e-mail linking: refused too, the account is not linked.
    const ownerOAuth = site.browser()
    expect(await oauthSignIn(site, ownerOAuth, 'owner')).toContain('error=OAuthAccountNotLinked')
    expect(await sessionEmail(ownerOAuth)).toBeUndefined()
    expect(await site.adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'owner' })).toBeNull()

    const after = await site.adapter.getUserByEmail(address)
    expect(after).toMatchObject({ id: squatter!.id, emailVerified: null })
    expect(site.refusals()).toEqual(['refused:unverified-passkey-account', 'refused:unverified-passkey-account'])

    // The attacker's passkey still opens only the account it made, which the owner never entered.
    const again = site.browser()
    expect((await passkey(site, again, attacker.authenticator)).headers.get('location')).toBe(`${site.origin}/home`)
    expect(await sessionEmail(again)).toBe(address)
    expect(await site.adapter.listAuthenticatorsByUserId(squatter!.id)).toHaveLength(1)
  })

  it('passkey-first sign-up works, and proving the address from that session makes it the account for every sign-in', async () => {
    site = await transports[name]()
    const ada = { browser: site.browser(), authenticator: new SoftAuthenticator(site.origin) }
    const email = 'ada@example.test'

    const signedUp = await passkey(site, ada.browser, ada.authenticator, `?email=${email}`)
    expect(signedUp.headers.get('location')).toBe(`${site.origin}/home`)
    expect(await sessionEmail(ada.browser)).toBe(email)
    const user = await site.adapter.getUserByEmail(email)
    expect(user?.emailVerified).toBeNull()

    // Elsewhere, before the address is proven, a link alone does not open the passkey account.
    expect(await emailSignIn(site, site.browser(), email)).toContain('error=OAuthAccountNotLinked')

    // From the passkey's own session the link proves the address: same user, now verified.
    expect(await emailSignIn(site, ada.browser, email)).toBe(`${site.origin}/home`)
    const verified = await site.adapter.getUserByEmail(email)
    expect(verified?.id).toBe(user!.id)
    expect(verified?.emailVerified).toBeInstanceOf(Date)

    // From then on the address is that account's for every sign-in: a link from another browser, OAuth with
    // dangerous linking, and the passkey.
    const laptop = site.browser()
    await emailSignIn(site, laptop, email)
    expect(await sessionEmail(laptop)).toBe(email)
    const viaOAuth = site.browser()
    await oauthSignIn(site, viaOAuth, 'ada')
    expect(await sessionEmail(viaOAuth)).toBe(email)
    expect((await site.adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'ada' }))?.id).toBe(user!.id)
    const phone = site.browser()
    await passkey(site, phone, ada.authenticator)
    expect(await sessionEmail(phone)).toBe(email)
    expect((await site.adapter.getUserByEmail(email))?.id).toBe(user!.id)
  })
})
