/**
 * The flow envelope: turning a machine snapshot into a `FlowRecord` and back. A record that does not belong to the
 * configured machine (another id, another version, past its expiry, a state that no longer resolves) is rejected
 * with `FlowRejected`, which the HTTP layer shows as "start again".
 */
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate'
import { FlowRejected } from '../errors.js'
import type { FlowRecord } from './flow-store.js'

/** Context with null and undefined values dropped: they carry nothing and would only grow the cookie. */
function compactContext(context: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in context) {
    const value = context[key]
    if (value !== null && value !== undefined) out[key] = value
  }
  return out
}

/** Builds the envelope for a snapshot that waits for the browser. */
export function toFlowRecord(snapshot: AnyMachineSnapshot, machineId: string, version: number, expiresAt: number): FlowRecord {
  return { v: version, m: machineId, s: snapshot.value, c: compactContext(snapshot.context as Record<string, unknown>), x: expiresAt }
}

/**
 * Rebuilds a snapshot on the configured machine instance. Guards are looked up on the snapshot's machine, so it must
 * be the configured one (with the app's extension guards), never the bare definition.
 */
export function fromFlowRecord(record: FlowRecord, machine: AnyStateMachine, version: number, nowSeconds: number): AnyMachineSnapshot {
  if (record.m !== machine.id) throw new FlowRejected('flow belongs to another machine', { check: 'machine', expected: machine.id, received: String(record.m) })
  if (record.v !== version) throw new FlowRejected('flow was started by another version of the machine', { check: 'version', expected: version, received: record.v })
  if (!(typeof record.x === 'number' && record.x > nowSeconds)) throw new FlowRejected('flow expired', { check: 'expiry' })
  if (typeof record.c !== 'object' || record.c === null || Array.isArray(record.c)) throw new FlowRejected('flow context is malformed', { check: 'context' })
  try {
    return machine.resolveState({ value: record.s, context: record.c })
  } catch (err) {
    throw new FlowRejected('flow state no longer exists', { check: 'state', err: err instanceof Error ? err : undefined })
  }
}
