/**
 * docs/architecture.md's folder tree is the module map's first page: it must name what is there. Every folder and
 * file the tree names exists (a renamed or removed part fails here until the page follows), and every top-level
 * folder of `src/` and every root that `npm run deps:check` cruises is named in it (a new part fails here until the
 * page names it and says its job).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')

/** The ```text block under "## The folder tree". */
function treeBlock(markdown: string): string {
  const section = markdown.split('\n## The folder tree\n')[1]
  const block = section && /```text\n([\s\S]*?)\n```/.exec(section)
  if (!block?.[1]) throw new Error('docs/architecture.md has no ```text block under "## The folder tree"')
  return block[1]
}

/** The column where the descriptions start: a line indented this far continues the description above it. */
const descriptionColumn = 20

/** The paths the tree names, with `/` at the end of folders: `src/types/index.ts`, `src/flow/stores/` … */
export function namedPaths(tree: string): string[] {
  const paths: string[] = []
  // The folder open at each depth (two spaces a level).
  const open: string[] = []
  for (const line of tree.split('\n')) {
    const indent = line.length - line.trimStart().length
    if (line.trim() === '' || indent >= descriptionColumn) continue
    const depth = indent / 2
    if (!Number.isInteger(depth) || depth > open.length) throw new Error(`unexpected indentation: ${line}`)
    open.length = depth
    // The names end where two spaces start the description; several names on one line are joined by " · ".
    const names = (line.trim().split(/\s{2,}/)[0] ?? '').split(' · ')
    for (const name of names) paths.push(`${open.join('')}${name}`)
    const last = names.at(-1) ?? ''
    if (names.length === 1 && last.endsWith('/')) open.push(last)
  }
  return paths
}

function kindOf(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(join(root, path)).isDirectory() ? 'folder' : 'file'
  } catch {
    return 'missing'
  }
}

/** The roots `npm run deps:check` cruises (its script's arguments after the output type). */
function cruisedRoots(): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts
  const args = /--output-type \S+ (.+)$/.exec(scripts['deps:check'] ?? '')?.[1]
  if (!args) throw new Error('the deps:check script names no roots')
  return args.split(/\s+/)
}

describe("docs/architecture.md's folder tree", () => {
  const named = namedPaths(treeBlock(page))

  it('names folders and files that exist, as what they are', () => {
    expect(named.length).toBeGreaterThan(20)
    const wrong = named
      .map((path) => ({ path, kind: kindOf(path) }))
      .filter(({ path, kind }) => kind !== (path.endsWith('/') ? 'folder' : 'file'))
    expect(wrong).toEqual([])
  })

  it('names every folder of src/ and every root the import rules cruise', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`)
    const roots = cruisedRoots().map((name) => (kindOf(name) === 'folder' ? `${name}/` : name))
    expect([...folders, ...roots].filter((path) => !named.includes(path))).toEqual([])
  })

  it('reads nested folders, several names on a line, and skips description lines', () => {
    const tree = [
      'top/                  a folder',
      '  inner/              a folder inside',
      '    a.ts · b.ts       two files',
      '                      the description, continued',
      '  c.ts                a file of top/',
      'd.ts · e.ts',
    ].join('\n')
    expect(namedPaths(tree)).toEqual([
      'top/',
      'top/inner/',
      'top/inner/a.ts',
      'top/inner/b.ts',
      'top/c.ts',
      'd.ts',
      'e.ts',
    ])
  })
})
