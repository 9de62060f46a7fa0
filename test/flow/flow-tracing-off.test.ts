/**
 * Without an OpenTelemetry SDK the flows start no span, make no instrument and draw no flow id for one: the API is present (a dev
 * dependency here), but no tracer provider is registered, so the runtime sees no tracer and runs as before.
 */
import { describe, expect, it } from 'vitest'
import { loadTracing, startFlowTrace, tracingLoaded } from '../../src/flow/flow-tracing.js'
import { flowMetrics } from '../../src/flow/flow-metrics.js'
import { CookieJar, session, signIn, testConfig } from '../support/auth-harness.js'

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
})
