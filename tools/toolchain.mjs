// The toolchain: what neither the library, nor the demo, nor the core tests need, kept out of the root devDependencies
// so that the repository's own `npm install` stays small (tools/toolchain/package.json lists it): the framework
// toolchains (Next.js and React, Qwik and Qwik City, SvelteKit and Svelte, Express 4, Drizzle), SQLite's native
// driver (compiled from source where no prebuilt binary can be fetched), the lint, format and import-rule tools, and
// the benchmarks' libraries. The scripts that need it (`npm run typecheck`, `build`, `lint`, `format`, `deps:check`, `bench`) and the
// `toolchain` project of vitest.config.ts call this script, which:
//   1. installs tools/toolchain/ from its own lock file, once per lock file (the hash is kept in its node_modules),
//      without install scripts: types and plain modules need none; and puts back, from the same lock file, what a
//      root `npm install` pruned from it since (missingPackages below);
//   2. with `--native` (the tests), runs the install scripts of the packages its package.json allows (better-sqlite3),
//      once;
//   3. links each of its direct dependencies, and their commands, into the root node_modules/, where the sources,
//      the tests and `npm run` resolve them. A real package of the same name in the root wins.
// The root `npm install`/`npm ci` removes these links (they are not in the root lock file); the next script or test
// that needs them puts them back.
// Usage: `node tools/toolchain.mjs [--native]` (quiet when everything is in place), or `ensureToolchain()`.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const folder = join(root, 'tools', 'toolchain')
const installedMark = join(folder, 'node_modules', '.authchart-lock-hash')
const nativeMark = join(folder, 'node_modules', '.authchart-native-hash')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const lockDir = join(folder, '.installing')

const hashOfLock = () =>
  createHash('sha256')
    .update(readFileSync(join(folder, 'package.json')))
    .update(readFileSync(join(folder, 'package-lock.json')))
    .digest('hex')

/** Holds a lock directory while `work` runs: a typecheck and a test may both ask for the toolchain at once. */
function withLock(work) {
  const deadline = Date.now() + 600_000
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch {
      // A lock left by a killed install is stale after ten minutes.
      const age = Date.now() - (statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 600_000) rmSync(lockDir, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

const marked = (mark) => (statSync(mark, { throwIfNoEntry: false }) ? readFileSync(mark, 'utf8') : '')

function npmIn(args) {
  // Progress to stderr: a script's stdout may be read by whoever called it.
  const result = spawnSync(npm, [...args, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: folder,
    stdio: ['ignore', 2, 2],
  })
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} in ${folder} failed (exit ${String(result.status)})`)
}

/**
 * The installed packages (paths as npm's own record of the install lists them) whose folder is gone. A root `npm
 * install` does this: it sees the links in the root node_modules/ as packages of its own project (their targets are
 * inside it) and prunes the nested node_modules/ of their targets (dependency-cruiser's own commander, Next's own
 * sharp), which its lock file does not list, leaving the toolchain's mark in place.
 */
function missingPackages() {
  const record = join(folder, 'node_modules', '.package-lock.json')
  if (!statSync(record, { throwIfNoEntry: false })) return ['node_modules']
  const { packages = {} } = JSON.parse(readFileSync(record, 'utf8'))
  return Object.keys(packages).filter(
    (path) => path !== '' && !statSync(join(folder, path, 'package.json'), { throwIfNoEntry: false }),
  )
}

function install(hash) {
  if (marked(installedMark) === hash) {
    const missing = missingPackages()
    if (missing.length === 0) return false
    // Same lock file: put back what is missing, from it, leaving what is there (and built) alone.
    console.error(
      `[toolchain] restoring ${String(missing.length)} pruned packages in tools/toolchain/ (${missing[0]}, ...)`,
    )
    npmIn(['install', '--ignore-scripts', '--no-save'])
    // A restored package with install scripts has not run them: build it again.
    if (missing.some((path) => allowedScripts().some((name) => path.includes(`node_modules/${name}`))))
      rmSync(nativeMark, { force: true })
    return true
  }
  console.error('[toolchain] installing tools/toolchain/ (once per lock file; see tools/toolchain.mjs)')
  npmIn(['ci', '--ignore-scripts'])
  writeFileSync(installedMark, hash)
  return true
}

/** The packages whose install scripts tools/toolchain/package.json allows (`allowScripts`). */
function allowedScripts() {
  const { allowScripts = {} } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  return Object.keys(allowScripts).filter((name) => allowScripts[name] === true)
}

function buildNative(hash) {
  if (marked(nativeMark) === hash) return
  const names = allowedScripts()
  console.error(`[toolchain] building ${names.join(', ')} in tools/toolchain/ (once per lock file)`)
  npmIn(['rebuild', ...names])
  writeFileSync(nativeMark, hash)
}

function link() {
  const { dependencies } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  for (const name of Object.keys(dependencies)) {
    const target = join(folder, 'node_modules', name)
    const place = join(root, 'node_modules', name)
    const existing = lstatSync(place, { throwIfNoEntry: false })
    if (existing?.isSymbolicLink()) {
      if (resolve(dirname(place), readlinkSync(place)) === target) continue
      rmSync(place)
    } else if (existing) continue
    mkdirSync(dirname(place), { recursive: true })
    symlinkSync(relative(dirname(place), target), place, 'dir')
  }
  // Their commands (eslint, prettier, ...), for `npm run` and `npx` in the root.
  const bins = join(folder, 'node_modules', '.bin')
  for (const command of readdirSync(bins, { withFileTypes: true })) {
    const place = join(root, 'node_modules', '.bin', command.name)
    const existing = lstatSync(place, { throwIfNoEntry: false })
    if (existing && !(existing.isSymbolicLink() && readlinkSync(place).includes('tools/toolchain'))) continue
    const target = resolve(bins, readlinkSync(join(bins, command.name)))
    if (existing) rmSync(place)
    mkdirSync(dirname(place), { recursive: true })
    symlinkSync(relative(dirname(place), target), place)
  }
}

/**
 * Installs (when its lock file changed), builds the native packages (with `native`) and links the toolchain; returns
 * whether it installed.
 */
export function ensureToolchain({ native = false } = {}) {
  return withLock(() => {
    const hash = hashOfLock()
    const installed = install(hash)
    if (native) buildNative(hash)
    link()
    return installed
  })
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  ensureToolchain({ native: process.argv.includes('--native') })
