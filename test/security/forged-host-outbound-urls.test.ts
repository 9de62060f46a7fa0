/**
 * The origin rule: nothing that leaves the request is built from a request header. With `trustHost` on and no `url`
 * (no AUTH_URL), an attacker asking for a sign-in link for a victim's address with `Host: login.evil.test` used to get
 * the victim a link to the attacker's host (the victim's click, or a mail scanner's prefetch, handed the token over).
 * Now the e-mail provider sends only for a configured or allow-listed origin, in-process and over HTTP through
 * `ExpressAuth` with only the attacker's headers; mail goes to a real SMTP server. A provider logout started under a
 * forged Host names no `post_logout_redirect_uri` (a real OP with RP-initiated logout). The redirect proxy's share
 * of the rule is tested in forged-host-takeover.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { ExpressAuth } from '../../src/frameworks/express.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import OIDC from '../../src/providers/oidc.js'
import type { AuthConfig } from '../../src/types/index.js'
import { http, startApp, type RunningApp } from '../frameworks/express-http.js'
import { CookieJar, csrfToken, origin, recordingLogger, secret, send } from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'

const evilHost = 'login.evil.test'
const evil = `http://${evilHost}`

let smtp: SmtpSink
beforeAll(async () => {
  delete process.env.AUTH_URL
  smtp = await startSmtpSink()
})
afterAll(async () => {
  await smtp?.close()
})

function emailSite(overrides: Partial<AuthConfig> = {}) {
  const recorded = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: recorded.logger,
    session: { strategy: 'jwt' },
    providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'login@site.test' })],
    ...overrides,
  }
  return { config, recorded }
}

async function requestLink(config: AuthConfig, email: string, base: string): Promise<Response> {
  const jar = new CookieJar()
  return send(config, '/auth/signin/email', {
    jar,
    base,
    form: { email, csrfToken: await csrfToken(config, jar, base) },
  })
}

/** Messages delivered since `seen`, after a short wait (none are expected in the negative cases). */
async function deliveredSince(seen: number) {
  await new Promise((resolve) => setTimeout(resolve, 150))
  return smtp.messages.slice(seen)
}

function mentionsEvil(mails: typeof smtp.messages): boolean {
  return mails.some((m) => `${m.parsed.html || ''}${m.parsed.text ?? ''}${m.parsed.subject ?? ''}`.includes(evilHost))
}

describe('the e-mail link under a forged Host, in-process', () => {
  it('without url or allowedOrigins, no link is mailed for any Host; the refusal is logged and start-up says why', async () => {
    const { config, recorded } = emailSite()
    const seen = smtp.messages.length
    const response = await requestLink(config, 'victim@example.test', evil)
    expect(await deliveredSince(seen)).toEqual([])
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('Configuration')
    expect(recorded.refusals).toEqual([
      { code: 'refused:outbound-origin', detail: expect.objectContaining({ provider: 'email', origin: evil }) },
    ])
    expect(recorded.warnings.filter((w) => w === 'email-without-origin')).toHaveLength(1)
  })

  it('with allowedOrigins, the forged Host is refused and the listed origin still gets its link', async () => {
    const { config, recorded } = emailSite({ allowedOrigins: [origin] })
    const seen = smtp.messages.length
    await requestLink(config, 'victim@example.test', evil)
    expect(await deliveredSince(seen)).toEqual([])
    expect(recorded.refusals.map((r) => r.code)).toEqual(['refused:outbound-origin'])

    await requestLink(config, 'owner@example.test', origin)
    const mail = await smtp.next(seen)
    expect(mail.envelopeTo).toEqual(['owner@example.test'])
    expect(signInLinkOf(mail).origin).toBe(origin)
    expect(recorded.warnings).not.toContain('email-without-origin')
  })

  it('with a configured url, the link carries that url whatever Host was sent', async () => {
    const { config } = emailSite({ url: `${origin}/auth` })
    const seen = smtp.messages.length
    await requestLink(config, 'victim@example.test', evil)
    const mail = await smtp.next(seen)
    expect(signInLinkOf(mail).origin).toBe(origin)
    expect(mentionsEvil([mail])).toBe(false)
  })

  it('an allow-list entry that is not an origin is refused at start-up', async () => {
    const { config } = emailSite({ allowedOrigins: ['login.example.test'] })
    const response = await send(config, '/auth/csrf')
    expect(response.status).toBe(500)
  })
})

describe('the e-mail link under a forged Host, over HTTP through ExpressAuth with only the attacker headers', () => {
  let bare: RunningApp
  let listed: RunningApp
  let bareSite: ReturnType<typeof emailSite>
  let listedSite: ReturnType<typeof emailSite>

  beforeAll(async () => {
    bareSite = emailSite()
    listedSite = emailSite({ allowedOrigins: ['http://login.example.test'] })
    bare = await startApp((app) => app.use(ExpressAuth(bareSite.config)))
    listed = await startApp((app) => app.use(ExpressAuth(listedSite.config)))
  })
  afterAll(async () => {
    await bare?.close()
    await listed?.close()
  })

  async function attack(port: number, headers: Record<string, string>) {
    const jar = new CookieJar()
    const csrf = await http(port, '/auth/csrf', { jar, headers })
    const { csrfToken: token } = JSON.parse(csrf.body) as { csrfToken: string }
    return http(port, '/auth/signin/email', {
      jar,
      headers,
      form: { email: 'victim@example.test', csrfToken: token },
    })
  }

  for (const [name, headers] of [
    ['Host', { host: evilHost }],
    ['Host and X-Forwarded-Host/Proto', { host: evilHost, 'x-forwarded-host': evilHost, 'x-forwarded-proto': 'https' }],
  ] as const) {
    it(`no mail carries the attacker's host (${name}), with or without an allow-list`, async () => {
      const seen = smtp.messages.length
      const first = await attack(bare.port, headers)
      const second = await attack(listed.port, headers)
      const mails = await deliveredSince(seen)
      expect(mails).toEqual([])
      expect(mentionsEvil(mails)).toBe(false)
      for (const response of [first, second]) {
        expect(response.status).toBe(302)
        expect(new URL(response.headers.location as string).searchParams.get('error')).toBe('Configuration')
      }
      expect(bareSite.recorded.refusals.at(-1)?.code).toBe('refused:outbound-origin')
      expect(listedSite.recorded.refusals.at(-1)?.code).toBe('refused:outbound-origin')
    })
  }

  it('the allow-listed Host still gets its link', async () => {
    const seen = smtp.messages.length
    const response = await attack(listed.port, { host: 'login.example.test' })
    expect(response.status).toBe(302)
    const mail = await smtp.next(seen)
    expect(signInLinkOf(mail).origin).toBe('http://login.example.test')
  })
})

describe('a provider logout under a forged Host', () => {
  let op: RunningOidcProvider
  beforeAll(async () => {
    op = await startOidcProvider({
      clients: [
        {
          client_id: 'app',
          client_secret: 'app-secret',
          redirect_uris: [`${origin}/auth/callback/idp`],
          post_logout_redirect_uris: [`${origin}/`],
        },
      ],
      features: { rpInitiatedLogout: { enabled: true } },
    })
  })
  afterAll(async () => {
    await op?.close()
  })

  function logoutSite(overrides: Partial<AuthConfig> = {}) {
    const recorded = recordingLogger()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recorded.logger,
      providers: [
        OIDC({
          id: 'idp',
          name: 'IdP',
          issuer: op.issuer,
          clientId: 'app',
          clientSecret: 'app-secret',
          endSessionAtProvider: true,
        }),
      ],
      ...overrides,
    }
    return { config, recorded }
  }

  async function signInThenOutFrom(config: AuthConfig, signOutBase: string) {
    const jar = new CookieJar()
    const start = await send(config, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/home' },
    })
    const result = await op.signInAs(new URL(start.headers.get('location') as string), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    await send(config, `${result.callbackUrl.pathname}${result.callbackUrl.search}`, { jar })
    const signOut = await send(config, '/auth/signout', {
      jar,
      base: signOutBase,
      form: { csrfToken: await csrfToken(config, jar, signOutBase) },
    })
    return new URL(signOut.headers.get('location') as string)
  }

  it('without url or allowedOrigins, the OP is sent no return URL and the refusal is logged', async () => {
    const { config, recorded } = logoutSite()
    const logoutUrl = await signInThenOutFrom(config, evil)
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${op.issuer}/session/end`)
    expect(logoutUrl.searchParams.has('post_logout_redirect_uri')).toBe(false)
    expect(logoutUrl.href).not.toContain(evilHost)
    expect(recorded.refusals).toEqual([
      { code: 'refused:outbound-origin', detail: expect.objectContaining({ provider: 'idp', origin: evil }) },
    ])
  })

  it('an allow-listed origin still sends its return URL', async () => {
    const { config, recorded } = logoutSite({ allowedOrigins: [origin] })
    const logoutUrl = await signInThenOutFrom(config, origin)
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${origin}/`)
    expect(recorded.refusals).toEqual([])
  })
})
