/**
 * The samples of a framework guide (docs/frameworks/*.md), type-checked inside an installed fixture app of that
 * framework: the app's own copy of the framework, and Authchart as the packed tarball installed there, so the
 * samples meet the published declarations and the framework's generated types, as in a user's project.
 *
 * The page's samples (conventions of samples.ts) are written into `doc-samples/` under the app's directory, a
 * project of its own whose modules resolve from the app's node_modules: the fixture's own source is not touched.
 * Beyond the conventions of samples.ts:
 * - a sample without a file name is written as `src/sample-line-<line>.ts` (or `.tsx`);
 * - a later sample naming a file an earlier one wrote (another way to write the same file) is written next to it
 *   as `variant-line-<line>.<its name>`, so its relative imports resolve the same; other samples import the first.
 *
 * One compiler run checks the samples and a control file that must fail with a known error, and lists the files
 * it compiled, so the check cannot pass by compiling nothing.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix, resolve } from 'node:path'
import { expect } from 'vitest'
import { locate, samplesOf, type Sample } from './samples.js'

const root = resolve(import.meta.dirname, '../..')

/** How one guide's samples become a project of its framework. */
export interface SamplesProject {
  /** The guide, relative to the repository root. */
  page: string
  /** Files the guide leaves to the reader (path → text), written unless a sample writes the same path. */
  appFiles: Record<string, string>
  /** The project's tsconfig.json. */
  tsconfig: Record<string, unknown>
  /** A file that must not compile (proof that the project compiles what it should), and its expected error. */
  control: { file: string; text: string; error: string }
  /** The framework's own generation of types, run in the project once its files are written (`svelte-kit sync`). */
  generate?(project: string, app: string): void
}

export interface SamplesCheck {
  /** How many samples were written (checked). */
  checked: number
  /** Compiler errors other than the control's, as page:line of the sample where possible. */
  errors: string[]
  /** Whether the control file failed with its expected error. */
  controlFailed: boolean
  /** Written samples the compiler did not compile (the tsconfig does not include them). */
  notCompiled: string[]
}

/** Where each checked sample of the page is written, relative to the project. */
export function placeSamples(samples: Sample[]): Map<string, Sample> {
  const placed = new Map<string, Sample>()
  for (const sample of samples.filter((s) => s.skipped === null)) {
    let path = sample.named ?? `src/${sample.file}`
    if (placed.has(path)) path = posix.join(posix.dirname(path), `variant-line-${sample.line}.${posix.basename(path)}`)
    placed.set(path, sample)
  }
  return placed
}

/** Writes the page's samples into `<app>/doc-samples`, generates the framework's types and runs tsc there. */
export function checkSamples(project: SamplesProject, app: string): SamplesCheck {
  const dir = join(app, 'doc-samples')
  rmSync(dir, { recursive: true, force: true })
  const placed = placeSamples(samplesOf(root, project.page))
  const files: Record<string, string> = { ...project.appFiles }
  for (const [path, sample] of placed) files[path] = `${sample.code}\n`
  files[project.control.file] = project.control.text
  files['tsconfig.json'] = JSON.stringify(project.tsconfig, null, 2)
  files['package.json'] = JSON.stringify({ name: 'doc-samples', private: true, type: 'module' })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  project.generate?.(dir, app)
  // The repository's TypeScript, as the fixtures' own type checks use (the apps do not install one).
  const run = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--listFiles'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const output = `${run.stdout}${run.stderr}`.split('\n')
  if (run.status === null || run.error) throw new Error(`tsc did not run in ${dir}: ${String(run.error)}`)
  const compiled = new Set(output.filter((line) => line.startsWith('/')).map((line) => resolve(line.trim())))
  const errors = output.filter((line) => /error TS\d+/.test(line))
  const isControl = (error: string) => error.startsWith(`${project.control.file}(`)
  return {
    checked: placed.size,
    errors: errors.filter((error) => !isControl(error)).map((error) => locate(error, placed)),
    controlFailed: errors.some((error) => isControl(error) && error.includes(project.control.error)),
    notCompiled: [...placed.keys()].filter((path) => !compiled.has(join(dir, path))),
  }
}

/** The test's assertions on `checkSamples`: every sample compiles, all were compiled, and the control failed. */
export function expectSamplesToCompile(project: SamplesProject, app: string): void {
  const result = checkSamples(project, app)
  expect(result.errors, 'fix the samples (or the library) at these places').toEqual([])
  expect(result.notCompiled, "samples the project's tsconfig leaves out").toEqual([])
  expect(result.controlFailed, `${project.control.file} must fail with "${project.control.error}"`).toBe(true)
  expect(result.checked).toBeGreaterThan(3)
}
