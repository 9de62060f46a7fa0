#!/usr/bin/env node
/**
 * Runs the compiled table's equivalence test (test/flow/compiled-equivalence.test.ts) against the newest xstate 5,
 * not the pinned one. The compiled table (src/flow/compiled-machine.ts) reads xstate's state nodes and action objects
 * at run time; package.json pins xstate exactly, so this is where a newer xstate that changed those internals shows
 * up, before anyone moves the pin.
 *
 * How: the package manager's ordinary client installs `xstate@5` (the newest 5.x) into a temporary directory; vitest
 * then runs the test with `xstate` (and `xstate/graph`, the path generator) aliased there, so the machines, the
 * compiled table, the path generator and the test all load that copy. test/flow/xstate-under-test.test.ts, run
 * beside it, fails unless the machines were built by the temporary copy (not the pinned one under node_modules/),
 * and prints the version it ran against.
 *
 * Verified by hand (28 Nov 2026, xstate 5.33.3 installed as the "newest"): the run printed
 * "[xstate-under-test] 5.33.3 from /tmp/.../node_modules/xstate" and passed; with `'xstate.assign'` renamed in that
 * copy's dist files (an internal the table reads to recognise `assign`), the same run (filtered to the session
 * machine) failed
 * ("machine \"session\": an inline action function ... is not supported by the compiled runtime"), while the pinned
 * copy under node_modules/ was untouched and its tests passed.
 *
 * When the newest 5.x is the pinned version, `npm test` has just run this very test against it: the check says so
 * and stops (a second run would take minutes and prove nothing new). `--force` runs it anyway (to check the check).
 *
 * Usage: node tools/xstate-latest-check.mjs [--force] [range]   (default range: 5)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const force = args.includes('--force')
const range = args.find((arg) => arg !== '--force') ?? '5'
const dir = mkdtempSync(join(tmpdir(), 'authchart-xstate-latest-'))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

try {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'xstate-latest-check', private: true }))
  execFileSync(
    npm,
    ['install', `xstate@${range}`, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const xstateDir = join(dir, 'node_modules', 'xstate')
  const { version } = JSON.parse(readFileSync(join(xstateDir, 'package.json'), 'utf8'))
  const pinned = JSON.parse(readFileSync(join(repo, 'node_modules', 'xstate', 'package.json'), 'utf8')).version
  if (version === pinned && !force) {
    console.log(`[xstate-latest] the newest xstate@${range} is ${version}, the pinned version: npm test ran the check`)
  } else {
    runAgainst(xstateDir, version, pinned)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

/** Runs the equivalence test (and the guard) with `xstate` resolved to `xstateDir`. */
function runAgainst(xstateDir, version, pinned) {
  console.log(`[xstate-latest] equivalence test against xstate ${version} (xstate@${range}; pinned: ${pinned})`)

  // A config of its own (no `vitest/config` import: it lives outside the repository's node_modules).
  const config = join(dirname(xstateDir), '..', 'vitest.config.mjs')
  writeFileSync(
    config,
    [
      'export default {',
      `  root: ${JSON.stringify(repo)},`,
      `  resolve: { alias: [{ find: /^xstate(?=\\/|$)/, replacement: ${JSON.stringify(xstateDir)} }] },`,
      '  test: { testTimeout: 60000, server: { deps: { inline: [/xstate/] } } },',
      '}',
      '',
    ].join('\n'),
  )
  // test/flow/xstate-under-test.test.ts fails unless the machines were built by this copy, not the pinned one.
  execFileSync(
    join(repo, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', config, 'test/flow/xstate-under-test.test.ts', 'test/flow/compiled-equivalence.test.ts'],
    { cwd: repo, stdio: 'inherit', env: { ...process.env, XSTATE_UNDER_TEST: xstateDir } },
  )
  console.log(`[xstate-latest] the compiled table agrees with xstate ${version}`)
}
