import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { describeEntry, regenerateFlowsDocCommand, toFlowsMarkdown } from '../../visualizations/index.js'

describe('docs/flows.md', () => {
  it('holds the current Mermaid chart of every registered machine', () => {
    const expected = toFlowsMarkdown(Object.values(machineRegistry).map(describeEntry))
    const committed = readFileSync('docs/flows.md', 'utf8')
    // A flow change must show up in review as a diagram diff, so a stale file fails here.
    expect(committed, `docs/flows.md is out of date; regenerate it with: ${regenerateFlowsDocCommand}`).toBe(expected)
  })

  it('has one chart per machine', () => {
    const committed = readFileSync('docs/flows.md', 'utf8')
    for (const id of Object.keys(machineRegistry)) expect(committed).toContain(`## ${id}\n`)
    expect(committed.match(/```mermaid\nstateDiagram-v2\n/g)).toHaveLength(Object.keys(machineRegistry).length)
  })
})
