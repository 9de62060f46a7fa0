/**
 * Mermaid `stateDiagram-v2` text for one machine. Mermaid's lexer ends a description at `:` or `;`, treats `#`
 * and `%%` as comments and reads `default`, `state`, `note`, `class` and `scale` as keywords, so labels are
 * cleaned of those characters and ids that would read as keywords are prefixed.
 * @module visualizations/mermaid
 */
import type { FlowGraph, FlowState, FlowTransition } from './describe-machine.js'
import { childrenOf, isWithin, stateLines, transitionLabel } from './diagram-labels.js'

const keywordLike = /^(default|state$|note$|class$|classdef$|scale$|end$|direction$|hide$|acctitle$|accdescr$)/i

/**
 * Mermaid ids for every state: the state's key when no other state shares it, the dotted path otherwise; word
 * characters only, never a keyword. Mermaid does not print the id of a state that has a description (see
 * `stateTitle`).
 */
export function mermaidIds(graph: FlowGraph): Map<string, string> {
  const keyCount = new Map<string, number>()
  for (const s of graph.states) keyCount.set(s.key, (keyCount.get(s.key) ?? 0) + 1)
  const ids = new Map<string, string>()
  const taken = new Set<string>()
  for (const s of graph.states) {
    const raw = keyCount.get(s.key) === 1 ? s.key : s.path.replace(/\./g, '__')
    let id = raw.replace(/\W/g, '_')
    if (keywordLike.test(id) || /^\d/.test(id)) id = `s_${id}`
    while (taken.has(id)) id = `${id}_`
    taken.add(id)
    ids.set(s.path, id)
  }
  return ids
}

/**
 * Text that is safe after a `:` in Mermaid. Characters the lexer would end or comment on become look-alikes, so
 * the text still reads the same: `:` → `꞉`, `#` → `＃`, `%` → `％`; `;` becomes `,`.
 */
export function mermaidText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/:/g, '\uA789')
    .replace(/;/g, ',')
    .replace(/#/g, '\uFF03')
    .replace(/%/g, '\uFF05')
    .replace(/direction(\s+)(tb|bt|rl|lr)\b/gi, 'direction-$2')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * The first description line of a state, which Mermaid draws as the box's title: the state's name as the runtime
 * reports it (the `from` / `to` of the audit hook and of the `flow step` debug line). Mermaid replaces the id with
 * the descriptions when a state has any, so without this line a box would show its description and not its name;
 * a first line equal to the id is kept as the title, and the lines after it go below a rule.
 */
function stateTitle(state: FlowState): string {
  return state.path
}

function relation(from: string, to: string, label?: string): string {
  return label ? `${from} --> ${to} : ${mermaidText(label)}` : `${from} --> ${to}`
}

/** The innermost compound state holding both ends of an arrow (null for the root): the arrow is drawn there. */
function ownerOf(t: FlowTransition, parentOf: ReadonlyMap<string, string | null>): string | null {
  let scope = parentOf.get(t.source) ?? null
  while (scope !== null) {
    const candidate = scope
    if (t.targets.every((p) => isWithin(p, candidate))) break
    scope = parentOf.get(candidate) ?? null
  }
  return scope
}

function renderScope(
  graph: FlowGraph,
  ids: ReadonlyMap<string, string>,
  scope: FlowState | null,
  indent: string,
  out: string[],
): void {
  const mermaidId = (path: string): string => ids.get(path) ?? path
  const parentOf = new Map(graph.states.map((s) => [s.path, s.parent]))
  const children = childrenOf(graph, scope?.path ?? null)
  const initial = scope ? scope.initial : graph.initial
  if (initial) out.push(`${indent}${relation('[*]', mermaidId(initial))}`)
  for (const state of children) {
    const id = mermaidId(state.path)
    if (state.type === 'compound' || state.type === 'parallel') {
      out.push(`${indent}state ${id} {`)
      renderScope(graph, ids, state, `${indent}  `, out)
      out.push(`${indent}}`)
    }
    out.push(`${indent}${id} : ${mermaidText(stateTitle(state))}`)
    for (const line of stateLines(state)) out.push(`${indent}${id} : ${mermaidText(line)}`)
  }
  for (const t of graph.transitions) {
    if (ownerOf(t, parentOf) !== (scope?.path ?? null)) continue
    const targets = t.targets.length > 0 ? t.targets : [t.source]
    for (const target of targets)
      out.push(`${indent}${relation(mermaidId(t.source), mermaidId(target), transitionLabel(t))}`)
  }
  for (const state of children) {
    if (state.type === 'final') out.push(`${indent}${relation(mermaidId(state.path), '[*]')}`)
  }
}

/** Mermaid `stateDiagram-v2` for one machine: states with description, entry commands and tags; guarded arrows. */
export function toMermaid(graph: FlowGraph): string {
  const out = ['stateDiagram-v2', '  direction LR']
  const ids = mermaidIds(graph)
  const mermaidId = (path: string): string => ids.get(path) ?? path
  renderScope(graph, ids, null, '  ', out)
  const waiting = graph.states.filter((s) => s.tags.includes('awaitingBrowser')).map((s) => mermaidId(s.path))
  const finals = graph.states.filter((s) => s.type === 'final').map((s) => mermaidId(s.path))
  out.push('  classDef awaitingBrowser fill:#fff4ce,stroke:#b7791f')
  out.push('  classDef outcome fill:#e6f0ff,stroke:#2b6cb0')
  if (waiting.length > 0) out.push(`  class ${waiting.join(',')} awaitingBrowser`)
  if (finals.length > 0) out.push(`  class ${finals.join(',')} outcome`)
  return `${out.join('\n')}\n`
}
