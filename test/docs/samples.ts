/**
 * The TypeScript samples of a Markdown page, as the docs' type-checking tests read them (code-samples.test.ts for
 * the README and docs/*.md, framework-samples.ts for the framework guides).
 *
 * - A ```ts, ```typescript or ```tsx block is a TypeScript sample; a ```svelte block is a Svelte sample (a component,
 *   read by `samplesOf(root, page, 'svelte')`, checked by svelte-check in the SvelteKit fixture app); other languages
 *   (sh, sql ...) are not samples.
 * - A TypeScript block whose first line is a comment naming a file (`// src/lib/auth.ts`) is written under that name,
 *   so the page's other samples can import it; any other block is a file of its own.
 * - A block that cannot be made complete is marked on the line before its fence with
 *   `<!-- not-checked: <reason> -->`; the reason must be given, and it is shown in the page's source.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Sample {
  page: string
  /** Line of the opening fence in the page (1-based). */
  line: number
  code: string
  /** The reason given in a `not-checked` marker, or null for a checked sample. */
  skipped: string | null
  /** The file the first line names, or null when it names none. */
  named: string | null
  /**
   * Where the sample is written: the named file, else `sample-line-<line>.ts` (`.tsx` for a tsx block, `.svelte`
   * for a Svelte one).
   */
  file: string
}

const fence = /^```(\w*)\s*$/
const notChecked = /^<!--\s*not-checked:\s*(.*?)\s*-->$/
const namedFile = /^\/\/ ((?:[\w@.[\]-]+\/)*[\w@.[\]+-]+\.tsx?)\s*$/
const languages = { typescript: new Set(['ts', 'typescript', 'tsx']), svelte: new Set(['svelte']) }

/** The TypeScript (or Svelte) blocks of `page` (a path relative to `root`), with their markers and file names. */
export function samplesOf(root: string, page: string, kind: keyof typeof languages = 'typescript'): Sample[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n')
  const samples: Sample[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i])
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l))
    if (end === -1) throw new Error(`${page}:${i + 1}: a code fence is never closed`)
    if (languages[kind].has(open[1])) {
      const code = lines.slice(i + 1, end).join('\n')
      let before = i - 1
      while (before >= 0 && lines[before].trim() === '') before--
      const marker = before >= 0 ? notChecked.exec(lines[before].trim()) : null
      const named = kind === 'typescript' ? (namedFile.exec(code.split('\n')[0] ?? '')?.[1] ?? null) : null
      samples.push({
        page,
        line: i + 1,
        code,
        skipped: marker ? marker[1] : null,
        named,
        file: named ?? `sample-line-${i + 1}.${kind === 'svelte' ? 'svelte' : open[1] === 'tsx' ? 'tsx' : 'ts'}`,
      })
    }
    i = end
  }
  return samples
}

/** The page and line a compiler error in a written sample points at, so the failure names the place to fix. */
export function locate(error: string, written: ReadonlyMap<string, Sample>): string {
  const match = /^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(error.trim())
  if (!match) return error
  const sample = written.get(match[1].replace(/\\/g, '/'))
  if (!sample) return error
  return `${sample.page}:${sample.line + Number(match[2])} (${sample.file}): ${match[4]}`
}
