/**
 * The text every renderer puts on a transition arrow and inside a state box, so Mermaid, DOT and the inspector
 * say the same thing in the same words.
 */
import type { FlowGraph, FlowState, FlowTransition } from './describe-machine.js'

/**
 * `EVENT [guard] / action, action`: the guard in brackets, the transition's actions after a slash. Bare `assign`s
 * are left off the arrow: they only copy event data into context and would repeat on every arrow (the inspector
 * still lists them).
 */
export function transitionLabel(t: FlowTransition): string {
  let label = t.event
  if (t.guard) label += ` [${t.guard.text}]`
  const actions = t.actions.filter((a) => a.name !== 'assign')
  if (actions.length > 0) label += ` / ${actions.map((a) => a.text).join(', ')}`
  return label
}

/** Lines under a state's name: what it is for, what it runs on entry, and its tags. */
export function stateLines(state: FlowState): string[] {
  const lines: string[] = []
  if (state.description) lines.push(state.description)
  for (const command of state.entry) lines.push(`entry / ${command.text}`)
  for (const src of state.invoke) lines.push(`invoke / ${src}`)
  for (const command of state.exit) lines.push(`exit / ${command.text}`)
  if (state.tags.length > 0) lines.push(`tag ${state.tags.join(', ')}`)
  return lines
}

/** The children of `parent` (null for the root) in definition order. */
export function childrenOf(graph: FlowGraph, parent: string | null): FlowState[] {
  return graph.states.filter((s) => s.parent === parent)
}

/** Whether `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`)
}

/** Splits text into lines of at most `width` characters at word boundaries (long words are kept whole). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines
}
