/**
 * OpenTelemetry traces of the flows, read back through the SDK's in-memory exporter: an OIDC sign-in through a real
 * OpenID Provider is one trace across its two requests (the trace context kept in the flow record, never the URL),
 * whose state spans are the machine's states in order; an e-mail sign-in in one browser is one trace across its three
 * requests (the context kept in a cookie holding only it), with the mail send as a producer span, while the link
 * opened elsewhere or with a forged cookie begins a new trace and a sampled-out sign-in sets no cookie; a passkey registration and a passkey sign-in are each one trace across their options and verify
 * requests, their states in the machine's order; a refused callback ends its trace with the refusal code; no
 * attribute carries a secret (nor a passkey's credential id or user handle: docs/observability.md).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SpanStatusCode, trace } from '@opentelemetry/api'
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import OIDC from '../../src/providers/oidc.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Passkey from '../../src/providers/passkey.js'
import { CookieJar, csrfToken, origin, secret, send, testConfig } from '../support/auth-harness.js'
import { followLink, requestLink } from '../support/email-sign-in.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { SoftAuthenticator } from '../support/soft-authenticator.js'

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const clientSecret = 'app-secret-never-in-a-span'
let op: RunningOidcProvider
let smtp: SmtpSink

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider)
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: clientSecret, redirect_uris: [`${origin}/auth/callback/idp`] }],
  })
  smtp = await startSmtpSink()
})
afterAll(async () => {
  trace.disable()
  await provider.shutdown()
  await op?.close()
  await smtp?.close()
})
beforeEach(() => exporter.reset())

const emailConfig = () =>
  testConfig({
    url: `${origin}/auth`,
    adapter: MemoryAdapter(createMemoryStore()),
    providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'Site <login@site.test>' })],
  })

/** The e-mail sign-in's trace cookie (on plain HTTP), and the line of a response that sets or clears it. */
const traceCookie = 'authchart.email-trace'
const traceCookieLine = (response: Response) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${traceCookie}=`))

/** The e-mail machine's states: the form post's, then the link's (the confirmation page, then its POST). */
const requestHalf = [
  'resolvingCallbackUrl',
  'normalisingIdentifier',
  'countingClientRequests',
  'countingAddressRequests',
  'countingAddressCeiling',
  'checkingSignInRequest',
  'storingToken',
  'sendingMail',
  'verificationSent',
]
const confirmationHalf = [
  'awaitingConfirmation',
  'resolvingLinkCallbackUrl',
  'consumingToken',
  'findingUser',
  'completingSignIn.checkingSignIn',
  'completingSignIn.creatingUser',
  'completingSignIn.checkingSecondFactor',
  'completingSignIn.issuingSession',
  'completingSignIn.announcingSignIn',
  'signedIn',
]

/** Values a trace cookie may come back with that are not a W3C trace context this version reads. */
const forgedTraceCookies = [
  'not-a-trace-context',
  `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`,
  `00-${'1'.repeat(32)}-${'0'.repeat(16)}-01`,
  `00-${'A'.repeat(32)}-${'B'.repeat(16)}-01`,
  `ff-${'1'.repeat(32)}-${'2'.repeat(16)}-01`,
  `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01-extra`,
  `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`.repeat(3),
  '<script>x</script>',
]

const oidcConfig = () =>
  testConfig({
    providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret })],
  })

const byStart = (a: ReadableSpan, b: ReadableSpan) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]
const stateSpans = (spans: ReadableSpan[]) =>
  spans.filter((s) => s.attributes['authchart.state'] !== undefined).sort(byStart)
const requestSpans = (spans: ReadableSpan[]) => spans.filter((s) => s.name.startsWith('authchart.flow ')).sort(byStart)
const emailRequests = (spans: ReadableSpan[]) =>
  requestSpans(spans).filter((s) => s.attributes['authchart.machine'] === 'email')
/** Each request's own state spans (its children), in the order entered. */
const statesUnder = (requests: ReadableSpan[], states: ReadableSpan[]) =>
  requests.map((r) => states.filter((s) => s.parentSpanContext?.spanId === r.spanContext().spanId))

/** Every attribute value and status message of every span, with the values a leak would show up as. */
function expectNoSecret(spans: ReadableSpan[], secrets: string[]): void {
  const texts = spans.flatMap((s) => [
    s.name,
    s.status.message ?? '',
    ...Object.values(s.attributes).map((v) => String(v)),
  ])
  for (const value of secrets.filter((s) => s.length >= 6))
    for (const text of texts) expect(text, `a span carries ${value}`).not.toContain(value)
  // What a span says is names only: no value beyond letters, digits, dots, dashes, slashes and spaces.
  for (const text of texts) expect(text).toMatch(/^[\w .:/-]*$/)
}

/** Starts an OIDC sign-in and brings back the provider's redirect to the callback. */
async function toCallback(config: ReturnType<typeof oidcConfig>, jar: CookieJar): Promise<URL> {
  const start = await send(config, '/auth/signin/idp', {
    jar,
    form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/in' },
  })
  const result = await op.signInAs(new URL(start.headers.get('location') ?? ''), 'alice')
  if (result.mode !== 'query') throw new Error('expected a query response')
  return result.callbackUrl
}

describe('flow traces', () => {
  it('an OIDC sign-in is one trace across its requests, its state spans in the order of the machine', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const callback = await toCallback(config, jar)
    const flowCookies = [...jar.cookies.values()]
    const done = await send(config, `${callback.pathname}${callback.search}`, { jar })
    expect(done.headers.get('location')).toBe(`${origin}/in`)

    const spans = exporter.getFinishedSpans()
    const requests = requestSpans(spans)
    expect(requests.map((s) => s.attributes['authchart.machine'])).toEqual(['oauth', 'oauth'])
    const traceIds = new Set(spans.map((s) => s.spanContext().traceId))
    expect(traceIds.size).toBe(1)
    // The callback's request span hangs under the first request's: the context came back with the flow record.
    expect(requests[1].parentSpanContext?.spanId).toBe(requests[0].spanContext().spanId)
    expect(requests[0].parentSpanContext).toBeUndefined()

    const states = stateSpans(spans)
    expect(states.length).toBeGreaterThan(3)
    // The first request's states, then the callback's: each under its own request, in the order they were entered.
    const under = (request: ReadableSpan) =>
      states.filter((s) => s.parentSpanContext?.spanId === request.spanContext().spanId)
    expect([...under(requests[0]), ...under(requests[1])]).toEqual(states)
    expect(under(requests[0]).at(-1)?.attributes['authchart.command']).toBe(undefined)
    expect(under(requests[0]).at(-1)?.attributes['authchart.state']).toBe('awaitingCallback')
    for (const span of states) {
      expect(span.name).toBe(`oauth.${String(span.attributes['authchart.state'])}`)
      expect(span.attributes['authchart.event']).toEqual(expect.any(String))
    }
    expect(states.at(-1)?.attributes['authchart.state']).toBe('signedIn')
    // The provider fetch of the callback is a client span under its state.
    const exchange = spans.find((s) => s.name === 'exchangeCode')
    expect(exchange?.attributes['http.request.method']).toBe('POST')
    const exchangeState = states.find((s) => s.spanContext().spanId === exchange?.parentSpanContext?.spanId)
    expect(exchangeState?.attributes['authchart.command']).toBe('exchangeCode')
    expect(requests.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true)

    expectNoSecret(spans, [
      clientSecret,
      secret,
      ...callback.searchParams.values(),
      ...flowCookies,
      ...jar.cookies.values(),
      'alice@',
    ])
  })

  it('a refused callback ends the trace with the refusal code', async () => {
    const config = oidcConfig()
    const jar = new CookieJar()
    const callback = await toCallback(config, jar)
    callback.searchParams.set('state', 'not-the-state-we-sent')
    await send(config, `${callback.pathname}${callback.search}`, { jar })

    const spans = exporter.getFinishedSpans()
    const refusal = config.recorded.refusals[0]?.code.slice('refused:'.length)
    expect(refusal).toBeTruthy()
    const last = requestSpans(spans).at(-1)
    expect(last?.status).toEqual({ code: SpanStatusCode.ERROR, message: refusal })
    expect(last?.attributes['authchart.refusal.code']).toBe(refusal)
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1)
    expectNoSecret(spans, [clientSecret, ...callback.searchParams.values()])
  })

  it('an e-mail sign-in in one browser is one trace across its three requests, carried by the trace cookie', async () => {
    const config = emailConfig()
    const jar = new CookieJar()
    const address = 'grace@example.test'
    const { sent, link } = await requestLink(config, smtp, jar, address)
    const kept = traceCookieLine(sent)
    const { confirm, done } = await followLink(config, link, jar)
    // The page continues the trace the browser brought: nothing to set; the sign-in's end clears the cookie.
    expect(traceCookieLine(confirm)).toBeUndefined()
    expect(traceCookieLine(done)).toMatch(/Max-Age=0/)
    expect(jar.cookies.has(traceCookie)).toBe(false)

    const spans = exporter.getFinishedSpans()
    const requests = emailRequests(spans)
    expect(requests).toHaveLength(3)
    // One trace: the link's two requests hang under the form post's request span, the first request's flow span.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1)
    const first = requests[0].spanContext()
    expect(requests[0].parentSpanContext).toBeUndefined()
    expect(requests.slice(1).map((s) => s.parentSpanContext?.spanId)).toEqual([first.spanId, first.spanId])
    // The cookie held the first request's W3C trace context and nothing else: httpOnly, Lax, as long as the link.
    expect(kept).toBe(
      `${traceCookie}=00-${first.traceId}-${first.spanId}-01; Max-Age=86400; Path=/; HttpOnly; SameSite=Lax`,
    )
    // The state spans are the machine's states in the order entered, across the three requests.
    const states = stateSpans(spans)
    expect(statesUnder(requests, states).flat()).toEqual(states)
    expect(states.map((s) => s.attributes['authchart.state'])).toEqual([...requestHalf, ...confirmationHalf])
    // Each request's share: the form post's states, the page's one, then the POST's.
    expect(statesUnder(requests, states).map((own) => own.length)).toEqual([
      requestHalf.length,
      1,
      confirmationHalf.length - 1,
    ])
    for (const span of states) expect(span.name).toBe(`email.${String(span.attributes['authchart.state'])}`)
    expect(requests.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true)
    const mail = spans.find((s) => s.name === 'sendVerificationRequest')
    expect(mail?.attributes['messaging.operation.type']).toBe('send')
    const mailState = states.find((s) => s.spanContext().spanId === mail?.parentSpanContext?.spanId)
    expect(mailState?.attributes['authchart.state']).toBe('sendingMail')
    expectNoSecret(spans, [address, secret, ...link.searchParams.values(), ...jar.cookies.values()])
  })

  it('an e-mail link opened on another device begins a new trace, one across the confirmation page and its POST', async () => {
    const config = emailConfig()
    const { sent, link } = await requestLink(config, smtp, new CookieJar(), 'ada@example.test')
    expect(traceCookieLine(sent)).toBeDefined()
    const other = new CookieJar()
    const { confirm, done } = await followLink(config, link, other)
    expect(traceCookieLine(confirm)).toMatch(/Max-Age=900;/)
    expect(traceCookieLine(done)).toMatch(/Max-Age=0/)

    const requests = emailRequests(exporter.getFinishedSpans())
    expect(requests).toHaveLength(3)
    // Nothing joins the two devices: the link's half is a root trace of its own, with no span link to the first.
    expect(requests[1].parentSpanContext).toBeUndefined()
    expect(requests[1].links).toEqual([])
    expect(requests[1].spanContext().traceId).not.toBe(requests[0].spanContext().traceId)
    expect(requests[2].parentSpanContext?.spanId).toBe(requests[1].spanContext().spanId)
  })

  it.each(forgedTraceCookies)(
    'a forged trace cookie (%j) is ignored: a new trace, and the sign-in goes on',
    async (forged) => {
      const config = emailConfig()
      const jar = new CookieJar()
      const { link } = await requestLink(config, smtp, jar, 'lin@example.test')
      jar.cookies.set(traceCookie, forged)
      const { confirm, done } = await followLink(config, link, jar)
      // The page began a trace of its own and keeps it for the POST, in place of the forged value; the end clears it.
      expect(traceCookieLine(confirm)).toMatch(new RegExp(`^${traceCookie}=00-[0-9a-f]{32}-[0-9a-f]{16}-01;`))
      expect(traceCookieLine(done)).toMatch(/Max-Age=0/)
      expect(config.recorded.refusals).toEqual([])

      const requests = emailRequests(exporter.getFinishedSpans())
      expect(requests).toHaveLength(3)
      expect(requests[1].parentSpanContext).toBeUndefined()
      expect(requests[1].spanContext().traceId).not.toBe(requests[0].spanContext().traceId)
      expect(requests[2].parentSpanContext?.spanId).toBe(requests[1].spanContext().spanId)
      expect(requests.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true)
    },
  )

  it('on HTTPS the trace cookie is __Host-authchart.email-trace, Secure', async () => {
    const base = 'https://site.test'
    const config = testConfig({
      url: `${base}/auth`,
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'Site <login@site.test>' })],
    })
    const jar = new CookieJar()
    const seen = smtp.messages.length
    const form = { csrfToken: await csrfToken(config, jar, base), email: 'emmy@example.test' }
    const sent = await send(config, '/auth/signin/email', { jar, base, form })
    expect(sent.status).toBe(302)
    // Its mail delivered here, so that the next test's wait for a mail is not answered by this one.
    await smtp.next(seen)
    const line = sent.headers.getSetCookie().find((l) => l.startsWith('__Host-authchart.email-trace='))
    expect(line).toMatch(
      /^__Host-authchart\.email-trace=00-[0-9a-f]{32}-[0-9a-f]{16}-01; Max-Age=86400; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    )
  })

  it('sets no trace cookie while the SDK records nothing (a sampler that drops every trace)', async () => {
    // Its own exporter: shutting the provider down shuts its exporter down too.
    const dropped = new InMemorySpanExporter()
    const dropping = new BasicTracerProvider({
      sampler: new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor(dropped)],
    })
    trace.disable()
    trace.setGlobalTracerProvider(dropping)
    try {
      const config = emailConfig()
      const jar = new CookieJar()
      const { sent, link } = await requestLink(config, smtp, jar, 'barbara@example.test')
      const { confirm, done } = await followLink(config, link, jar)
      expect([sent, confirm, done].map(traceCookieLine)).toEqual([undefined, undefined, undefined])
      expect(dropped.getFinishedSpans()).toEqual([])
    } finally {
      trace.disable()
      trace.setGlobalTracerProvider(provider)
      await dropping.shutdown()
    }
  })

  it('a passkey registration and sign-in: each ceremony is one trace across its options and verify requests', async () => {
    const config = testConfig({
      adapter: MemoryAdapter(createMemoryStore()),
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
    })
    const authenticator = new SoftAuthenticator(origin)
    const address = 'hedy@example.test'
    /** The options request, then the browser's answer posted to the callback: the two requests of one ceremony. */
    const ceremony = async (query: string, respond: (options: never) => Record<string, unknown>) => {
      const jar = new CookieJar()
      const answer = await send(config, `/auth/webauthn-options/passkey${query}`, { jar })
      const { action, options } = (await answer.json()) as { action: string; options: { challenge: string } }
      const flowCookies = [...jar.cookies.values()]
      const response = respond(options as never)
      const form = {
        action,
        data: JSON.stringify(response),
        csrfToken: await csrfToken(config, jar),
        callbackUrl: `${origin}/in`,
      }
      const done = await send(config, '/auth/callback/passkey', { jar, form })
      expect(done.status).toBe(302)
      const values = [
        options.challenge,
        ...flowCookies,
        ...jar.cookies.values(),
        ...Object.values(response).filter((v) => typeof v === 'string'),
        ...Object.values(response.response as Record<string, unknown>).filter((v) => typeof v === 'string'),
      ]
      return { action, values }
    }

    const traces: { action: string; states: string[][] }[] = []
    for (const [query, respond] of [
      [`?email=${encodeURIComponent(address)}`, (o: never) => authenticator.create(o)],
      ['', (o: never) => authenticator.get(o)],
    ] as const) {
      exporter.reset()
      const { action, values } = await ceremony(query, respond)
      const spans = exporter.getFinishedSpans()
      // One trace: the verify request's span hangs under the options request's, its context kept in the flow record.
      expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1)
      const requests = requestSpans(spans)
      expect(requests.map((s) => s.attributes['authchart.machine'])).toEqual(['webauthn', 'webauthn'])
      expect(requests[0].parentSpanContext).toBeUndefined()
      expect(requests[1].parentSpanContext?.spanId).toBe(requests[0].spanContext().spanId)
      expect(requests.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true)
      // Each request's state spans, in the order entered; all state spans are these, in this order.
      const states = stateSpans(spans)
      const under = requests.map((r) => states.filter((s) => s.parentSpanContext?.spanId === r.spanContext().spanId))
      expect(under.flat()).toEqual(states)
      for (const span of states) expect(span.name).toBe(`webauthn.${String(span.attributes['authchart.state'])}`)
      // Every span of both requests carries the one flow id the options request drew.
      expect(new Set(requests.map((s) => s.attributes['authchart.flow.id'])).size).toBe(1)
      traces.push({ action, states: under.map((u) => u.map((s) => String(s.attributes['authchart.state']))) })
      expectNoSecret(spans, [...values, address, secret, ...authenticator.credentials.map((c) => c.userHandle)])
      // Credential ids are identifiers of the person's device: never in a span, in base64url nor in hex.
      for (const credential of authenticator.credentials)
        expectNoSecret(spans, [credential.id.toString('base64url'), credential.id.toString('hex')])
    }

    const [registration, signIn] = traces
    const completion = (...steps: string[]) => [
      ...steps.map((step) => `completingSignIn.${step}`),
      'completingSignIn.checkingSecondFactor',
      'completingSignIn.issuingSession',
      'completingSignIn.announcingSignIn',
      'signedIn',
    ]
    const assertion = ['findingCredential', 'verifyingAssertion', 'updatingCounter']
    expect(registration.action).toBe('register')
    expect(signIn.action).toBe('authenticate')
    expect([registration.states, signIn.states]).toEqual([
      [
        ['lookingUpUser', 'buildingRegistrationOptions', 'awaitingResponse'],
        [
          'resolvingCallbackUrl',
          'claimingChallenge',
          'verifyingRegistration',
          ...completion('checkingSignIn', 'checkingAddress', 'savingRegistration'),
        ],
      ],
      [
        ['lookingUpUser', 'buildingAuthenticationOptions', 'awaitingResponse'],
        ['resolvingCallbackUrl', 'claimingChallenge', ...assertion, ...completion('checkingSignIn')],
      ],
    ])
  })
})
