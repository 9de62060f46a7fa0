/**
 * Where an in-flight flow waits between two requests. The runtime hands a store a `FlowRecord` and gets back a
 * `ref` that the browser carries in the flow cookie: for the cookie store the sealed record itself, for a
 * server-side store an opaque random id.
 * @module flow-store
 */
/** The persisted form of one flow: our own versioned envelope, never xstate's persisted snapshot. */
export interface FlowRecord {
  /** Machine version: bumped whenever the machine's structural fingerprint changes. */
  v: number
  /** Machine id (`oauth`, `email`, `webauthn`, ...). */
  m: string
  /** State value (the machines are flat: a state name). */
  s: string
  /** Context with null and undefined values dropped. */
  c: Record<string, unknown>
  /** Hard expiry, epoch seconds. Longer than the machine's own timeout, so the machine can say "expired" first. */
  x: number
  /** The W3C `traceparent` of the flow's trace, kept only while the app traces (OpenTelemetry). */
  t?: string
  /** Epoch milliseconds of the flow's first request, kept only while the app measures or audits flows. */
  b?: number
}

/** Storage of in-flight flows. Every method may throw `FlowStoreUnavailable`; none may throw anything else. */
export interface FlowStore {
  /** A short name for logs and diagnostics (`cookie`, `redis`). */
  readonly kind: string
  /** The record behind `ref`, or `null` when it is unknown, expired, tampered or already consumed. */
  load(ref: string): Promise<FlowRecord | null>
  /** Stores `record` (replacing `prevRef` when given) and returns the ref the browser will carry. */
  save(record: FlowRecord, prevRef: string | null): Promise<string>
  /**
   * Takes the record out of the store: returns it the first time and `null` every later time, even under
   * concurrent calls. The cookie store cannot make this guarantee on its own (a cookie can be replayed);
   * it returns the record and relies on the IdP's single-use `code` and the short expiry.
   */
  consume(ref: string): Promise<FlowRecord | null>
}

/** Options a store gets from the resolved config when the runtime first uses it. */
export interface FlowStoreContext {
  /** Secrets, newest first (the cookie store derives its key from them). */
  secrets: string[]
  /** Name of the flow cookie, used as the key-derivation salt. */
  cookieName: string
}

/** A store that needs the resolved config (secrets, cookie name) before its first use. */
export interface ConfigurableFlowStore extends FlowStore {
  configure(context: FlowStoreContext): void
}
