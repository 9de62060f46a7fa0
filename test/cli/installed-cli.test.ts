/**
 * The command as a user gets it: the package built and packed (`npm pack`), installed into an empty project with its
 * required dependencies only (`--omit=optional --omit=peer`: no kysely, no database driver, no framework), then run
 * from node_modules/.bin. `--help` and `--version` must work there; a command that needs an optional dependency says
 * which one to install instead of crashing.
 */
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { npm, npmFlags, packAuthchart, removePackedAuthchart, root, run } from '../frameworks/support/fixture-app.js'

let project = ''
let bin = ''
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

beforeAll(async () => {
  const tarball = await packAuthchart()
  project = mkdtempSync(join(tmpdir(), 'authchart-installed-cli-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cli-install-check', private: true }))
  run(npm, ['install', ...npmFlags, '--omit=optional', '--omit=peer', tarball], project)
  bin = join(project, 'node_modules', '.bin', 'authchart')
}, 600_000)

afterAll(async () => {
  if (project) rmSync(project, { recursive: true, force: true })
  await removePackedAuthchart()
})

/** Runs the installed bin in the project directory (the bin is a symlink to bin/authchart.js, run by node). */
function authchart(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: project, encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('authchart installed without optional dependencies', () => {
  it('is an install with the required dependencies only and the built CLI, no sources', () => {
    const installed = readdirSync(join(project, 'node_modules'))
    for (const optional of ['kysely', 'pg', 'mysql2', 'better-sqlite3', 'ioredis', 'express', 'tsx', 'typescript'])
      expect(installed).not.toContain(optional)
    expect(installed).toContain('xstate')
    const pkg = join(project, 'node_modules', 'authchart')
    expect(existsSync(join(pkg, 'src'))).toBe(false)
    expect(statSync(join(pkg, 'dist', 'src', 'cli', 'main.js')).isFile()).toBe(true)
  })

  it('--version prints the packed version', () => {
    expect(authchart('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('--help lists the commands', () => {
    const help = authchart('--help')
    expect(help.stderr).toBe('')
    expect(help.code).toBe(0)
    for (const command of ['secret', 'diagram', 'migrate'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
  })

  it.each(['secret', 'diagram', 'migrate'])('`%s --help` prints its usage', (command) => {
    const help = authchart(command, '--help')
    expect(help.stderr).toBe('')
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(new RegExp(`^usage: authchart ${command} `))
  })

  it('`secret` and `diagram` run: they need no optional dependency', () => {
    expect(authchart('secret', '--raw').stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
    const diagram = authchart('diagram', '--format', 'mermaid', '--out', 'charts')
    expect(diagram.stderr).toBe('')
    expect(diagram.code).toBe(0)
    expect(readFileSync(join(project, 'charts', 'credentials.mmd'), 'utf8')).toMatch(/^stateDiagram-v2\n/)
  })

  it('`migrate` without kysely names the packages to install, exit code 1, no stack trace', () => {
    const migrate = authchart('migrate', '--url', 'auth.sqlite')
    expect(migrate.code).toBe(1)
    expect(migrate.stdout).toBe('')
    expect(migrate.stderr).toBe(
      'authchart migrate: kysely is not installed; sqlite needs kysely and better-sqlite3: npm install kysely better-sqlite3\n',
    )
  })

  it('`diagram --config ./auth.ts` from an install: says how to run it through tsx, not "Unknown file extension"', () => {
    writeFileSync(
      join(project, 'auth.ts'),
      'const providers: Array<{ id: string }> = []\nexport const authConfig = { providers }\n',
    )
    const without = authchart('diagram', '--format', 'mermaid', '--out', 'ts-charts', '--config', './auth.ts')
    expect(without.code).not.toBe(0)
    expect(without.stderr).toContain('install tsx in the project (npm install -D tsx')
    expect(without.stderr).not.toMatch(/Unknown file extension|\n\s+at /)
  })

  it('`diagram --config ./auth.ts` loads the config through the project’s own tsx once it has one', () => {
    writeFileSync(
      join(project, 'auth-with-guard.ts'),
      [
        "import type { AuthConfig } from 'authchart'",
        'const officeHours = (): boolean => true // typed: only tsx can load this file',
        'export const authConfig: Pick<AuthConfig, "providers" | "flows"> = {',
        '  providers: [],',
        '  flows: { credentials: { guards: { allowSignIn: officeHours } } },',
        '}',
        '',
      ].join('\n'),
    )
    // The project installs tsx (here: the checkout's own copy, linked, so the test needs no network).
    symlinkSync(join(root, 'node_modules', 'tsx'), join(project, 'node_modules', 'tsx'), 'dir')
    try {
      const loaded = authchart(
        'diagram',
        '--format',
        'mermaid',
        '--out',
        'ts-charts',
        '--config',
        './auth-with-guard.ts',
      )
      expect(loaded.stderr).toBe('')
      expect(loaded.code).toBe(0)
      // The app's guard is on the chart: the config was loaded, not just parsed.
      expect(readFileSync(join(project, 'ts-charts', 'credentials.mmd'), 'utf8')).toContain('[allowSignIn (app)]')
    } finally {
      rmSync(join(project, 'node_modules', 'tsx'))
    }
  })
})
