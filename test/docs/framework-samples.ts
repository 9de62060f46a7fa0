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
 *
 * A page's Svelte samples (```svelte, components) are checked only where the project says how (`svelte`, SvelteKit):
 * each is written as a route's page component next to a control component that must fail with a known error, and the
 * app's own svelte-check (Svelte's checker: component props, snippets) checks the same project. tsc answers for the
 * TypeScript files; of svelte-check's diagnostics, those of `.svelte` files count.
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
  /** How the Svelte samples are checked (svelte-check, installed in the app); a page with some needs it. */
  svelte?: SvelteSamples
}

/** Where the Svelte samples go in the project, and their control. */
export interface SvelteSamples {
  /** Where a Svelte sample is written, relative to the project (a directory of its own: the name is fixed). */
  place(sample: Sample): string
  /** A component that must fail svelte-check, written where a sample would be, and its expected error. */
  control: { file: string; text: string; error: string }
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
  /** How many Svelte samples were written (checked by svelte-check), if the project checks them. */
  svelteChecked?: number
  /** Whether the Svelte control failed svelte-check with its expected error, if the project checks them. */
  svelteControlFailed?: boolean
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

/** Where each checked Svelte sample of the page is written (none where the project does not check them). */
function placeSvelteSamples(project: SamplesProject): Map<string, Sample> {
  const svelte = project.svelte
  if (!svelte) return new Map()
  const checked = samplesOf(root, project.page, 'svelte').filter((s) => s.skipped === null)
  return new Map(checked.map((sample) => [svelte.place(sample), sample]))
}

/**
 * Writes the page's samples into `<app>/doc-samples`, generates the framework's types and runs tsc there, then
 * svelte-check if the project checks Svelte samples.
 */
export function checkSamples(project: SamplesProject, app: string): SamplesCheck {
  const dir = join(app, 'doc-samples')
  rmSync(dir, { recursive: true, force: true })
  const placed = placeSamples(samplesOf(root, project.page))
  const placedSvelte = placeSvelteSamples(project)
  const files: Record<string, string> = { ...project.appFiles }
  for (const [path, sample] of [...placed, ...placedSvelte]) files[path] = `${sample.code}\n`
  files[project.control.file] = project.control.text
  if (project.svelte) files[project.svelte.control.file] = project.svelte.control.text
  files['tsconfig.json'] = JSON.stringify(project.tsconfig, null, 2)
  files['package.json'] = JSON.stringify({ name: 'doc-samples', private: true, type: 'module' })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  project.generate?.(dir, app)
  // The repository's TypeScript, as the fixtures' own type checks use (svelte-check, below, needs the JavaScript API
  // TypeScript 7 does not ship: it runs on the TypeScript 6 fixture-kit2 installs for it).
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
  const result: SamplesCheck = {
    checked: placed.size,
    errors: errors.filter((error) => !isControl(error)).map((error) => locate(error, placed)),
    controlFailed: errors.some((error) => isControl(error) && error.includes(project.control.error)),
    notCompiled: [...placed.keys()].filter((path) => !compiled.has(join(dir, path))),
  }
  if (!project.svelte) return result
  const control = project.svelte.control
  const diagnostics = svelteCheck(dir, app)
  const isSvelteControl = (d: SvelteDiagnostic) => d.file === control.file
  return {
    ...result,
    errors: [
      ...result.errors,
      ...diagnostics.filter((d) => !isSvelteControl(d)).map((d) => locateSvelte(d, placedSvelte)),
    ],
    svelteChecked: placedSvelte.size,
    svelteControlFailed: diagnostics.some(
      (d) => isSvelteControl(d) && d.severity === 'ERROR' && d.message.includes(control.error),
    ),
  }
}

/** One line of svelte-check's `--output machine`. */
interface SvelteDiagnostic {
  severity: 'ERROR' | 'WARNING'
  file: string
  line: number
  message: string
}

/**
 * The app's svelte-check on the project (its tsconfig), with the app's TypeScript; the errors and warnings of
 * `.svelte` files (a warning, say of accessibility, is printed by the user's build too).
 */
function svelteCheck(dir: string, app: string): SvelteDiagnostic[] {
  const bin = join(app, 'node_modules/svelte-check/bin/svelte-check')
  const args = ['--workspace', '.', '--tsconfig', './tsconfig.json', '--output', 'machine']
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const output = `${run.stdout}${run.stderr}`
  // Without its closing line, svelte-check stopped early (no tsconfig, a crash): nothing was checked.
  if (run.error || !/^\d+ COMPLETED \d+ FILES /m.test(output))
    throw new Error(`svelte-check did not complete in ${dir}: ${String(run.error)}\n${output}`)
  const diagnostics: SvelteDiagnostic[] = []
  for (const match of output.matchAll(/^\d+ (ERROR|WARNING) "([^"]+\.svelte)" (\d+):\d+ (".*")$/gm)) {
    const [, severity, file, line, quoted] = match
    // The message is printed as a JSON string.
    const message: unknown = JSON.parse(quoted)
    diagnostics.push({
      severity: severity === 'ERROR' ? 'ERROR' : 'WARNING',
      file,
      line: Number(line),
      message: typeof message === 'string' ? message : quoted,
    })
  }
  return diagnostics
}

/** The page and line of a svelte-check diagnostic in a written Svelte sample. */
function locateSvelte(diagnostic: SvelteDiagnostic, written: ReadonlyMap<string, Sample>): string {
  const { severity, file, line, message } = diagnostic
  const sample = written.get(file)
  const where = sample ? `${sample.page}:${sample.line + line} (${file})` : `${file}:${line}`
  return `${where}: svelte-check ${severity}: ${message}`
}

/** The test's assertions on `checkSamples`: every sample compiles, all were compiled, and the control failed. */
export function expectSamplesToCompile(project: SamplesProject, app: string): void {
  const result = checkSamples(project, app)
  expect(result.errors, 'fix the samples (or the library) at these places').toEqual([])
  expect(result.notCompiled, "samples the project's tsconfig leaves out").toEqual([])
  expect(result.controlFailed, `${project.control.file} must fail with "${project.control.error}"`).toBe(true)
  expect(result.checked).toBeGreaterThan(3)
  if (project.svelte) {
    const control = project.svelte.control
    expect(result.svelteControlFailed, `${control.file} must fail svelte-check with "${control.error}"`).toBe(true)
    expect(result.svelteChecked).toBeGreaterThan(0)
  }
}
