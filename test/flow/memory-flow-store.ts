/**
 * A flow store double that keeps records in a Map, so a test can see what a flow leaves behind. It follows the
 * FlowStore contract strictly: `consume` is single-use, and a saved record is a JSON copy (as any real store
 * serialises it), so nothing the machine holds by reference survives between requests.
 */
import type { FlowRecord, FlowStore } from '../../src/types/flow-store.js'

export class MemoryFlowStore implements FlowStore {
  readonly kind = 'memory'
  readonly #records = new Map<string, string>()
  #next = 0

  /** Records currently held. */
  get size(): number {
    return this.#records.size
  }

  async load(ref: string): Promise<FlowRecord | null> {
    const json = this.#records.get(ref)
    return json === undefined ? null : (JSON.parse(json) as FlowRecord)
  }

  async save(record: FlowRecord, prevRef: string | null): Promise<string> {
    if (prevRef !== null) this.#records.delete(prevRef)
    const ref = `flow-${++this.#next}`
    this.#records.set(ref, JSON.stringify(record))
    return ref
  }

  async consume(ref: string): Promise<FlowRecord | null> {
    const record = await this.load(ref)
    this.#records.delete(ref)
    return record
  }
}
