/**
 * OpenTelemetry traces of the flows, read back through the SDK's in-memory exporter: an OIDC sign-in through a real
 * OpenID Provider is one trace across its two requests (the trace context kept in the flow record, never the URL),
 * whose state spans are the machine's states in order; each e-mail request is a trace of its states, with the mail send
 * as a producer span; a passkey registration and a passkey sign-in are each one trace across their options and verify
 * requests, their states in the machine's order; a refused callback ends its trace with the refusal code; no
 * attribute carries a secret (nor a passkey's credential id or user handle: docs/observability.md).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SpanStatusCode, trace } from '@opentelemetry/api'
import {
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
import { confirmationFields } from '../support/http-site.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'
import { signInLinkOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
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

const oidcConfig = () =>
  testConfig({
    providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret })],
  })

const byStart = (a: ReadableSpan, b: ReadableSpan) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]
const stateSpans = (spans: ReadableSpan[]) =>
  spans.filter((s) => s.attributes['authchart.state'] !== undefined).sort(byStart)
const requestSpans = (spans: ReadableSpan[]) => spans.filter((s) => s.name.startsWith('authchart.flow ')).sort(byStart)

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

  it('an e-mail sign-in: each of its three requests is a trace of its states in order, the mail send a producer span', async () => {
    const config = testConfig({
      url: `${origin}/auth`,
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'Site <login@site.test>' })],
    })
    const jar = new CookieJar()
    const seen = smtp.messages.length
    const address = 'grace@example.test'
    await send(config, '/auth/signin/email', { jar, form: { csrfToken: await csrfToken(config, jar), email: address } })
    const link = signInLinkOf(await smtp.next(seen))
    const confirm = await send(config, `${link.pathname}${link.search}`, { jar })
    expect(confirm.status).toBe(200)
    const html = await confirm.text()
    const action = (/<form action="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&amp;/g, '&')
    const done = await send(config, action.replace(origin, ''), { jar, form: confirmationFields(html) })
    expect(done.status).toBe(302)

    const spans = exporter.getFinishedSpans()
    const requests = requestSpans(spans).filter((s) => s.attributes['authchart.machine'] === 'email')
    // The form post, the link's confirmation page and its POST: each a trace of its own (no flow record joins them,
    // and a trace context in the link would be one in a URL: docs/observability.md), its states in the machine's order.
    expect(requests.every((s) => s.parentSpanContext === undefined)).toBe(true)
    expect(new Set(requests.map((s) => s.spanContext().traceId)).size).toBe(3)
    const states = stateSpans(spans)
    const under = requests.map((r) => states.filter((s) => s.parentSpanContext?.spanId === r.spanContext().spanId))
    expect(under.flat()).toEqual(states)
    expect(under.map((own) => own.map((s) => s.attributes['authchart.state']))).toEqual([
      [
        'resolvingCallbackUrl',
        'normalisingIdentifier',
        'countingClientRequests',
        'countingAddressRequests',
        'countingAddressCeiling',
        'checkingSignInRequest',
        'storingToken',
        'sendingMail',
        'verificationSent',
      ],
      ['awaitingConfirmation'],
      [
        'resolvingLinkCallbackUrl',
        'consumingToken',
        'findingUser',
        'completingSignIn.checkingSignIn',
        'completingSignIn.savingUser',
        'completingSignIn.checkingSecondFactor',
        'completingSignIn.issuingSession',
        'completingSignIn.announcingSignIn',
        'signedIn',
      ],
    ])
    const mail = spans.find((s) => s.name === 'sendVerificationRequest')
    expect(mail?.attributes['messaging.operation.type']).toBe('send')
    const mailState = states.find((s) => s.spanContext().spanId === mail?.parentSpanContext?.spanId)
    expect(mailState?.attributes['authchart.state']).toBe('sendingMail')
    expectNoSecret(spans, [address, secret, ...link.searchParams.values(), ...jar.cookies.values()])
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
          ...completion('checkingSignIn', 'savingRegistration'),
        ],
      ],
      [
        ['lookingUpUser', 'buildingAuthenticationOptions', 'awaitingResponse'],
        ['resolvingCallbackUrl', 'claimingChallenge', ...assertion, ...completion('checkingSignIn')],
      ],
    ])
  })
})
