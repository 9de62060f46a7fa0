/**
 * The demo's in-process trace view: registers an OpenTelemetry tracer provider whose spans stay in memory, and renders
 * the spans of the last flows as a tree for the `/dev/flow` page (docs/observability.md has a screenshot).
 *
 * Only when `@opentelemetry/sdk-trace-base` (and the API) are installed: both are looked up by a name held in a
 * variable, at run time, so the demo starts the same without them, with no trace view.
 */
import type * as OtelApiModule from '@opentelemetry/api'
import type * as SdkTraceBaseModule from '@opentelemetry/sdk-trace-base'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'

const apiModule: string = '@opentelemetry/api'
const sdkModule: string = '@opentelemetry/sdk-trace-base'

/** The spans kept: enough for the last few sign-ins, never a growing heap. */
const keptSpans = 400
/** Traces shown, newest first. */
const shownTraces = 4

export interface DevTraces {
  /** The recent traces as an HTML section. */
  html(): string
  close(): Promise<void>
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Starts the in-memory tracer, or answers undefined when the SDK is not installed. */
export async function startDevTraces(): Promise<DevTraces | undefined> {
  let otel: typeof OtelApiModule
  let sdk: typeof SdkTraceBaseModule
  try {
    otel = await import(/* @vite-ignore */ apiModule).then((module: typeof OtelApiModule) => module)
    sdk = await import(/* @vite-ignore */ sdkModule).then((module: typeof SdkTraceBaseModule) => module)
  } catch {
    return undefined
  }
  const exporter = new sdk.InMemorySpanExporter()
  const provider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] })
  otel.trace.setGlobalTracerProvider(provider)
  return {
    html: () => {
      const spans = exporter.getFinishedSpans()
      if (spans.length > keptSpans) {
        const keep = spans.slice(-keptSpans)
        exporter.reset()
        exporter.export(keep, () => {})
      }
      return renderTraces(exporter.getFinishedSpans(), otel.SpanStatusCode.ERROR)
    },
    close: async () => {
      otel.trace.disable()
      await provider.shutdown()
    },
  }
}

const nanos = (time: [number, number]) => time[0] * 1e9 + time[1]
const byStart = (a: ReadableSpan, b: ReadableSpan) => nanos(a.startTime) - nanos(b.startTime)

/** The last traces, each a tree of its spans in the order they started, with duration, status and attributes. */
function renderTraces(spans: readonly ReadableSpan[], error: OtelApiModule.SpanStatusCode): string {
  const traces = new Map<string, ReadableSpan[]>()
  for (const span of spans) {
    const id = span.spanContext().traceId
    traces.set(id, [...(traces.get(id) ?? []), span])
  }
  const recent = [...traces.entries()]
    .sort(([, a], [, b]) => nanos(b[0].startTime) - nanos(a[0].startTime))
    .slice(0, shownTraces)
  const body = recent.length
    ? recent.map(([id, members]) => renderTrace(id, members, error)).join('')
    : '<p>No trace yet: sign in in another tab, then reload this page.</p>'
  return `<section id="dev-traces" style="margin:1.5rem 1rem;font:14px system-ui,sans-serif">
<h2 style="font-size:1.1rem">Recent traces (in-process OpenTelemetry exporter)</h2>${body}</section>`
}

function renderTrace(traceId: string, members: ReadableSpan[], error: OtelApiModule.SpanStatusCode): string {
  const ids = new Set(members.map((s) => s.spanContext().spanId))
  const children = new Map<string, ReadableSpan[]>()
  const roots: ReadableSpan[] = []
  for (const span of [...members].sort(byStart)) {
    const parent = span.parentSpanContext?.spanId
    if (parent && ids.has(parent)) children.set(parent, [...(children.get(parent) ?? []), span])
    else roots.push(span)
  }
  const rows: string[] = []
  const walk = (span: ReadableSpan, depth: number) => {
    const ms = (nanos(span.endTime) - nanos(span.startTime)) / 1e6
    const failed = span.status.code === error
    const attributes = ['authchart.event', 'authchart.command', 'authchart.refusal.code', 'authchart.flow.status']
      .filter((key) => span.attributes[key] !== undefined)
      .map((key) => `${key.slice('authchart.'.length)}=${String(span.attributes[key])}`)
      .join(' ')
    rows.push(`<tr${failed ? ' style="color:#b00020"' : ''}>
<td style="padding-left:${0.3 + depth * 1.4}rem;white-space:nowrap">${depth ? '└ ' : ''}<code>${escape(span.name)}</code></td>
<td style="text-align:right;padding:0 .8rem">${ms.toFixed(1)} ms</td>
<td>${failed ? `ERROR ${escape(span.status.message ?? '')} ` : ''}<small>${escape(attributes)}</small></td></tr>`)
    for (const child of children.get(span.spanContext().spanId) ?? []) walk(child, depth + 1)
  }
  for (const root of roots) walk(root, 0)
  const machine = String(roots[0]?.attributes['authchart.machine'] ?? '')
  return `<div class="dev-trace" data-machine="${escape(machine)}" style="padding:.2rem .4rem .6rem">
<h3 style="font-size:.95rem;margin-bottom:.3rem">${escape(machine)} flow · trace <code>${escape(traceId)}</code> · ${members.length} spans</h3>
<table style="border-collapse:collapse;font-size:13px">${rows.join('')}</table></div>`
}
