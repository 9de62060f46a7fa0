/**
 * Without an OpenTelemetry SDK the flows start no span, make no instrument and draw no flow id for one: the API is present (a dev
 * dependency here), but no tracer provider is registered, so the runtime sees no tracer and runs as before. An e-mail
 * sign-in sets no trace cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import { loadTracing, startFlowTrace, tracingLoaded } from '../../src/flow/flow-tracing.js'
import { flowMetrics } from '../../src/flow/flow-metrics.js'
import { CookieJar, origin, session, signIn, testConfig } from '../support/auth-harness.js'
import { followLink, requestLink } from '../support/email-sign-in.js'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'

let smtp: SmtpSink
beforeAll(async () => {
  smtp = await startSmtpSink()
})
afterAll(() => smtp?.close())

describe('flow traces without an SDK', () => {
  it('starts no trace and asks for no flow id', async () => {
    await loadTracing()
    expect(tracingLoaded()).toBe(true)
    let drawn = 0
    const trace = startFlowTrace('oauth', () => `flow-${++drawn}`, undefined)
    expect(trace).toBeUndefined()
    expect(drawn).toBe(0)
    // No meter provider registered either: no instruments, nothing measured.
    expect(flowMetrics()).toBeUndefined()
  })

  it('a sign-in and a session check run as before', async () => {
    const config = testConfig()
    const jar = new CookieJar()
    expect((await signIn(config, jar)).status).toBe(302)
    expect(await session(config, jar)).toMatchObject({ user: { name: expect.any(String) } })
  })

  it('an e-mail sign-in sets no trace cookie', async () => {
    const config = testConfig({
      url: `${origin}/auth`,
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Nodemailer({ id: 'email', server: smtp.url, from: 'Site <login@site.test>' })],
    })
    const jar = new CookieJar()
    const { sent, link } = await requestLink(config, smtp, jar, 'grace@example.test')
    const { confirm, done } = await followLink(config, link, jar)
    const names = [sent, confirm, done].flatMap((r) => r.headers.getSetCookie().map((line) => line.split('=')[0]))
    expect(names).toContain('authjs.session-token')
    expect(names.filter((name) => name.includes('trace'))).toEqual([])
  })
})
