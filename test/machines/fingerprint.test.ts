/**
 * A persisted flow names its machine version. When a machine's structure changes (states, their transitions, the
 * context keys), its fingerprint changes and this test fails until the version in machines/index.ts is bumped and the
 * new fingerprint pinned here, so a deploy never resumes an old snapshot on a different machine.
 */
import { createHash } from 'node:crypto'
import { getStateNodes } from 'xstate/graph'
import { initialTransition, type AnyStateMachine } from 'xstate'
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'

function fingerprint(machine: AnyStateMachine): string {
  const shape = {
    id: machine.id,
    contextKeys: Object.keys(initialTransition(machine)[0].context as object).sort(),
    states: getStateNodes(machine.root).map((node) => [node.id, node.type, [...node.transitions.keys()].sort()]),
  }
  return createHash('sha256').update(JSON.stringify(shape)).digest('base64url').slice(0, 12)
}

const pinned: Record<string, { version: number; fingerprint: string }> = {
  backchannelLogout: { version: 1, fingerprint: 'y8J_o2n4OqbC' },
  credentials: { version: 6, fingerprint: 'JFMJHe8FK3tQ' },
  email: { version: 6, fingerprint: 'R03s2O4BA4nl' },
  oauth: { version: 8, fingerprint: 'WWqkbEpgtXTe' },
  session: { version: 5, fingerprint: 'e3aZWzS9aeJm' },
  tokenRefresh: { version: 2, fingerprint: 'v-vV6OjsXtRb' },
  webauthn: { version: 6, fingerprint: 'Lnt0sknK5pzU' },
}

describe('machine versions', () => {
  it.each(Object.keys(machineRegistry))('%s: the structure matches the pinned fingerprint of its version', (id) => {
    const entry = machineRegistry[id]
    expect({ id, version: entry.version, fingerprint: fingerprint(entry.machine) }).toEqual({ id, ...pinned[id] })
  })
})
