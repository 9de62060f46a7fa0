/**
 * Graphviz DOT text for one machine, laid out left to right. Compound states become clusters; an arrow from or to a
 * compound state is drawn to its cluster's border (`compound=true` with `ltail`/`lhead`), anchored on the state
 * the cluster enters first.
 * @module visualizations/dot
 */
import type { FlowGraph, FlowState } from './describe-machine.js'
import { childrenOf, stateLines, transitionLabel, wrapText } from './diagram-labels.js'

/** A DOT double-quoted string; `\n` stays a line break for Graphviz. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`
}

const wrapWidth = 44

function nodeLabel(state: FlowState): string {
  const lines = [state.key, ...stateLines(state).flatMap((line) => wrapText(line, wrapWidth))]
  return lines.join('\n')
}

function isCluster(state: FlowState): boolean {
  return state.type === 'compound' || state.type === 'parallel'
}

function clusterId(state: FlowState): string {
  return `cluster_${state.path}`
}

/** The atomic state an arrow to (or from) a cluster is anchored on: follow initial children down. */
function anchorOf(graph: FlowGraph, path: string): string {
  let state = graph.states.find((s) => s.path === path)
  while (state && isCluster(state)) {
    const next: string | null = state.initial ?? childrenOf(graph, state.path)[0]?.path ?? null
    if (next === null) break
    state = graph.states.find((s) => s.path === next)
  }
  return state?.path ?? path
}

function renderNodes(graph: FlowGraph, parent: string | null, indent: string, out: string[]): void {
  for (const state of childrenOf(graph, parent)) {
    if (isCluster(state)) {
      out.push(`${indent}subgraph ${quote(clusterId(state))} {`)
      out.push(`${indent}  label=${quote(nodeLabel(state))}; style="rounded,dashed"; color="#718096";`)
      renderNodes(graph, state.path, `${indent}  `, out)
      out.push(`${indent}}`)
      continue
    }
    const attrs = [`label=${quote(nodeLabel(state))}`]
    if (state.type === 'final') attrs.push('peripheries=2', 'fillcolor="#e6f0ff"')
    if (state.tags.includes('awaitingBrowser')) attrs.push('fillcolor="#fff4ce"')
    out.push(`${indent}${quote(state.path)} [${attrs.join(', ')}];`)
  }
}

/** DOT for one machine: boxes with description, entry commands and tags; arrows labelled `EVENT [guard] / actions`. */
export function toDot(graph: FlowGraph): string {
  const out = [
    `digraph ${quote(graph.machineId)} {`,
    '  rankdir=LR; compound=true; newrank=true;',
    `  label=${quote(`${graph.machineId}${graph.version === null ? '' : ` (version ${graph.version})`}`)}; labelloc=t;`,
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
    '  "[*]" [shape=point, width=0.15, label=""];',
  ]
  renderNodes(graph, null, '  ', out)
  if (graph.initial) out.push(`  "[*]" -> ${quote(anchorOf(graph, graph.initial))};`)
  const byPath = new Map(graph.states.map((s) => [s.path, s]))
  for (const t of graph.transitions) {
    const targets = t.targets.length > 0 ? t.targets : [t.source]
    for (const target of targets) {
      const attrs = [`label=${quote(wrapText(transitionLabel(t), wrapWidth).join('\n'))}`]
      const source = byPath.get(t.source)
      const dest = byPath.get(target)
      if (source && isCluster(source)) attrs.push(`ltail=${quote(clusterId(source))}`)
      if (dest && isCluster(dest) && target !== t.source) attrs.push(`lhead=${quote(clusterId(dest))}`)
      if (t.guard?.refs.some((r) => r.origin === 'app')) attrs.push('color="#c05621"', 'fontcolor="#c05621"')
      out.push(`  ${quote(anchorOf(graph, t.source))} -> ${quote(anchorOf(graph, target))} [${attrs.join(', ')}];`)
    }
  }
  out.push('}')
  return `${out.join('\n')}\n`
}
