/**
 * The default flow store: the sealed record is the ref, so the whole flow rides in one cookie and no server keeps
 * anything. JWE `dir` + `A256GCM` under a key derived for this purpose only (never the session key).
 *
 * A cookie can be replayed until it expires, so `consume` cannot be single-use here: replay protection of a cookie
 * flow rests on the provider's single-use `code`, the state/PKCE binding, and the short expiry. Apps that need
 * strict single use configure `RedisFlowStore`.
 */
import { FlowStoreUnavailable } from '../../errors.js'
import { derivePurposeKey } from '../../session/hkdf-keys.js'
import { openCompactJwe, sealCompactJwe } from '../../session/jwe.js'
import type { ConfigurableFlowStore, FlowRecord, FlowStoreContext } from '../../types/flow-store.js'

/** Browsers drop cookies over 4096 bytes; keep a margin for the name and attributes. */
const maxRefLength = 3800

function isFlowRecord(value: unknown): value is FlowRecord {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return (
    typeof r.v === 'number' &&
    typeof r.m === 'string' &&
    typeof r.x === 'number' &&
    (typeof r.s === 'string' || (typeof r.s === 'object' && r.s !== null)) &&
    typeof r.c === 'object' &&
    r.c !== null
  )
}

/** Keeps each flow in an encrypted cookie. */
export class CookieFlowStore implements ConfigurableFlowStore {
  readonly kind = 'cookie'
  #keys: Uint8Array[] = []
  #now: () => number

  /** @param options.now epoch seconds, injectable for tests */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000))
  }

  /** Derives the flow keys from the secrets (newest first); called once per resolved config. */
  configure(context: FlowStoreContext): void {
    this.#keys = context.secrets.map((secret) => derivePurposeKey(secret, `flow cookie ${context.cookieName}`, 32))
  }

  async load(ref: string): Promise<FlowRecord | null> {
    return this.#open(ref)
  }

  async save(record: FlowRecord): Promise<string> {
    const key = this.#keys[0]
    if (!key) throw new FlowStoreUnavailable('cookie flow store used before configure()')
    const ref = sealCompactJwe(JSON.stringify(record), key, 'A256GCM')
    if (ref.length > maxRefLength)
      throw new FlowStoreUnavailable('flow is too large for a cookie', { length: ref.length })
    return ref
  }

  async consume(ref: string): Promise<FlowRecord | null> {
    return this.#open(ref)
  }

  #open(ref: string): FlowRecord | null {
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > maxRefLength) return null
    const opened = openCompactJwe(ref, this.#keys, ['A256GCM'])
    if (!opened) return null
    let record: unknown
    try {
      record = JSON.parse(Buffer.from(opened.plaintext).toString('utf8'))
    } catch {
      return null
    }
    if (!isFlowRecord(record) || record.x <= this.#now()) return null
    return record
  }
}
