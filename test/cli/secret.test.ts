/**
 * `authchart secret`: a fresh 32-byte secret, printed as a .env line or alone, or written into ./.env without ever
 * being printed. The file tests run on real files in a scratch directory; the bin tests run the command as a user
 * does.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runSecretCommand, setEnvSecret } from '../../src/cli/secret.js'

const scratch = mkdtempSync(join(tmpdir(), 'authchart-secret-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const bin = resolve('bin/authchart.js')
const base64url32 = /^[A-Za-z0-9_-]{43}$/

async function secretCommand(argv: string[], cwd = scratch) {
  const out: string[] = []
  const err: string[] = []
  const code = await runSecretCommand(argv, { cwd, stdout: (l) => out.push(l), stderr: (l) => err.push(l) })
  return { code, out, err }
}

/** The AUTH_SECRET values a .env text sets. */
function secretsIn(text: string): string[] {
  return [...text.matchAll(/^(?:export )?AUTH_SECRET=(.*)$/gm)].map((m) => m[1].replace(/\r$/, ''))
}

describe('authchart secret (printing)', () => {
  it('prints AUTH_SECRET=<32 random bytes as base64url>, a new one each run', () => {
    const runs = [1, 2].map(() => spawnSync(process.execPath, [bin, 'secret'], { encoding: 'utf8' }))
    const secrets = runs.map((run) => {
      expect(run.status).toBe(0)
      expect(run.stderr).toBe('')
      const match = /^AUTH_SECRET=(\S+)\n$/.exec(run.stdout)
      expect(match).not.toBeNull()
      return match![1]
    })
    for (const secret of secrets) {
      expect(secret).toMatch(base64url32)
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    }
    expect(secrets[0]).not.toBe(secrets[1])
  })

  it('--raw prints the secret alone, for `AUTH_SECRET=$(authchart secret --raw)`', () => {
    const run = spawnSync(process.execPath, [bin, 'secret', '--raw'], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
  })

  it('answers an unknown flag, or --raw with --write, with the usage and exit code 2', async () => {
    const unknown = await secretCommand(['--length', '64'])
    expect(unknown.code).toBe(2)
    expect(unknown.err.join('\n')).toMatch(/^authchart secret: unknown argument: --length\nusage: authchart secret/)
    const both = await secretCommand(['--raw', '--write'])
    expect(both.code).toBe(2)
    expect(both.err[0]).toMatch(/^authchart secret: --raw and --write cannot be combined/)
    expect(both.out).toEqual([])
  })
})

describe('authchart secret --write', () => {
  it('creates .env with the secret, readable by its owner only, and does not print the secret', () => {
    const dir = mkdtempSync(join(scratch, 'new-'))
    const run = spawnSync(process.execPath, [bin, 'secret', '--write'], { cwd: dir, encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const text = readFileSync(join(dir, '.env'), 'utf8')
    const [secret] = secretsIn(text)
    expect(text).toBe(`AUTH_SECRET=${secret}\n`)
    expect(secret).toMatch(base64url32)
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600)
    expect(run.stdout).toBe(`created ${join(dir, '.env')} with AUTH_SECRET (readable by you only)\n`)
    expect(run.stdout).not.toContain(secret)
  })

  it('replaces the AUTH_SECRET line of an existing .env and keeps every other line and the file mode', async () => {
    const dir = mkdtempSync(join(scratch, 'replace-'))
    const path = join(dir, '.env')
    const before = [
      '# app settings',
      'DATABASE_URL=postgres://app@db/app',
      'AUTH_SECRET=the-old-secret-that-must-go-away-now',
      'AUTH_GITHUB_ID=abc',
      'AUTH_SECRET_1=a-rotated-secret-stays-as-it-is',
      '',
    ].join('\n')
    writeFileSync(path, before, { mode: 0o640 })
    const run = await secretCommand(['--write'], dir)
    expect(run.code).toBe(0)
    const after = readFileSync(path, 'utf8')
    const [secret] = secretsIn(after)
    expect(secret).toMatch(base64url32)
    expect(after).toBe(before.replace('AUTH_SECRET=the-old-secret-that-must-go-away-now', `AUTH_SECRET=${secret}`))
    expect(statSync(path).mode & 0o777).toBe(0o640)
    expect(run.out).toEqual([
      `replaced AUTH_SECRET in ${path}; sessions and flow cookies sealed with the previous secret no longer open`,
    ])
    expect([...run.out, ...run.err].join('\n')).not.toContain(secret)
  })

  it('adds the line to a .env without one, after a last line that has no newline', async () => {
    const dir = mkdtempSync(join(scratch, 'append-'))
    writeFileSync(join(dir, '.env'), 'PORT=3000')
    const run = await secretCommand(['--write'], dir)
    expect(run.code).toBe(0)
    const after = readFileSync(join(dir, '.env'), 'utf8')
    const [secret] = secretsIn(after)
    expect(after).toBe(`PORT=3000\nAUTH_SECRET=${secret}\n`)
    expect(run.out).toEqual([`added AUTH_SECRET to ${join(dir, '.env')}`])
  })

  it('fails with exit code 1 and a message when .env cannot be written', async () => {
    const dir = mkdtempSync(join(scratch, 'unwritable-'))
    // A directory where the file should be: the write fails whatever the user's privileges.
    mkdirSync(join(dir, '.env'))
    const run = await secretCommand(['--write'], dir)
    expect(run.code).toBe(1)
    expect(run.err[0]).toMatch(/^authchart secret: /)
  })
})

describe('setEnvSecret: the .env edit', () => {
  it('keeps `export` prefixes and CRLF line endings, and sets every AUTH_SECRET line', () => {
    const { text, replaced } = setEnvSecret('A=1\r\nexport AUTH_SECRET = "old"\r\nAUTH_SECRET=older\r\nB=2\r\n', 'NEW')
    expect(replaced).toBe(true)
    expect(text).toBe('A=1\r\nexport AUTH_SECRET=NEW\r\nAUTH_SECRET=NEW\r\nB=2\r\n')
  })

  it('leaves look-alike names and comments alone', () => {
    const input = '# AUTH_SECRET=in a comment\nNEXT_AUTH_SECRET=x\nAUTH_SECRET_2=y\n'
    expect(setEnvSecret(input, 'NEW')).toEqual({ text: `${input}AUTH_SECRET=NEW\n`, replaced: false })
  })

  it('writes the line alone into an empty file', () => {
    expect(setEnvSecret('', 'NEW')).toEqual({ text: 'AUTH_SECRET=NEW\n', replaced: false })
  })
})
