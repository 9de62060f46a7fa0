/**
 * Every TypeScript sample in the README and the docs compiles against the library as it is: each ```ts block is
 * written to a file in a scratch project whose tsconfig maps `authchart` and its subpaths (from the package's export
 * map) to the sources, and the repository's `tsc --noEmit` checks them all in one program.
 *
 * The conventions a sample follows are those of samples.ts (a first line `// auth.ts` names the block's file; a
 * `<!-- not-checked: <reason> -->` line before the fence leaves a block out, with its reason). Besides:
 * - A sample may import the app's own modules that the docs leave to the reader: `./users.js` (`checkPassword`),
 *   `./auth.js` (`authConfig`) and `./db.js` (a Kysely instance `db`). The scratch project provides them (below)
 *   unless the page writes them itself.
 *
 * The framework guides in docs/frameworks/ are files of a SvelteKit, Qwik City or SolidStart project, which this
 * scratch project cannot stand for: framework-samples.ts checks them inside the installed fixture apps.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { locate, samplesOf, type Sample } from './samples.js'

const root = resolve(import.meta.dirname, '../..')
const pages = ['README.md', ...readdirSync(join(root, 'docs'), { withFileTypes: true })]
  .map((entry) =>
    typeof entry === 'string' ? entry : entry.isFile() && entry.name.endsWith('.md') ? `docs/${entry.name}` : null,
  )
  .filter((page): page is string => page !== null)
  .sort()

/** The app's own modules the docs leave to the reader, as small as the samples need them. */
const appModules: Record<string, string> = {
  'users.ts': `
export interface AppUser { id: string; name: string; email: string }
/** Looks the user up and checks the password; null when either is wrong. */
export async function checkPassword(email: unknown, password: unknown): Promise<AppUser | null> {
  return typeof email === 'string' && typeof password === 'string' ? null : null
}
`,
  'auth.ts': `
import type { AuthConfig } from 'authchart'
import GitHub from 'authchart/providers/github'
export const authConfig: AuthConfig = { providers: [GitHub] }
`,
  'db.ts': `
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
export const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
`,
}

/** `paths` for every subpath of the package's export map: the source file its `types` entry is built from. */
function authchartPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | null | { types?: string }>
  }
  const paths: Record<string, string[]> = {}
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    // A null target blocks a subpath (`./providers/index`): nothing to map.
    const types = typeof target === 'object' && target !== null ? target.types : undefined
    if (!types) continue
    const source = types
      .replace(/^\.\/dist\//, '')
      .replace(/\.d\.ts$/, '.ts')
      .replace(/\.d\.mts$/, '.mts')
    paths[subpath === '.' ? 'authchart' : `authchart/${subpath.slice(2)}`] = [join(root, source)]
  }
  // Next.js resolves these bare names itself (the repository's tsconfig.json maps them the same way): `next` has no
  // export map, so NodeNext resolution would want `next/headers.js`, which authchart/next must not import.
  for (const name of ['headers', 'navigation', 'server'])
    paths[`next/${name}`] = [join(root, 'node_modules', 'next', `${name}.d.ts`)]
  return paths
}

const scratch = mkdtempSync(join(tmpdir(), 'authchart-doc-samples-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Writes `files` (path → text) into a fresh project under the scratch directory and runs tsc on it. */
function typecheck(name: string, files: Record<string, string>): { code: number | null; errors: string[] } {
  const project = join(scratch, name)
  mkdirSync(project, { recursive: true })
  // The repository's node_modules: the samples import express, kysely, ioredis ... as an app would.
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir')
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, file)), { recursive: true })
    writeFileSync(join(project, file), text)
  }
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      // Server samples and browser samples (`authchart/webauthn-client`) alike.
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      esModuleInterop: true,
      noEmit: true,
      // Every sample is a module of its own, so two samples may declare the same name.
      moduleDetection: 'force',
      paths: authchartPaths(),
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  }
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  // An ES module app, as the docs assume (top-level await, `import` of ESM-only packages).
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `doc-samples-${name}`, type: 'module' }))
  // Run in the project, so errors name the files relative to it.
  const run = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  const errors = `${run.stdout}${run.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line))
  return { code: run.status, errors }
}

const samples = pages.flatMap((page) => samplesOf(root, page))

describe('code samples in the docs', () => {
  it('finds the samples: every page with TypeScript has its blocks read', () => {
    expect(samples.length).toBeGreaterThan(20)
    for (const page of ['README.md', 'docs/getting-started.md', 'docs/adapters.md', 'docs/logging.md'])
      expect(samples.some((s) => s.page === page)).toBe(true)
  })

  it('a sample left unchecked says why', () => {
    for (const sample of samples.filter((s) => s.skipped !== null))
      expect(sample.skipped, `${sample.page}:${sample.line}`).toMatch(/\w{3,}/)
  })

  it('every TypeScript sample compiles against the library (tsc --noEmit)', () => {
    const files: Record<string, string> = {}
    const written = new Map<string, Sample>()
    const byPage = new Map<string, Sample[]>()
    for (const sample of samples) byPage.set(sample.page, [...(byPage.get(sample.page) ?? []), sample])
    for (const [page, list] of byPage) {
      const dir = page.replace(/\.md$/, '').replace(/[^\w/-]/g, '_')
      const own = new Set(list.map((s) => s.file))
      for (const sample of list.filter((s) => s.skipped === null)) {
        const path = `${dir}/${sample.file}`
        if (files[path] !== undefined) throw new Error(`${page}:${sample.line}: a second sample named ${sample.file}`)
        files[path] = `${sample.code}\n`
        written.set(path, sample)
      }
      for (const [file, text] of Object.entries(appModules)) if (!own.has(file)) files[`${dir}/${file}`] = text
    }
    const result = typecheck('docs', files)
    const located = result.errors.map((error) => locate(error, written))
    expect(located, 'fix the samples (or the library) at these places').toEqual([])
    expect(result.code).toBe(0)
  })

  it('catches a sample that does not compile (control)', () => {
    const result = typecheck('control', {
      'broken.ts':
        "import { Auth } from 'authchart'\nconst response: string = await Auth(new Request('http://x'), { providers: [] })\n",
      'unknown-export.ts': "import { NoSuchThing } from 'authchart/adapters/memory'\nNoSuchThing()\n",
    })
    expect(result.code).not.toBe(0)
    expect(result.errors.join('\n')).toContain("Type 'Response' is not assignable to type 'string'")
    expect(result.errors.join('\n')).toContain('NoSuchThing')
  })
})
