/**
 * OpenTelemetry traces of the flows the runtime runs, when the app has registered an OpenTelemetry SDK.
 *
 * One trace per flow, from its first request to its end: each request is a span (`authchart.flow <machine>`), each
 * state the machine enters is a child span named `<machine>.<state>`, and each command the state runs (a provider
 * fetch, an adapter call, a mail send) is a child span of that state. A flow that waits for the browser keeps the
 * trace's context in its flow record (`FlowRecord.t`), so the request that resumes it joins the same trace; a flow
 * with no record between its requests (the e-mail sign-in) has its caller carry the context (`FlowTrace.anchor`, in
 * a cookie). The context never rides in a URL.
 *
 * Attributes are names only (machine, state, event, command, refusal code, flow id): event payloads and command
 * params carry codes, tokens, addresses and passwords, and none of them is ever read here.
 *
 * `@opentelemetry/api` is an optional peer: it is looked up once, the SDK is never imported, and while no SDK has
 * registered a tracer provider a flow costs one property lookup and starts no span.
 */
import type * as OtelApiModule from '@opentelemetry/api'
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api'

type OtelApi = typeof OtelApiModule

/** The instrumentation scope name every authchart span is created under. */
export const instrumentationScope = 'authchart'

/** The optional peer, named in a variable so that bundlers leave the import to run time. */
const optionalApiModule: string = '@opentelemetry/api'

/** Undefined until looked up; null when the app does not have `@opentelemetry/api`. */
let api: OtelApi | null | undefined
let lookup: Promise<void> | undefined

/** Looks `@opentelemetry/api` up once; the returned promise settles when that is done (it never rejects). */
export function loadTracing(): Promise<void> {
  // By a name the bundler cannot follow: `@opentelemetry/api` is an optional peer, and an app's bundler (Vite for
  // Qwik City, which bundles Authchart into the server build) would otherwise fail the build where it is not installed.
  lookup ??= import(/* @vite-ignore */ /* webpackIgnore: true */ optionalApiModule).then(
    (module: OtelApi) => {
      api = module
    },
    () => {
      api = null
    },
  )
  return lookup
}

/** The OpenTelemetry API once looked up (`loadTracing`), or undefined when the app does not have it (yet). */
export function otelApi(): OtelApi | undefined {
  return api ?? undefined
}

/** Whether the lookup is done, so a request can run without waiting for it. */
export function tracingLoaded(): boolean {
  return api !== undefined
}

/**
 * The tracer of the SDK the app registered, or undefined while none is. The global provider is a proxy that hands
 * out tracers doing nothing until an SDK registers; asking it for its delegate tells the two apart without a span.
 */
function activeTracer(otel: OtelApi): Tracer | undefined {
  const provider = otel.trace.getTracerProvider()
  if (provider instanceof otel.ProxyTracerProvider)
    return provider.getDelegateTracer(instrumentationScope, undefined, undefined)
  return provider.getTracer(instrumentationScope)
}

/** What a command does, for the OpenTelemetry semantic conventions of its span. */
// The token requests (the OAuth callback's other steps fetch only now and then: cold discovery, userinfo).
const outboundHttp = new Set(['exchangeCode', 'refreshTokens', 'verifyLogoutToken'])
const mailSends = new Set(['sendVerificationRequest'])
const adapterCalls = new Set([
  'createUser',
  'linkAccount',
  'findUser',
  'lookUpUser',
  'resolveUser',
  'saveTokens',
  'loadTokens',
  'linkHasToken',
  'storeVerificationToken',
  'consumeVerificationToken',
  'createVerifiedUser',
  'markEmailVerified',
  'loadSession',
  'issueSession',
  'refreshSession',
  'reissueSession',
  'endSession',
  'deleteSessions',
  'revokeSessions',
  'findCredential',
  'saveRegistration',
  'updateCounter',
])

/** Span kind and attributes of a command's span: a client span for what leaves the process, internal otherwise. */
function effectAttributes(otel: OtelApi, command: string): { kind: number; attributes: Attributes } {
  const attributes: Attributes = { 'authchart.command': command }
  if (outboundHttp.has(command)) {
    attributes['http.request.method'] = 'POST'
    return { kind: otel.SpanKind.CLIENT, attributes }
  }
  if (adapterCalls.has(command)) {
    // The database's own name is the adapter's to know; the operation is the adapter method the command calls.
    attributes['db.operation.name'] = command
    return { kind: otel.SpanKind.CLIENT, attributes }
  }
  if (mailSends.has(command)) {
    attributes['messaging.operation.type'] = 'send'
    attributes['messaging.system'] = 'email'
    return { kind: otel.SpanKind.PRODUCER, attributes }
  }
  return { kind: otel.SpanKind.INTERNAL, attributes }
}

/** The W3C `traceparent` form of a span's context: what a flow record keeps between requests. */
function toTraceparent(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext()
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`
}

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** The context a stored `traceparent` stands for, or the root context when there is none or it is malformed. */
function parentContext(otel: OtelApi, traceparent: unknown): Context {
  const root = otel.ROOT_CONTEXT
  if (typeof traceparent !== 'string') return root
  const match = traceparentPattern.exec(traceparent)
  if (!match) return root
  const spanContext = { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16), isRemote: true }
  return otel.trace.isSpanContextValid(spanContext) ? otel.trace.setSpanContext(root, spanContext) : root
}

/** One request's share of a flow's trace. */
export class FlowTrace {
  readonly #otel: OtelApi
  readonly #tracer: Tracer
  readonly #machine: string
  readonly #request: Span
  readonly #requestContext: Context
  /** The trace's anchor kept in the flow record: the first request's span, for every later request too. */
  readonly #anchor: string
  /** Whether the SDK records this request (a sampler may drop it): a trace that records nothing is not carried on. */
  readonly #recording: boolean
  #state: Span | undefined
  #stateContext: Context | undefined
  #ended = false

  constructor(otel: OtelApi, tracer: Tracer, machine: string, flowId: string, stored: unknown) {
    this.#otel = otel
    this.#tracer = tracer
    this.#machine = machine
    const parent = parentContext(otel, stored)
    this.#request = tracer.startSpan(
      `authchart.flow ${machine}`,
      { attributes: { 'authchart.machine': machine, 'authchart.flow.id': flowId } },
      parent,
    )
    this.#requestContext = otel.trace.setSpan(parent, this.#request)
    this.#anchor = parent === otel.ROOT_CONTEXT ? toTraceparent(this.#request) : String(stored)
    this.#recording = this.#request.isRecording()
  }

  /**
   * The `traceparent` a later request of the flow continues from, for a caller that carries it itself (a flow with no
   * record between its requests); undefined when the SDK does not record this request.
   */
  get anchor(): string | undefined {
    return this.#recording ? this.#anchor : undefined
  }

  /** The machine entered `state` on `event` and runs `command` (if any) there. */
  step(state: string, event: string, command: string | undefined): void {
    this.#state?.end()
    const attributes: Attributes = {
      'authchart.machine': this.#machine,
      'authchart.state': state,
      'authchart.event': event,
    }
    if (command) attributes['authchart.command'] = command
    this.#state = this.#tracer.startSpan(`${this.#machine}.${state}`, { attributes }, this.#requestContext)
    this.#stateContext = this.#otel.trace.setSpan(this.#requestContext, this.#state)
  }

  /** Runs a command's handler inside its own span, a child of the current state's span. */
  effect<T>(command: string, run: () => T): T {
    const otel = this.#otel
    const { kind, attributes } = effectAttributes(otel, command)
    const parent = this.#stateContext ?? this.#requestContext
    const span = this.#tracer.startSpan(command, { kind, attributes }, parent)
    const failed = (err: unknown): never => {
      // The error's name only: messages of effect failures may quote what the provider or the database said.
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' })
      span.end()
      throw err
    }
    let answer: T
    try {
      answer = otel.context.with(otel.trace.setSpan(parent, span), run)
    } catch (err) {
      return failed(err)
    }
    if (answer instanceof Promise) {
      return answer.then((value: unknown) => {
        span.end()
        return value
      }, failed) as T
    }
    span.end()
    return answer
  }

  /** The flow was refused: the request's span (and the state it stopped in) carry the refusal code. */
  refused(code: string): void {
    const status = { code: this.#otel.SpanStatusCode.ERROR, message: code }
    this.#request.setAttribute('authchart.refusal.code', code)
    this.#request.setStatus(status)
    this.#state?.setStatus(status)
  }

  /** The flow failed with an error (not a refusal): its spans end marked as failed, with the error's name only. */
  failed(err: unknown): void {
    if (this.#ended) return
    const status = { code: this.#otel.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' }
    this.#request.setStatus(status)
    this.#state?.setStatus(status)
    this.end('done')
  }

  /** Ends this request's spans (once); returns the `traceparent` a waiting flow keeps in its record. */
  end(status: 'active' | 'done'): string | undefined {
    if (this.#ended) return undefined
    this.#ended = true
    this.#state?.end()
    this.#state = undefined
    this.#request.setAttribute('authchart.flow.status', status)
    this.#request.end()
    return status === 'active' ? this.#anchor : undefined
  }
}

/**
 * This request's trace of a flow, or undefined while the app has no OpenTelemetry SDK (or the lookup of the API is
 * not done yet: `loadTracing`).
 * @param flowId draws the flow's id, asked for only when there is a trace
 * @param stored the `traceparent` kept in the flow's record (or carried by the caller), for a resumed flow; a
 *   malformed one is ignored and the request begins a new trace
 */
export function startFlowTrace(machine: string, flowId: () => string, stored: unknown): FlowTrace | undefined {
  if (!api) return undefined
  const tracer = activeTracer(api)
  return tracer ? new FlowTrace(api, tracer, machine, flowId(), stored) : undefined
}
