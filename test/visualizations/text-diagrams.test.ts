import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import type { MachineEntry } from '../../machines/machine-entry.js'
import { configureMachines } from '../../src/flow/extend-machines.js'
import { compiledMachineOf } from '../../src/flow/runtime.js'
import { describeEntry } from '../../visualizations/describe-machine.js'
import { toDot } from '../../visualizations/dot.js'
import { mermaidIds, mermaidText, toMermaid } from '../../visualizations/mermaid.js'
import { fixtureHostileEntry, fixtureNestedEntry, fixtureSignInEntry } from './fixtures/fixture-machines.js'
import { checkMermaidStateDiagram } from './mermaid-syntax.js'

const machines: MachineEntry[] = [
  ...Object.values(machineRegistry),
  fixtureSignInEntry,
  fixtureNestedEntry,
  fixtureHostileEntry,
]
const dotBinary = '/usr/bin/dot'
const hasDot = existsSync(dotBinary)
if (!hasDot)
  console.log(
    `[text-diagrams] ${dotBinary} not found: the Graphviz rendering check is skipped (apt-get install graphviz to run it)`,
  )

describe('Mermaid stateDiagram-v2', () => {
  it.each(machines.map((e) => [e.id, e] as const))('%s: every line is valid state-diagram syntax', (_, entry) => {
    const check = checkMermaidStateDiagram(toMermaid(describeEntry(entry)))
    expect(check.errors).toEqual([])
  })

  it.each(machines.map((e) => [e.id, e] as const))(
    '%s: draws every state and one arrow per transition target',
    (_, entry) => {
      const graph = describeEntry(entry)
      const ids = mermaidIds(graph)
      const check = checkMermaidStateDiagram(toMermaid(graph))
      for (const state of graph.states) expect(check.ids).toContain(ids.get(state.path))
      const arrows = check.relations.filter((r) => r.from !== '[*]' && r.to !== '[*]')
      expect(arrows).toHaveLength(graph.transitions.reduce((n, t) => n + Math.max(1, t.targets.length), 0))
      for (const r of arrows) expect([...ids.values()]).toContain(r.from)
      expect(check.relations.filter((r) => r.to === '[*]')).toHaveLength(
        graph.states.filter((s) => s.type === 'final').length,
      )
    },
  )

  it.each(machines.map((e) => [e.id, e] as const))(
    '%s: every box is titled with the state’s name, its description below',
    (_, entry) => {
      const graph = describeEntry(entry)
      const ids = mermaidIds(graph)
      const { descriptions } = checkMermaidStateDiagram(toMermaid(graph))
      for (const state of graph.states) {
        const lines = descriptions.get(ids.get(state.path)!) ?? []
        // Mermaid shows the id only for a state without descriptions; with some, the first one is the title.
        expect(lines[0], state.path).toBe(state.path)
        if (state.description) expect(lines[1], state.path).toBe(mermaidText(state.description))
      }
    },
  )

  it.each(Object.values(machineRegistry).map((e) => [e.id, e] as const))(
    '%s: the box titles are the state names the runtime reports (audit hook, debug log)',
    (_, entry) => {
      const { descriptions } = checkMermaidStateDiagram(toMermaid(describeEntry(entry)))
      const titles = [...descriptions.values()].map((lines) => lines[0])
      // A compound state (a composed step such as the sign-in completion) is drawn as a block around its states;
      // the runtime reports only the leaves inside it, by their dotted paths.
      const compound = describeEntry(entry)
        .states.filter((s) => s.type === 'compound')
        .map((s) => s.path)
      expect(new Set(titles)).toEqual(new Set([...compiledMachineOf(entry).states.keys(), ...compound]))
    },
  )

  it('labels arrows with the event, the guard and the commands', () => {
    const text = toMermaid(describeEntry(fixtureSignInEntry))
    expect(text).toContain('checkingSignIn --> issuingSession : SIGNIN_ALLOWED [allowSignIn]\n')
    expect(text).toContain('checkingSignIn --> failed : SIGNIN_DENIED / setError(AccessDenied)\n')
    expect(text).toContain('checkingSignIn : entry / runSignInCallback(…)\n')
    expect(text).toMatch(/\n {2}checkingSignIn : checkingSignIn\n {2}checkingSignIn : [^\n]+\n/)
    expect(text).toContain('awaitingCredentials : tag awaitingBrowser\n')
  })

  it('nests compound states in a state block', () => {
    const text = toMermaid(describeEntry(fixtureNestedEntry))
    expect(text).toMatch(
      /state active \{\n {4}\[\*\] --> fresh\n[\s\S]*fresh --> refreshing : SESSION_READ\n[\s\S]*\n {2}\}\n/,
    )
    expect(text).toContain('  active --> signedOut : SIGNED_OUT\n')
  })

  it('keeps keywords out of ids and comment characters out of labels', () => {
    const text = toMermaid(describeEntry(fixtureHostileEntry))
    expect(text).toContain('[*] --> s_default')
    expect(text).toContain('s_default --> s_end : GO [is-odd]')
    expect(text).not.toMatch(/ : [^\n]*[#;%]/)
  })

  it('shows the app’s own guard as such', () => {
    const configured = configureMachines(machineRegistry, { credentials: { guards: { allowSignIn: () => true } } })
    expect(toMermaid(describeEntry(configured.credentials))).toContain('[allowSignIn (app)]')
    expect(toMermaid(describeEntry(machineRegistry.credentials))).not.toContain('(app)')
  })

  it('the syntax check rejects broken input (control)', () => {
    expect(checkMermaidStateDiagram('stateDiagram-v2\n  a --> b : EVENT: with colon\n').errors).toHaveLength(1)
    expect(checkMermaidStateDiagram('stateDiagram-v2\n  state a {\n  a --> b\n').errors).toEqual([
      'unbalanced state blocks: 1 left open',
    ])
    expect(checkMermaidStateDiagram('stateDiagram-v2\n  sign-in --> b\n').errors).toHaveLength(1)
    expect(checkMermaidStateDiagram('stateDiagram-v2\n  default --> b\n').errors).toHaveLength(1)
    expect(checkMermaidStateDiagram('stateDiagram-v2\n  a --> b : fine # but commented\n').errors).toHaveLength(1)
  })
})

describe('Graphviz DOT', () => {
  it.each(machines.map((e) => [e.id, e] as const))(
    '%s: one node per state, one edge per transition target, balanced braces',
    (_, entry) => {
      const graph = describeEntry(entry)
      const text = toDot(graph)
      expect(text.startsWith(`digraph "${graph.machineId}" {`)).toBe(true)
      expect(text.match(/\{/g)?.length).toBe(text.match(/\}/g)?.length)
      const nodes = text.split('\n').filter((l) => /^\s*"[^"]+" \[label=/.test(l))
      const clusters = graph.states.filter((s) => s.type === 'compound' || s.type === 'parallel').length
      expect(nodes).toHaveLength(graph.states.length - clusters)
      const edges = text.split('\n').filter((l) => / -> /.test(l) && !l.includes('"[*]" ->'))
      expect(edges).toHaveLength(graph.transitions.reduce((n, t) => n + Math.max(1, t.targets.length), 0))
    },
  )

  it('escapes quotes and backslashes in labels', () => {
    const text = toDot(describeEntry(fixtureHostileEntry))
    expect(text).toContain('alert(\\"x\\")')
    expect(text).not.toMatch(/[^\\]"x"/)
  })

  it('draws arrows from a compound state from its cluster border', () => {
    const text = toDot(describeEntry(fixtureNestedEntry))
    expect(text).toContain('subgraph "cluster_active" {')
    expect(text).toContain('"active.fresh" -> "signedOut" [label="SIGNED_OUT", ltail="cluster_active"];')
  })

  it.runIf(hasDot).each(machines.map((e) => [e.id, e] as const))(
    '%s: Graphviz renders it without warnings',
    (_, entry) => {
      const run = spawnSync(dotBinary, ['-Tsvg'], { input: toDot(describeEntry(entry)), encoding: 'utf8' })
      expect(run.status).toBe(0)
      expect(run.stderr).toBe('')
      const svg = run.stdout
      expect(svg).toContain('<svg')
      const graph = describeEntry(entry)
      for (const state of graph.states.filter((s) => s.type !== 'compound'))
        expect(svg).toContain(`<title>${state.path}</title>`)
    },
  )
})
