/**
 * The SVG chart of one machine for the HTML inspector: state boxes (name, description, entry commands, tags) and
 * guarded arrows, placed by the layered layout. Text is monospace so that box sizes computed here match what the
 * browser draws.
 */
import type { FlowGraph, FlowState, FlowTransition } from './describe-machine.js'
import { stateLines, transitionLabel, wrapText } from './diagram-labels.js'
import { layoutGraph, type LayoutInputEdge, type LayoutInputNode } from './layered-layout.js'
import { required } from './required.js'

/** Advance of one character of the inspector's monospace font at 11px (DejaVu Sans Mono and Menlo are ~0.6 em). */
const charWidth = 6.7
const lineHeight = 14
const padding = 8
const stateWrap = 34
const labelWrap = 30
const initialNode = '[*]'

/** Escapes text for HTML and SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

interface BoxText {
  title: string
  lines: Array<{ text: string; kind: 'description' | 'command' | 'tag' }>
}

function boxText(state: FlowState): BoxText {
  const lines: BoxText['lines'] = []
  if (state.description)
    for (const l of wrapText(state.description, stateWrap)) lines.push({ text: l, kind: 'description' })
  for (const line of stateLines(state).slice(state.description ? 1 : 0)) {
    for (const l of wrapText(line, stateWrap))
      lines.push({ text: l, kind: line.startsWith('tag ') ? 'tag' : 'command' })
  }
  return { title: state.path.split('.').join(' › '), lines }
}

function boxSize(text: BoxText): { width: number; height: number } {
  const longest = Math.max(text.title.length * 1.1, ...text.lines.map((l) => l.text.length))
  return {
    width: Math.ceil(longest * charWidth + 2 * padding),
    height: (1 + text.lines.length) * lineHeight + 2 * padding - 2,
  }
}

function edgeLabelLines(t: FlowTransition | null): string[] {
  return t ? wrapText(transitionLabel(t), labelWrap) : []
}

/**
 * The SVG of one machine; states carry `data-state`, arrows `data-edge`, `data-source`, `data-target` and (except the
 * initial arrows) `data-event`, `always` for an eventless transition.
 */
export function renderMachineSvg(graph: FlowGraph): string {
  const texts = new Map(graph.states.map((s) => [s.path, boxText(s)]))
  const nodes: LayoutInputNode[] = [{ id: initialNode, width: 14, height: 14 }]
  for (const s of graph.states) nodes.push({ id: s.path, ...boxSize(required(texts, s.path)) })

  const arrows: Array<{ edge: LayoutInputEdge; transition: FlowTransition | null; kind: 'initial' | 'transition' }> = []
  const labelled = (
    id: string,
    source: string,
    target: string,
    transition: FlowTransition | null,
    kind: 'initial' | 'transition',
  ): void => {
    const lines = edgeLabelLines(transition)
    const width = lines.length === 0 ? 2 : Math.ceil(Math.max(...lines.map((l) => l.length)) * charWidth + 8)
    arrows.push({
      edge: {
        id,
        source,
        target,
        labelWidth: width,
        labelHeight: lines.length === 0 ? 2 : lines.length * lineHeight + 4,
      },
      transition,
      kind,
    })
  }
  if (graph.initial) labelled('initial', initialNode, graph.initial, null, 'initial')
  for (const s of graph.states) if (s.initial) labelled(`initial:${s.path}`, s.path, s.initial, null, 'initial')
  for (const t of graph.transitions) {
    const targets = t.targets.length > 0 ? t.targets : [t.source]
    targets.forEach((target, i) => labelled(`${t.id}${i === 0 ? '' : `:${i}`}`, t.source, target, t, 'transition'))
  }
  const layout = layoutGraph(
    nodes,
    arrows.map((a) => a.edge),
    initialNode,
    'TB',
  )
  const byState = new Map(graph.states.map((s) => [s.path, s]))

  const parts: string[] = []
  parts.push(
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}" role="img" aria-label="${escapeXml(`state chart of the ${graph.machineId} machine`)}">`,
  )
  parts.push(
    '<defs><marker id="arrow-' +
      escapeXml(graph.machineId) +
      '" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
  )
  layout.edges.forEach((placed, i) => {
    const { transition, kind } = arrows[i]
    const app = transition?.guard?.refs.some((r) => r.origin === 'app') ?? false
    const ext = transition?.guard?.refs.some((r) => r.origin === 'extension') ?? false
    const classes = ['edge', kind, app ? 'app-guard' : ext ? 'extension-guard' : ''].filter(Boolean).join(' ')
    parts.push(
      `<g class="${classes}" data-edge="${escapeXml(placed.id)}" data-source="${escapeXml(placed.source)}" data-target="${escapeXml(placed.target)}"${transition ? ` data-event="${escapeXml(transition.event)}"` : ''}>`,
    )
    parts.push(`<path d="${placed.d}" marker-end="url(#arrow-${escapeXml(graph.machineId)})"/>`)
    const lines = edgeLabelLines(transition)
    if (lines.length > 0) {
      const width = Math.max(...lines.map((l) => l.length)) * charWidth + 8
      const height = lines.length * lineHeight + 4
      parts.push(
        `<rect class="label-bg" x="${(placed.labelX - width / 2).toFixed(1)}" y="${(placed.labelY - height / 2).toFixed(1)}" width="${width.toFixed(1)}" height="${height}" rx="3"/>`,
      )
      lines.forEach((line, n) => {
        const y = placed.labelY - height / 2 + 2 + lineHeight * (n + 1) - 3
        parts.push(
          `<text class="edge-label" x="${placed.labelX.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="middle">${escapeXml(line)}</text>`,
        )
      })
    }
    parts.push('</g>')
  })
  for (const node of layout.nodes) {
    if (node.id === initialNode) {
      parts.push(`<circle class="initial-dot" cx="${(node.x + 7).toFixed(1)}" cy="${(node.y + 7).toFixed(1)}" r="6"/>`)
      continue
    }
    const state = required(byState, node.id)
    const text = required(texts, node.id)
    const classes = ['state', state.type, state.tags.includes('awaitingBrowser') ? 'awaiting' : '']
      .filter(Boolean)
      .join(' ')
    parts.push(`<g class="${classes}" data-state="${escapeXml(state.path)}" tabindex="0">`)
    parts.push(`<title>${escapeXml(state.path)}</title>`)
    parts.push(
      `<rect x="${node.x.toFixed(1)}" y="${node.y.toFixed(1)}" width="${node.width}" height="${node.height}" rx="8"/>`,
    )
    if (state.type === 'final')
      parts.push(
        `<rect class="final-ring" x="${(node.x + 3).toFixed(1)}" y="${(node.y + 3).toFixed(1)}" width="${node.width - 6}" height="${node.height - 6}" rx="6"/>`,
      )
    let y = node.y + padding + lineHeight - 3
    parts.push(
      `<text class="state-name" x="${(node.x + padding).toFixed(1)}" y="${y.toFixed(1)}">${escapeXml(text.title)}</text>`,
    )
    for (const line of text.lines) {
      y += lineHeight
      parts.push(
        `<text class="state-${line.kind}" x="${(node.x + padding).toFixed(1)}" y="${y.toFixed(1)}">${escapeXml(line.text)}</text>`,
      )
    }
    parts.push('</g>')
  }
  parts.push('</svg>')
  return parts.join('\n')
}
