/**
 * The HTTP-API e-mail vendors (Resend, SendGrid, Postmark, Mailgun, Forward Email, Loops), each driven through
 * `Auth()` and a real sign-in request. The vendors' clouds cannot be reached from here, so a local node:http server
 * stands in for each API (a stand-in, not the vendor) and checks the request that vendor's API documents: method,
 * path, authentication header and body fields. Each provider's `apiUrl` points it at the stand-in.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import ForwardEmail from '../../src/providers/forwardemail.js'
import Loops from '../../src/providers/loops.js'
import Mailgun from '../../src/providers/mailgun.js'
import Postmark from '../../src/providers/postmark.js'
import type { EmailConfig } from '../../src/types/providers.js'
import Resend from '../../src/providers/resend.js'
import SendGrid from '../../src/providers/sendgrid.js'
import { CookieJar, csrfToken, origin, recordingLogger, secret, send } from '../support/auth-harness.js'
import { readRequestBody } from '../support/read-request-body.js'

interface Received {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

let server: Server
let apiUrl: string
const received: Received[] = []
let answerStatus = 200

beforeAll(async () => {
  server = createServer((req, res) => {
    void readRequestBody(req).then((body) => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      res
        .writeHead(answerStatus, { 'content-type': 'application/json' })
        .end(answerStatus === 200 ? '{"id":"msg-1"}' : '{"message":"refused"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})
afterEach(() => {
  received.length = 0
  answerStatus = 200
  delete process.env.AUTH_RESEND_KEY
})

/** Asks for a sign-in link for `email` with `provider`; answers the redirect's Location. */
async function requestLink(provider: EmailConfig, email = 'ada@example.com') {
  const recorded = recordingLogger()
  const config = {
    secret,
    trustHost: true,
    url: `${origin}/auth`,
    adapter: MemoryAdapter(),
    logger: recorded.logger,
    providers: [provider],
  }
  const jar = new CookieJar()
  const response = await send(config, `/auth/signin/${provider.id}`, {
    jar,
    form: { email, csrfToken: await csrfToken(config, jar) },
  })
  return { location: response.headers.get('location'), recorded }
}

function onlyRequest(): Received {
  expect(received).toHaveLength(1)
  return received[0]
}

/** The link in a body: one sign-in URL for this site with a 64-hex token. */
function expectLink(text: string): void {
  expect(text).toMatch(
    new RegExp(`${origin}/auth/callback/\\w+\\?callbackUrl=[^"\\s]+token=[0-9a-f]{64}`.replace(/\//g, '\\/')),
  )
}

describe('HTTP-API e-mail vendors, against a local stand-in of each API', () => {
  it('Resend: POST /emails, Bearer key, JSON from/to/subject/html/text', async () => {
    const { location } = await requestLink(Resend({ apiKey: 're_test', apiUrl, from: 'Site <login@site.test>' }))
    expect(location).toBe(`${origin}/auth/verify-request?provider=resend&type=email`)
    const request = onlyRequest()
    expect([request.method, request.path, request.headers.authorization]).toEqual(['POST', '/emails', 'Bearer re_test'])
    const body = JSON.parse(request.body) as Record<string, string>
    expect(body).toMatchObject({
      from: 'Site <login@site.test>',
      to: 'ada@example.com',
      subject: 'Sign in to localhost:3000',
    })
    expectLink(body.html)
    expectLink(body.text)
  })

  it('Resend reads AUTH_RESEND_KEY when no apiKey is given, as Auth.js does', async () => {
    process.env.AUTH_RESEND_KEY = 're_from_env'
    await requestLink(Resend({ apiUrl }))
    expect(onlyRequest().headers.authorization).toBe('Bearer re_from_env')
  })

  it('SendGrid: POST /v3/mail/send, Bearer key, personalizations and text/plain before text/html', async () => {
    await requestLink(SendGrid({ apiKey: 'SG.test', apiUrl, from: 'login@site.test' }))
    const request = onlyRequest()
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/v3/mail/send',
      'Bearer SG.test',
    ])
    const body = JSON.parse(request.body) as {
      personalizations: unknown
      from: unknown
      subject: string
      content: Array<{ type: string; value: string }>
    }
    expect(body.personalizations).toEqual([{ to: [{ email: 'ada@example.com' }] }])
    expect(body.from).toEqual({ email: 'login@site.test' })
    expect(body.content.map((c) => c.type)).toEqual(['text/plain', 'text/html'])
    for (const part of body.content) expectLink(part.value)
  })

  it('Postmark: POST /email, X-Postmark-Server-Token, PascalCase fields on the outbound stream', async () => {
    await requestLink(Postmark({ apiKey: 'pm-token', apiUrl, from: 'login@site.test' }))
    const request = onlyRequest()
    expect([request.method, request.path, request.headers['x-postmark-server-token']]).toEqual([
      'POST',
      '/email',
      'pm-token',
    ])
    const body = JSON.parse(request.body) as Record<string, string>
    expect(body).toMatchObject({ From: 'login@site.test', To: 'ada@example.com', MessageStream: 'outbound' })
    expectLink(body.HtmlBody)
    expectLink(body.TextBody)
  })

  it('Mailgun: POST /v3/<domain of from>/messages, Basic api:<key>, multipart form', async () => {
    await requestLink(Mailgun({ apiKey: 'key-mg', apiUrl, from: 'Site <login@mg.site.test>' }))
    const request = onlyRequest()
    expect([request.method, request.path]).toEqual(['POST', '/v3/mg.site.test/messages'])
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('api:key-mg').toString('base64')}`)
    expect(String(request.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/)
    const form = await new Response(request.body, {
      headers: { 'content-type': String(request.headers['content-type']) },
    }).formData()
    expect(form.get('to')).toBe('ada@example.com')
    expect(form.get('from')).toBe('Site <login@mg.site.test>')
    expectLink(form.get('html') as string)
    expectLink(form.get('text') as string)
  })

  it('Forward Email: POST /v1/emails, Basic with the key as user name, JSON message', async () => {
    await requestLink(ForwardEmail({ apiKey: 'fe-key', apiUrl, from: 'login@site.test' }))
    const request = onlyRequest()
    expect([request.method, request.path]).toEqual(['POST', '/v1/emails'])
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('fe-key:').toString('base64')}`)
    const body = JSON.parse(request.body) as Record<string, string>
    expect(body).toMatchObject({ from: 'login@site.test', to: 'ada@example.com' })
    expectLink(body.html)
  })

  it('Loops: POST /api/v1/transactional, Bearer key, the template id and the link as a data variable', async () => {
    await requestLink(Loops({ apiKey: 'loops-key', apiUrl, transactionalId: 'tmpl_1' }))
    const request = onlyRequest()
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/api/v1/transactional',
      'Bearer loops-key',
    ])
    const body = JSON.parse(request.body) as { transactionalId: string; email: string; dataVariables: { url: string } }
    expect(body.transactionalId).toBe('tmpl_1')
    expect(body.email).toBe('ada@example.com')
    expectLink(body.dataVariables.url)
  })

  it('a vendor refusing the message ends on error=EmailSignin, with the status in the log and no link in it', async () => {
    answerStatus = 401
    const { location, recorded } = await requestLink(Resend({ apiKey: 're_test', apiUrl }))
    expect(location).toBe(`${origin}/auth/signin?error=EmailSignin`)
    const logged = recorded.errors
      .map((e) => `${e.message} ${String((e.cause as { err?: Error } | undefined)?.err?.message)}`)
      .join('\n')
    expect(logged).toContain('Resend answered 401')
    expect(logged).not.toMatch(/token=/)
  })
})
