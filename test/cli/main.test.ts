/** The `authchart` command itself, run from the checkout's bin: `--version`, `--help`, `help <command>`, errors. */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const bin = resolve('bin/authchart.js')
const commands = ['secret', 'diagram', 'migrate'] as const

function authchart(...args: string[]) {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('authchart', () => {
  it('--version and -v print the version of package.json', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(authchart('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
    expect(authchart('-v').stdout).toBe(`${version}\n`)
  })

  it('--help lists every command and the options, exit code 0', () => {
    for (const flag of ['--help', '-h', 'help']) {
      const run = authchart(flag)
      expect(run.code).toBe(0)
      expect(run.stderr).toBe('')
      expect(run.stdout).toMatch(/^usage: authchart <command> \[options\]/)
      for (const command of commands) expect(run.stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
      expect(run.stdout).toContain('-v, --version')
    }
  })

  it.each(commands)('`%s --help` and `help %s` print that command’s usage, exit code 0', (command) => {
    const direct = authchart(command, '--help')
    expect(direct.stderr).toBe('')
    expect(direct.code).toBe(0)
    expect(direct.stdout).toMatch(new RegExp(`^usage: authchart ${command} `))
    expect(authchart('help', command)).toEqual(direct)
  })

  it('an unknown command, or none, prints the usage on stderr with exit code 2', () => {
    const unknown = authchart('deploy')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^authchart: unknown command "deploy"\nusage: authchart <command>/)
    expect(authchart('help', 'deploy').code).toBe(2)
    const none = authchart()
    expect(none.code).toBe(2)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(/^usage: authchart <command>/)
  })
})
