/**
 * A structural check of Mermaid `stateDiagram-v2` text, written from the rules of Mermaid's state-diagram lexer
 * (the `mermaid` package is not a dependency, and it needs a DOM to parse). It accepts the subset of statements the
 * generator emits and reports every line it would not: a description holding `:` `;` `#` or `%%`, an id Mermaid would
 * read as a keyword or split at a `-`, an unbalanced `{ }`, a class applied to an id never declared.
 */

const idPattern = /^[A-Za-z_][A-Za-z0-9_]*$/
const keywordLike = /^(default|state$|note$|class$|classdef$|scale$|end$|direction$|hide$)/i
const descriptionPattern = /^[^:;#\n%]+$/

export interface MermaidCheck {
  errors: string[]
  ids: Set<string>
  /** The description lines of each id, in order (Mermaid draws the first as the box's title when there are two). */
  descriptions: Map<string, string[]>
  relations: Array<{ from: string; to: string; label: string | null }>
}

function checkId(id: string, line: number, errors: string[]): void {
  if (id === '[*]') return
  if (!idPattern.test(id)) errors.push(`line ${line}: id "${id}" has characters Mermaid splits on`)
  else if (keywordLike.test(id)) errors.push(`line ${line}: id "${id}" reads as a Mermaid keyword`)
}

function checkDescription(text: string, line: number, errors: string[]): void {
  if (!descriptionPattern.test(text))
    errors.push(`line ${line}: description "${text}" contains a character that ends or comments it out`)
  if (/direction\s+(tb|bt|rl|lr)/i.test(text))
    errors.push(`line ${line}: description "${text}" reads as a direction statement`)
}

/** Checks one diagram; `errors` is empty when every line is one the generator is allowed to emit. */
export function checkMermaidStateDiagram(text: string): MermaidCheck {
  const errors: string[] = []
  const ids = new Set<string>()
  const descriptions = new Map<string, string[]>()
  const relations: MermaidCheck['relations'] = []
  const lines = text.split('\n')
  if (lines[0] !== 'stateDiagram-v2') errors.push('line 1: must be "stateDiagram-v2"')
  let depth = 0
  lines.slice(1).forEach((raw, index) => {
    const n = index + 2
    const line = raw.trim()
    if (line === '') return
    let m: RegExpExecArray | null
    if (/^direction (TB|BT|RL|LR)$/.test(line)) return
    if ((m = /^state (\S+) \{$/.exec(line))) {
      checkId(m[1], n, errors)
      ids.add(m[1])
      depth++
      return
    }
    if (line === '}') {
      if (--depth < 0) errors.push(`line ${n}: "}" without an open state block`)
      return
    }
    if (/^classDef \w+ [^\n]+$/.test(line)) return
    if ((m = /^class (\w+(?:,\w+)*) (\w+)$/.exec(line))) {
      for (const id of m[1].split(','))
        if (!ids.has(id)) errors.push(`line ${n}: class applied to undeclared id "${id}"`)
      return
    }
    if ((m = /^(\S+) --> (\S+)(?: : (.+))?$/.exec(line))) {
      checkId(m[1], n, errors)
      checkId(m[2], n, errors)
      if (m[3] !== undefined) checkDescription(m[3], n, errors)
      relations.push({ from: m[1], to: m[2], label: m[3] ?? null })
      for (const id of [m[1], m[2]]) if (id !== '[*]') ids.add(id)
      return
    }
    if ((m = /^(\S+) : (.+)$/.exec(line))) {
      checkId(m[1], n, errors)
      checkDescription(m[2], n, errors)
      ids.add(m[1])
      descriptions.set(m[1], [...(descriptions.get(m[1]) ?? []), m[2]])
      return
    }
    errors.push(`line ${n}: not a statement the generator emits: "${line}"`)
  })
  if (depth !== 0) errors.push(`unbalanced state blocks: ${depth} left open`)
  return { errors, ids, descriptions, relations }
}
