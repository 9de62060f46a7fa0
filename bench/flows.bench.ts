/**
 * E-mail link and passkey sign-in, Authchart against @auth/core in one process, each with its own in-memory adapter
 * (Authchart's memory adapter; the same code serves both) and a config of the same shape.
 *
 * - E-mail: both use the provider's custom `sendVerificationRequest` (the link is handed to the benchmark instead of
 *   an SMTP server). "Request a link" is `GET /csrf` + `POST /signin/email`; every request is for a new address, as
 *   from many users, so Authchart's per-address request limit never applies. "Confirm a link" is what the person's
 *   click costs: Authchart shows a confirmation page on GET and consumes the token on the button's POST (scanners
 *   that fetch links do not burn them, docs/email.md), so its side is GET + POST; @auth/core consumes on GET. The link
 *   itself is minted untimed before each confirmation, through the same library. A third row confirms with one GET
 *   on both sides (Authchart's `dangerousConsumeOnGet`), like for like.
 * - Passkey: a software authenticator (test/support/soft-authenticator.ts) registered once through each library;
 *   one operation is `GET /webauthn-options/passkey` + `POST /callback/passkey` with the signed assertion, from a
 *   browser that has the sign-in page's CSRF token (fetched untimed, as the page load). The authenticator's signing
 *   is the browser's work and is not timed. @auth/core 0.41's WebAuthn provider is written
 *   against @simplewebauthn/server 9 (Authchart uses 14, whose API changed), so it is given version 9's functions
 *   through its `simpleWebAuthn` option.
 */
import { Auth as AuthJs } from '@auth/core'
import type { Adapter as AuthJsAdapter } from '@auth/core/adapters'
import AuthJsEmail from '@auth/core/providers/email'
import AuthJsPasskey from '@auth/core/providers/passkey'
import * as simpleWebAuthnV9 from 'simplewebauthn-server-v9'
import { MemoryAdapter } from '../adapters/memory.js'
import { Auth } from '../src/index.js'
import Email from '../src/providers/email.js'
import Passkey from '../src/providers/passkey.js'
import { SoftAuthenticator } from '../test/support/soft-authenticator.js'
import { origin, secret, type Handler } from './core.bench.js'
import { compare, Jar, printTable, runOptions, type CaseResult, type Side } from './measure.js'

/** The hidden fields of a page's form, as a browser submits them. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  const entities: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' }
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[match[1]] = match[2].replace(/&(quot|#39|lt|gt|amp);/g, (e) => entities[e])
  }
  return fields
}

async function csrfToken(handler: Handler, jar: Jar): Promise<string> {
  const response = await handler(new Request(`${origin}/auth/csrf`, { headers: { cookie: jar.header() } }))
  jar.take(response)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

function post(handler: Handler, path: string, jar: Jar, form: Record<string, string>): Promise<Response> {
  return handler(
    new Request(`${origin}${path}`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    }),
  )
}

function get(handler: Handler, url: string, jar: Jar): Promise<Response> {
  return handler(new Request(url.startsWith('/') ? `${origin}${url}` : url, { headers: { cookie: jar.header() } }))
}

/**
 * Authchart's memory adapter serves @auth/core too: it implements the same adapter contract, but its declared
 * types are Authchart's own, so TypeScript needs to be told.
 */
function authJsAdapter(): AuthJsAdapter {
  return MemoryAdapter() as unknown as AuthJsAdapter
}

let addresses = 0

/** Requests a link for a new address; returns the URL the message would carry. */
async function requestLink(handler: Handler, links: string[]): Promise<string> {
  const jar = new Jar()
  const email = `user${++addresses}@example.com`
  const response = await post(handler, '/auth/signin/email', jar, { email, csrfToken: await csrfToken(handler, jar) })
  await response.text()
  const link = links.pop()
  if (response.status !== 302 || !link) throw new Error(`no link was sent (${response.status})`)
  return link
}

function expectSignedIn(response: Response, label: string): void {
  if (response.status !== 302 || !response.headers.getSetCookie().some((c) => c.includes('session-token')))
    throw new Error(`${label}: sign-in did not complete (${response.status} ${response.headers.get('location')})`)
}

async function emailCases(run: ReturnType<typeof runOptions>): Promise<CaseResult[]> {
  const oursLinks: string[] = []
  const theirsLinks: string[] = []
  const shape = { secret, trustHost: true, basePath: '/auth' }
  // @auth/core's e-mail provider requires a server even with its own delivery; it is never contacted.
  const server = 'smtp://127.0.0.1:25'
  const ours = {
    ...shape,
    adapter: MemoryAdapter(),
    providers: [Email({ server, sendVerificationRequest: ({ url }) => void oursLinks.push(url) })],
  }
  const theirs = {
    ...shape,
    adapter: authJsAdapter(),
    providers: [AuthJsEmail({ server, sendVerificationRequest: async ({ url }) => void theirsLinks.push(url) })],
  }
  const oursHandler: Handler = (r) => Auth(r, ours)
  const theirsHandler: Handler = (r) => AuthJs(r, theirs)

  const request = await compare(
    'e-mail: request a link (`GET /csrf` + `POST /signin/email`)',
    { run: () => requestLink(oursHandler, oursLinks) },
    { run: () => requestLink(theirsHandler, theirsLinks) },
    run,
  )
  const confirmOurs: Side<string> = {
    prepare: () => requestLink(oursHandler, oursLinks),
    run: async (link) => {
      const jar = new Jar()
      const page = await get(oursHandler, link, jar)
      jar.take(page)
      const html = await page.text()
      const action = /<form action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&')
      if (!action) throw new Error('Authchart: no confirmation form')
      const response = await post(oursHandler, action.replace(origin, ''), jar, formFields(html))
      await response.text()
      expectSignedIn(response, 'Authchart e-mail')
    },
  }
  const confirmTheirs: Side<string> = {
    prepare: () => requestLink(theirsHandler, theirsLinks),
    run: async (link) => {
      const response = await get(theirsHandler, link, new Jar())
      await response.text()
      expectSignedIn(response, '@auth/core e-mail')
    },
  }
  const confirm = await compare(
    'e-mail: confirm a link (Authchart: GET page + POST; @auth/core: GET)',
    confirmOurs,
    confirmTheirs,
    run,
  )
  // The same click with Authchart's one-click GET (`dangerousConsumeOnGet`, Auth.js's behaviour): like for like.
  const oneClickLinks: string[] = []
  const oneClick = {
    ...shape,
    adapter: MemoryAdapter(),
    providers: [
      Email({
        server,
        dangerousConsumeOnGet: true,
        sendVerificationRequest: ({ url }) => void oneClickLinks.push(url),
      }),
    ],
  }
  const oneClickHandler: Handler = (r) => Auth(r, oneClick)
  const confirmOneClick: Side<string> = {
    prepare: () => requestLink(oneClickHandler, oneClickLinks),
    run: async (link) => {
      const response = await get(oneClickHandler, link, new Jar())
      await response.text()
      expectSignedIn(response, 'Authchart one-click e-mail')
    },
  }
  const sameClick = await compare(
    'e-mail: confirm a link, one GET on both (Authchart with `dangerousConsumeOnGet`)',
    confirmOneClick,
    confirmTheirs,
    run,
  )
  return [request, confirm, sameClick]
}

/** Registers the authenticator's credential through `handler`; returns a jar without a session. */
async function registerPasskey(handler: Handler, authenticator: SoftAuthenticator): Promise<void> {
  const jar = new Jar()
  const options = await get(handler, '/auth/webauthn-options/passkey?action=register&email=bench@example.com', jar)
  jar.take(options)
  const body = (await options.json()) as {
    action: string
    options: { challenge: string; rp: { id?: string }; user: { id: string } }
  }
  if (body.action !== 'register') throw new Error(`expected registration options, got ${JSON.stringify(body)}`)
  const response = await post(handler, '/auth/callback/passkey', jar, {
    action: 'register',
    data: JSON.stringify(authenticator.create(body.options)),
    csrfToken: await csrfToken(handler, jar),
  })
  await response.text()
  expectSignedIn(response, 'passkey registration')
}

/** Whether a DER integer at `offset` (its length byte) holds a full 32-byte value (33 bytes with sign padding). */
function isFullLengthInteger(der: Buffer, offset: number): boolean {
  const length = der[offset]
  return length === 33 || (length === 32 && der[offset + 1] !== 0)
}

/** Whether an ES256 DER signature's r and s both have 32-byte values. */
function hasFullLengthIntegers(signature: Buffer): boolean {
  return isFullLengthInteger(signature, 3) && isFullLengthInteger(signature, 5 + signature[3])
}

/**
 * An assertion whose signature @simplewebauthn/server 9 can read. Version 9 (the one @auth/core 0.41 is written
 * against) turns the DER signature into r ‖ s without left-padding, so it rejects the 1 in 128 or so signatures whose
 * r or s is shorter than 32 bytes (fixed in later versions). The authenticator signs again in that case, for both
 * libraries, so that neither side's figure includes a failed sign-in.
 */
function fullLengthAssertion(authenticator: SoftAuthenticator, options: { challenge: string; rpId?: string }) {
  for (;;) {
    const assertion = authenticator.get(options) as { response: { signature: string } }
    if (hasFullLengthIntegers(Buffer.from(assertion.response.signature, 'base64url'))) return assertion
  }
}

/** The browser on the sign-in page: it holds the CSRF cookie and the page's token (untimed, as the page load). */
interface SignInPage {
  jar: Jar
  csrfToken: string
}

function passkeySide(handler: Handler, authenticator: SoftAuthenticator, label: string): Side<SignInPage> {
  return {
    prepare: async () => {
      const jar = new Jar()
      return { jar, csrfToken: await csrfToken(handler, jar) }
    },
    run: async ({ jar, csrfToken }, untimed) => {
      const options = await get(handler, '/auth/webauthn-options/passkey?action=authenticate', jar)
      jar.take(options)
      const body = (await options.json()) as { action: string; options: { challenge: string; rpId?: string } }
      const assertion = await untimed(() => JSON.stringify(fullLengthAssertion(authenticator, body.options)))
      const form = { action: 'authenticate', data: assertion, csrfToken }
      const response = await post(handler, '/auth/callback/passkey', jar, form)
      await response.text()
      expectSignedIn(response, label)
    },
  }
}

async function passkeyCases(run: ReturnType<typeof runOptions>): Promise<CaseResult[]> {
  const shape = {
    secret,
    trustHost: true,
    basePath: '/auth',
    session: { strategy: 'jwt' as const },
    experimental: { enableWebAuthn: true },
  }
  const ours = { ...shape, adapter: MemoryAdapter(), providers: [Passkey()] }
  const theirs = {
    ...shape,
    adapter: authJsAdapter(),
    // Version 9's types differ from the ones @auth/core's declarations resolve to (version 14's, installed here).
    providers: [AuthJsPasskey({ simpleWebAuthn: simpleWebAuthnV9 } as unknown as Parameters<typeof AuthJsPasskey>[0])],
  }
  const oursHandler: Handler = (r) => Auth(r, ours)
  const theirsHandler: Handler = (r) => AuthJs(r, theirs)
  const oursAuthenticator = new SoftAuthenticator(origin)
  const theirsAuthenticator = new SoftAuthenticator(origin)
  await registerPasskey(oursHandler, oursAuthenticator)
  await registerPasskey(theirsHandler, theirsAuthenticator)
  return [
    await compare(
      'passkey sign-in (`GET /webauthn-options` + `POST /callback/passkey`)',
      passkeySide(oursHandler, oursAuthenticator, 'Authchart passkey'),
      passkeySide(theirsHandler, theirsAuthenticator, '@auth/core passkey'),
      run,
    ),
  ]
}

/** Runs the e-mail and passkey cases; returns the ratios by case. */
export async function runFlowsBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const run = runOptions(options.quick)
  // @auth/core warns on every request that WebAuthn is experimental; the warning is not what is measured.
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('experimental-webauthn')) warn(...args)
  }
  const results = [...(await emailCases(run)), ...(await passkeyCases(run))]
  console.warn = warn
  return printTable('E-mail and passkey sign-in (in-process, one request at a time)', results, run)
}
