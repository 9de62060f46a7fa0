import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { runDiagramCommand } from '../../src/cli/diagram.js'
import { describeEntry, toDot, toFlowsMarkdown, toMermaid } from '../../visualizations/index.js'
import { fixtureNestedEntry, fixtureSignInEntry } from './fixtures/fixture-machines.js'

const scratch = mkdtempSync(join(tmpdir(), 'authchart-diagram-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function capture(): {
  out: string[]
  err: string[]
  options: { stdout: (l: string) => void; stderr: (l: string) => void }
} {
  const out: string[] = []
  const err: string[] = []
  return { out, err, options: { stdout: (l) => out.push(l), stderr: (l) => err.push(l) } }
}

describe('authchart diagram', () => {
  it('--format mermaid writes one .mmd file per registered machine', async () => {
    const dir = join(scratch, 'mermaid')
    const io = capture()
    expect(await runDiagramCommand(['--format', 'mermaid', '--out', dir], io.options)).toBe(0)
    expect(readdirSync(dir).sort()).toEqual(
      Object.keys(machineRegistry)
        .map((id) => `${id}.mmd`)
        .sort(),
    )
    for (const entry of Object.values(machineRegistry)) {
      expect(readFileSync(join(dir, `${entry.id}.mmd`), 'utf8')).toBe(toMermaid(describeEntry(entry)))
    }
    expect(io.out).toHaveLength(Object.keys(machineRegistry).length)
  })

  it('--format=dot writes one .dot file per machine of the registry it is given', async () => {
    const dir = join(scratch, 'dot')
    const registry = { fixture: fixtureSignInEntry, nested: fixtureNestedEntry }
    expect(await runDiagramCommand([`--format=dot`, `--out=${dir}`], { ...capture().options, registry })).toBe(0)
    expect(readFileSync(join(dir, 'nested.dot'), 'utf8')).toBe(toDot(describeEntry(fixtureNestedEntry)))
  })

  it('--format markdown writes flows.md', async () => {
    const dir = join(scratch, 'md')
    expect(await runDiagramCommand(['--format', 'markdown', '--out', dir], capture().options)).toBe(0)
    expect(readFileSync(join(dir, 'flows.md'), 'utf8')).toBe(
      toFlowsMarkdown(Object.values(machineRegistry).map(describeEntry)),
    )
  })

  it('--config applies the app’s guards, so they show on the diagram', async () => {
    const dir = join(scratch, 'configured')
    const io = capture()
    const code = await runDiagramCommand(['--config', 'test/visualizations/fixtures/auth-config.ts', '--out', dir], {
      ...io.options,
      cwd: resolve('.'),
    })
    expect(io.err).toEqual([])
    expect(code).toBe(0)
    expect(readFileSync(join(dir, 'credentials.mmd'), 'utf8')).toContain('SIGNIN_ALLOWED [allowSignIn (app)]')
    expect(readFileSync(join(dir, 'session.mmd'), 'utf8')).not.toContain('(app)')
  })

  it('refuses a config whose guard is not an extension point, naming it', async () => {
    const io = capture()
    const code = await runDiagramCommand(
      ['--config', 'test/visualizations/fixtures/misnamed-guard-config.ts', '--out', join(scratch, 'never')],
      io.options,
    )
    expect(code).toBe(1)
    expect(io.err.join('\n')).toMatch(
      /^authchart diagram: InvalidFlowExtension: config\.flows\.credentials\.guards\.allowUserCreation: "allowUserCreation" is not an extension point of the credentials machine/,
    )
  })

  it('answers an unknown format or flag with the usage and exit code 2', async () => {
    const io = capture()
    expect(await runDiagramCommand(['--format', 'png'], io.options)).toBe(2)
    expect(io.err[0]).toBe('authchart diagram: unknown format: png (expected mermaid, dot, html, markdown)')
    expect(io.err[1]).toMatch(/^usage: authchart diagram/)
    expect(await runDiagramCommand(['--verbose'], capture().options)).toBe(2)
    expect(await runDiagramCommand(['--out'], capture().options)).toBe(2)
  })

  it('--help prints the usage and succeeds', async () => {
    const io = capture()
    expect(await runDiagramCommand(['--help'], io.options)).toBe(0)
    expect(io.out[0]).toMatch(/^usage: authchart diagram \[--format mermaid\|dot\|html\|markdown\]/)
  })

  it('runs from the bin: `authchart diagram --format html` writes the inspector', () => {
    const dir = join(scratch, 'bin')
    const run = spawnSync(process.execPath, ['bin/authchart.js', 'diagram', '--format', 'html', '--out', dir], {
      encoding: 'utf8',
    })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe(`wrote ${join(dir, 'flow-inspector.html')}`)
    expect(readFileSync(join(dir, 'flow-inspector.html'), 'utf8')).toMatch(/^<!doctype html>/)
  })
})
