/**
 * `authchart diagram --config` loads the config in every shape the docs show: the default export, a named
 * `authConfig` or `config` export, and a function returning the config (the Qwik guide's `authConfig(event.env)`).
 * Each fixture carries the same app guard, so each run must draw it as `(app)` on the credentials chart.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { runDiagramCommand } from '../../src/cli/diagram.js'

const scratch = mkdtempSync(join(tmpdir(), 'authchart-diagram-config-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
afterEach(() => {
  delete process.env.DIAGRAM_FIXTURE_STAFF_ONLY
})

const appGuard = 'SIGNIN_ALLOWED [allowSignIn (app)]'

async function diagramWith(config: string): Promise<{ code: number; out: string[]; err: string[]; dir: string }> {
  const dir = mkdtempSync(join(scratch, 'out-'))
  const out: string[] = []
  const err: string[] = []
  const code = await runDiagramCommand(['--config', `test/cli/fixtures/${config}`, '--out', dir], {
    cwd: resolve('.'),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  })
  return { code, out, err, dir }
}

describe('authchart diagram --config: the config shapes of the docs', () => {
  it.each([
    ['a default export', '../../visualizations/fixtures/auth-config.ts'],
    ['a named `authConfig` export', 'named-auth-config.ts'],
    ['a named `config` export', 'named-config.ts'],
    ['a default export that is a function returning the config', 'default-function.ts'],
    [
      '`authConfig` beside a default export that is the server (`export default { fetch }`)',
      'worker-with-auth-config.ts',
    ],
  ])('%s', async (_shape, file) => {
    const run = await diagramWith(file)
    expect(run.err).toEqual([])
    expect(run.code).toBe(0)
    expect(readFileSync(join(run.dir, 'credentials.mmd'), 'utf8')).toContain(appGuard)
  })

  it('a function of the env reader (`authConfig(env)`), called with a working `env.get` and awaited', async () => {
    process.env.DIAGRAM_FIXTURE_STAFF_ONLY = 'yes'
    const withGuard = await diagramWith('config-function.ts')
    expect(withGuard.err).toEqual([])
    expect(readFileSync(join(withGuard.dir, 'credentials.mmd'), 'utf8')).toContain(appGuard)

    delete process.env.DIAGRAM_FIXTURE_STAFF_ONLY
    const without = await diagramWith('config-function.ts')
    expect(without.code).toBe(0)
    expect(readFileSync(join(without.dir, 'credentials.mmd'), 'utf8')).not.toContain('(app)')
  })

  it('a module with no config says which exports it has and which names it looks for, exit code 1', async () => {
    const run = await diagramWith('no-config.ts')
    expect(run.code).toBe(1)
    expect(run.err).toHaveLength(1)
    expect(run.err[0]).toContain('no AuthConfig found (exports: handler, providers)')
    expect(run.err[0]).toContain('export it as the default export, `authConfig` or `config`')
  })

  it('a config function that returns nothing is refused, naming the export and what it returned', async () => {
    const run = await diagramWith('function-returning-nothing.ts')
    expect(run.code).toBe(1)
    expect(run.err[0]).toMatch(
      /the function exported as `authConfig` must return the AuthConfig .*it returned undefined$/,
    )
  })

  it('a JavaScript config with a named `config` export, from the bin', () => {
    const dir = join(scratch, 'bin-js')
    const run = spawnSync(
      process.execPath,
      ['bin/authchart.js', 'diagram', '--config', 'test/cli/fixtures/plain-config.mjs', '--out', dir],
      { encoding: 'utf8' },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(readFileSync(join(dir, 'credentials.mmd'), 'utf8')).toContain(appGuard)
  })
})
