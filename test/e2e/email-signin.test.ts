/**
 * E-mail link sign-in end to end over real HTTP: Authchart behind Express on a loopback port, nodemailer delivering
 * to a real SMTP server (`smtp-server`) on another, `mailparser` reading what arrived. The link is taken from the
 * delivered message, followed (the confirmation page, which consumes nothing) and confirmed. Run on the memory
 * adapter, PostgreSQL (KyselyAdapter in a scratch schema) and Redis (RedisAdapter under a scratch prefix); the stored
 * verification tokens are read from each store directly, never through the adapter.
 */
import { Redis } from 'ioredis'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import { RedisAdapter } from '../../adapters/redis.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { Adapter } from '../../src/types/adapters.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import type { AuthConfig } from '../../src/types/index.js'
import { deleteKeysWithPrefix } from '../adapters/redis-keys-cleanup.js'
import { recordingLogger, secret } from '../support/auth-harness.js'
import { confirmationFields, HttpBrowser, startHttpSite, type HttpSite } from '../support/http-site.js'
import {
  createScratchPostgresSchema,
  describeWithService,
  probePostgres,
  probeRedis,
  redisUrl,
  scratchName,
  type ServiceProbe,
} from '../support/services.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'

const sessionCookie = 'authjs.session-token'

interface StoredToken {
  identifier: string
  token: string
}

interface OpenedStore {
  adapter: Adapter
  /** Every verification token the store holds, read past the adapter. */
  tokens(): Promise<StoredToken[]>
  close(): Promise<void>
}

interface Backend {
  name: string
  probe: ServiceProbe
  open(): Promise<OpenedStore>
}

const backends: Backend[] = [
  {
    name: 'memory adapter',
    probe: async () => {},
    async open() {
      const store = createMemoryStore()
      return {
        adapter: MemoryAdapter(store),
        tokens: async () =>
          [...store.verificationTokens.values()].map(({ identifier, token }) => ({ identifier, token })),
        close: async () => {},
      }
    },
  },
  {
    name: 'PostgreSQL (KyselyAdapter)',
    probe: probePostgres,
    async open() {
      const scratch = await createScratchPostgresSchema()
      const pool = new pg.Pool({ connectionString: scratch.url, max: 10 })
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
      await migrate(db)
      return {
        adapter: KyselyAdapter(db),
        tokens: async () => (await pool.query<StoredToken>('select identifier, token from "VerificationToken"')).rows,
        close: async () => {
          await db.destroy()
          await scratch.drop()
        },
      }
    },
  },
  {
    name: 'Redis (RedisAdapter)',
    probe: probeRedis,
    async open() {
      const client = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 })
      await client.connect()
      const prefix = `${scratchName()}:`
      return {
        adapter: RedisAdapter(client, { prefix }),
        async tokens() {
          const found: StoredToken[] = []
          let cursor = '0'
          do {
            const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}verification-token:*`, 'COUNT', 500)
            for (const key of keys) {
              const value = await client.get(key)
              if (value) found.push(JSON.parse(value) as StoredToken)
            }
            cursor = next
          } while (cursor !== '0')
          return found
        },
        close: async () => {
          await deleteKeysWithPrefix(client, prefix)
          client.disconnect()
        },
      }
    },
  },
]

/** Asks for a link as `browser` and answers the redirect's Location. */
async function requestLink(browser: HttpBrowser, email: string, callbackUrl = '/dashboard'): Promise<string> {
  const csrfToken = await browser.csrfToken()
  const response = await browser.request('/auth/signin/email', { form: { email, csrfToken, callbackUrl } })
  expect(response.status).toBe(302)
  return response.headers.get('location') ?? ''
}

/** Follows a link in `browser` and presses the confirmation page's button. */
async function followAndConfirm(browser: HttpBrowser, link: URL | string): Promise<Response> {
  const page = await browser.request(String(link))
  expect(page.status).toBe(200)
  const html = await page.text()
  const action = /<form action="([^"]+)"/.exec(html)?.[1] as string
  return browser.request(action.replace(/&amp;/g, '&'), { form: confirmationFields(html) })
}

function hasSession(browser: HttpBrowser): boolean {
  return browser.jar.cookies.has(sessionCookie)
}

for (const backend of backends) {
  await describeWithService(backend.name, backend.probe, () => {
    describe(`e-mail link sign-in over HTTP with SMTP delivery (${backend.name})`, () => {
      let smtp: SmtpSink
      let store: OpenedStore
      let site: HttpSite
      let recorded: ReturnType<typeof recordingLogger>

      beforeAll(async () => {
        smtp = await startSmtpSink()
        store = await backend.open()
        recorded = recordingLogger()
        site = await startHttpSite((origin): AuthConfig => ({
          url: `${origin}/auth`,
          secret,
          adapter: store.adapter,
          session: { strategy: 'jwt' },
          logger: recorded.logger,
          providers: [
            Nodemailer({
              id: 'email',
              server: smtp.url,
              from: 'Site <login@site.test>',
              rateLimit: { perAddress: 100, perClient: 1000 },
            }),
          ],
        }))
      })
      afterAll(async () => {
        await site?.close()
        await smtp?.close()
        await store?.close()
      })
      afterEach(() => {
        vi.useRealTimers()
      })

      it('delivers the link by SMTP to the address, and the confirmed link signs the user in on another device', async () => {
        const requester = new HttpBrowser(site.origin)
        const seen = smtp.messages.length
        const location = await requestLink(requester, '  Ada@Example.COM ')
        expect(location).toBe(`${site.origin}/auth/verify-request?provider=email&type=email`)
        const mail = await smtp.next(seen)
        expect(mail.envelopeTo).toEqual(['ada@example.com'])
        expect(mail.parsed.subject).toBe(`Sign in to ${new URL(site.origin).host}`)
        const link = signInLinkOf(mail)
        expect(link.origin + link.pathname).toBe(`${site.origin}/auth/callback/email`)
        expect(link.searchParams.get('email')).toBe('ada@example.com')
        expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/)
        expect((await store.tokens()).filter((t) => t.identifier === 'ada@example.com')).toHaveLength(1)

        // Another device: the person's phone. Following the link shows the page and consumes nothing.
        const phone = new HttpBrowser(site.origin)
        const page = await phone.request(link.href)
        expect(page.status).toBe(200)
        expect(page.headers.get('cache-control')).toBe('no-store')
        expect(page.headers.get('referrer-policy')).toBe('no-referrer')
        expect((await store.tokens()).filter((t) => t.identifier === 'ada@example.com')).toHaveLength(1)
        const html = await page.text()
        const action = (/<form action="([^"]+)"/.exec(html)?.[1] as string).replace(/&amp;/g, '&')
        const confirmed = await phone.request(action, { form: confirmationFields(html) })
        expect(confirmed.status).toBe(302)
        expect(confirmed.headers.get('location')).toBe(`${site.origin}/dashboard`)
        expect(hasSession(phone)).toBe(true)
        expect((await phone.session())?.user?.email).toBe('ada@example.com')
        expect(hasSession(requester)).toBe(false)
        expect((await store.tokens()).filter((t) => t.identifier === 'ada@example.com')).toHaveLength(0)
        const user = await store.adapter.getUserByEmail!('ada@example.com')
        expect(user?.emailVerified).toBeInstanceOf(Date)
      })

      it('a returning user signs in again as the same user, emailVerified kept', async () => {
        let seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'again@example.com')
        const first = new HttpBrowser(site.origin)
        await followAndConfirm(first, signInLinkOf(await smtp.next(seen)))
        const created = await store.adapter.getUserByEmail!('again@example.com')
        seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'again@example.com')
        const second = new HttpBrowser(site.origin)
        const confirmed = await followAndConfirm(second, signInLinkOf(await smtp.next(seen)))
        expect(confirmed.headers.get('location')).toBe(`${site.origin}/dashboard`)
        expect((await second.session())?.user?.email).toBe('again@example.com')
        const after = await store.adapter.getUserByEmail!('again@example.com')
        expect(after?.id).toBe(created?.id)
        expect(after?.emailVerified).toBeInstanceOf(Date)
      })

      it('a link scanner fetching the link three times burns nothing; the person still signs in', async () => {
        const seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'scanned@example.com')
        const link = signInLinkOf(await smtp.next(seen))
        for (let i = 0; i < 3; i++) {
          const scanner = await fetch(link.href, { redirect: 'manual' })
          expect(scanner.status).toBe(200)
        }
        expect((await store.tokens()).filter((t) => t.identifier === 'scanned@example.com')).toHaveLength(1)
        const person = new HttpBrowser(site.origin)
        await followAndConfirm(person, link)
        expect((await person.session())?.user?.email).toBe('scanned@example.com')
      })

      it('50 concurrent confirmations of one link give exactly one session; the others land on error=Verification', async () => {
        const seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'race@example.com')
        const link = signInLinkOf(await smtp.next(seen))
        const browsers = Array.from({ length: 50 }, () => new HttpBrowser(site.origin))
        const forms = await Promise.all(
          browsers.map(async (browser) => {
            const html = await (await browser.request(link.href)).text()
            return {
              browser,
              action: (/<form action="([^"]+)"/.exec(html)?.[1] as string).replace(/&amp;/g, '&'),
              fields: confirmationFields(html),
            }
          }),
        )
        const responses = await Promise.all(
          forms.map(({ browser, action, fields }) => browser.request(action, { form: fields })),
        )
        const locations = responses.map((r) => r.headers.get('location') ?? '')
        expect(locations.filter((l) => l === `${site.origin}/dashboard`)).toHaveLength(1)
        expect(locations.filter((l) => l === `${site.origin}/auth/error?error=Verification`)).toHaveLength(49)
        expect(browsers.filter(hasSession)).toHaveLength(1)
        expect((await store.tokens()).filter((t) => t.identifier === 'race@example.com')).toHaveLength(0)
      })

      it('refuses an expired link (controlled clock): no session, and the token is used up', async () => {
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
        const seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'late@example.com')
        const link = signInLinkOf(await smtp.next(seen))
        vi.setSystemTime(Date.now() + 24 * 3600 * 1000 + 1000)
        const browser = new HttpBrowser(site.origin)
        const response = await followAndConfirm(browser, link)
        expect(response.headers.get('location')).toBe(`${site.origin}/auth/error?error=Verification`)
        expect(hasSession(browser)).toBe(false)
        expect((await store.tokens()).filter((t) => t.identifier === 'late@example.com')).toHaveLength(0)
        expect(
          recorded.refusals.some((r) => r.code === 'refused:verification-token' && r.detail.reason === 'token expired'),
        ).toBe(true)
      })

      it("refuses another address's token in a link naming the victim: both tokens stay stored", async () => {
        let seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'victim@example.com')
        const victimLink = signInLinkOf(await smtp.next(seen))
        seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'mallory@example.com')
        const malloryLink = signInLinkOf(await smtp.next(seen))
        const forged = new URL(malloryLink)
        forged.searchParams.set('email', 'victim@example.com')
        const attacker = new HttpBrowser(site.origin)
        const response = await followAndConfirm(attacker, forged)
        expect(response.headers.get('location')).toBe(`${site.origin}/auth/error?error=Verification`)
        expect(hasSession(attacker)).toBe(false)
        const tokens = await store.tokens()
        expect(tokens.filter((t) => t.identifier === 'victim@example.com')).toHaveLength(1)
        expect(tokens.filter((t) => t.identifier === 'mallory@example.com')).toHaveLength(1)
        // The victim's own link is untouched.
        const victim = new HttpBrowser(site.origin)
        await followAndConfirm(victim, victimLink)
        expect((await victim.session())?.user?.email).toBe('victim@example.com')
      })

      it('refuses a tampered token; the real one stays stored and still works', async () => {
        const seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'tamper@example.com')
        const link = signInLinkOf(await smtp.next(seen))
        const tampered = new URL(link)
        const token = link.searchParams.get('token') as string
        tampered.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)
        const browser = new HttpBrowser(site.origin)
        const response = await followAndConfirm(browser, tampered)
        expect(response.headers.get('location')).toBe(`${site.origin}/auth/error?error=Verification`)
        expect(hasSession(browser)).toBe(false)
        expect((await store.tokens()).filter((t) => t.identifier === 'tamper@example.com')).toHaveLength(1)
        await followAndConfirm(browser, link)
        expect((await browser.session())?.user?.email).toBe('tamper@example.com')
      })

      it('refuses a link confirmed a second time: no second session, no token left', async () => {
        const seen = smtp.messages.length
        await requestLink(new HttpBrowser(site.origin), 'twice@example.com')
        const link = signInLinkOf(await smtp.next(seen))
        const first = new HttpBrowser(site.origin)
        await followAndConfirm(first, link)
        expect(hasSession(first)).toBe(true)
        const second = new HttpBrowser(site.origin)
        const again = await followAndConfirm(second, link)
        expect(again.headers.get('location')).toBe(`${site.origin}/auth/error?error=Verification`)
        expect(hasSession(second)).toBe(false)
        expect((await store.tokens()).filter((t) => t.identifier === 'twice@example.com')).toHaveLength(0)
      })
    })
  })
}
