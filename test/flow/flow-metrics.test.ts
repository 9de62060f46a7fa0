/**
 * OpenTelemetry metrics of the flows, read back through the SDK's metric reader: sign-ins by method and outcome,
 * refusals by code, session checks, flow durations, and the flow-store and adapter call durations of an e-mail
 * OIDC sign-in through a real OpenID Provider. Every label is a name from a closed set: no address, token or secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { metrics } from '@opentelemetry/api'
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics'
import { createMemoryStore, MemoryAdapter } from '../../adapters/memory.js'
import OIDC from '../../src/providers/oidc.js'
import { metricNames } from '../../src/flow/flow-metrics.js'
import {
  CookieJar,
  csrfToken,
  origin,
  secret,
  send,
  session,
  signIn,
  testConfig,
  users,
} from '../support/auth-harness.js'
import { startOidcProvider, type RunningOidcProvider } from '../support/oidc-provider.js'

// A long interval: the test collects on demand, the timer never fires.
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
  exportIntervalMillis: 3_600_000,
})
const provider = new MeterProvider({ readers: [reader] })
const clientSecret = 'app-secret-never-in-a-label'
let op: RunningOidcProvider

beforeAll(async () => {
  metrics.setGlobalMeterProvider(provider)
  op = await startOidcProvider({
    clients: [{ client_id: 'app', client_secret: clientSecret, redirect_uris: [`${origin}/auth/callback/idp`] }],
  })
})
afterAll(async () => {
  metrics.disable()
  await provider.shutdown()
  await op?.close()
})

/** The metrics recorded since the last collection (delta temporality), by name. */
async function collect(): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect()
  const byName = new Map<string, MetricData>()
  for (const scope of resourceMetrics.scopeMetrics)
    if (scope.scope.name === 'authchart') for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric)
  return byName
}

/** Each data point's attributes and value (a histogram's count), for a counter or a histogram. */
function points(metric: MetricData | undefined): { attributes: Record<string, unknown>; value: number }[] {
  if (!metric) return []
  return metric.dataPoints.map((p) => ({
    attributes: { ...p.attributes },
    value: typeof p.value === 'number' ? p.value : (p.value as { count: number }).count,
  }))
}

/** Every label value and name of every metric, with the values a leak would show up as. */
function expectNoSecret(all: Map<string, MetricData>, secrets: string[]): void {
  const texts = [...all.values()].flatMap((m) => [
    m.descriptor.name,
    ...m.dataPoints.flatMap((p) => Object.entries(p.attributes).flatMap(([k, v]) => [k, String(v)])),
  ])
  expect(texts.length).toBeGreaterThan(0)
  for (const value of secrets.filter((s) => s.length >= 6))
    for (const text of texts) expect(text, `a metric label carries ${value}`).not.toContain(value)
  for (const text of texts) expect(text).toMatch(/^[\w.:-]*$/)
}

describe('flow metrics', () => {
  it('counts sign-ins by method and outcome, refusals by code, and session checks; times each flow', async () => {
    await collect()
    const config = testConfig()
    const jar = new CookieJar()
    const password = users.ada.password
    expect((await signIn(config, jar)).status).toBe(302)
    expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    expect(await session(config, jar)).toMatchObject({ user: { name: 'Ada Lovelace' } })
    const refused = await signIn(config, new CookieJar(), 'ada', 'wrong-password-here')
    expect(refused.status).toBe(302)
    // A session update without the CSRF token is refused by the session machine under the `csrf` code.
    await send(config, '/auth/session', { jar, method: 'POST', json: { data: {} } })

    const all = await collect()
    expect(points(all.get(metricNames.signIns))).toEqual(
      expect.arrayContaining([
        { attributes: { 'authchart.sign_in.method': 'credentials', 'authchart.sign_in.outcome': 'success' }, value: 1 },
        { attributes: { 'authchart.sign_in.method': 'credentials', 'authchart.sign_in.outcome': 'refused' }, value: 1 },
      ]),
    )
    expect(points(all.get(metricNames.sessionChecks))).toEqual(
      expect.arrayContaining([{ attributes: { 'authchart.session.outcome': 'active' }, value: 2 }]),
    )
    const refusals = points(all.get(metricNames.refusals))
    const codes = config.recorded.refusals.map((r) => r.code.slice('refused:'.length))
    expect(codes).toContain('csrf')
    for (const code of new Set(codes))
      expect(refusals.filter((p) => p.attributes['authchart.refusal.code'] === code).map((p) => p.value)).toEqual([
        codes.filter((c) => c === code).length,
      ])
    const durations = all.get(metricNames.flowDuration)
    expect(durations?.dataPointType).toBe(DataPointType.HISTOGRAM)
    expect(durations?.descriptor.unit).toBe('s')
    const machines = new Set(points(durations).map((p) => p.attributes['authchart.machine']))
    expect(machines).toEqual(new Set(['credentials', 'session']))
    expectNoSecret(all, [password, secret, 'wrong-password-here', ...jar.cookies.values()])
  })

  it('an OIDC sign-in: its flow-store and adapter calls are timed, and it ends as one OAuth sign-in', async () => {
    await collect()
    const config = testConfig({
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [OIDC({ id: 'idp', name: 'IdP', issuer: op.issuer, clientId: 'app', clientSecret })],
    })
    const jar = new CookieJar()
    const start = await send(config, '/auth/signin/idp', {
      jar,
      form: { csrfToken: await csrfToken(config, jar), callbackUrl: '/in' },
    })
    const result = await op.signInAs(new URL(start.headers.get('location') ?? ''), 'alice')
    if (result.mode !== 'query') throw new Error('expected a query response')
    const callback = result.callbackUrl
    const done = await send(config, `${callback.pathname}${callback.search}`, { jar })
    expect(done.headers.get('location')).toBe(`${origin}/in`)

    const all = await collect()
    expect(points(all.get(metricNames.signIns))).toEqual([
      { attributes: { 'authchart.sign_in.method': 'oauth', 'authchart.sign_in.outcome': 'success' }, value: 1 },
    ])
    expect(points(all.get(metricNames.flowStoreDuration))).toEqual(
      expect.arrayContaining([
        { attributes: { 'authchart.flow_store.operation': 'save', 'authchart.flow_store.kind': 'cookie' }, value: 1 },
        {
          attributes: { 'authchart.flow_store.operation': 'consume', 'authchart.flow_store.kind': 'cookie' },
          value: 1,
        },
      ]),
    )
    const adapter = points(all.get(metricNames.adapterDuration)).map((p) => p.attributes['db.operation.name'])
    expect(adapter).toEqual(expect.arrayContaining(['getUserByAccount', 'createUser', 'linkAccount', 'createSession']))
    expect(all.get(metricNames.adapterDuration)?.descriptor.unit).toBe('s')
    // One duration for the flow, from its first request to the callback: the start rode in the flow record.
    const flows = points(all.get(metricNames.flowDuration))
    expect(flows).toEqual([{ attributes: { 'authchart.machine': 'oauth', 'authchart.state': 'signedIn' }, value: 1 }])
    const histogram = all.get(metricNames.flowDuration)?.dataPoints[0]?.value as { min?: number } | undefined
    expect(histogram?.min).toBeGreaterThan(0)
    expectNoSecret(all, [clientSecret, secret, ...callback.searchParams.values(), ...jar.cookies.values(), 'alice@'])
  })
})
