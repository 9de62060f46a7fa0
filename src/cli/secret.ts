/**
 * `authchart secret`: a fresh value for `AUTH_SECRET`, printed, or written into the `.env` file of the current
 * directory.
 *
 * ```
 * authchart secret [--raw | --write]
 * ```
 * The value is 32 random bytes in base64url (43 characters, above the 32 the config check asks for). With `--write`
 * the secret is never printed: a terminal's scroll-back and a CI log are places a secret should not reach.
 * @module cli/secret
 */
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { randomToken } from '../security/random.js'

const usage = `usage: authchart secret [--raw | --write]
  (no option)  print a line for your .env file: AUTH_SECRET=<32 random bytes, base64url>
  --raw        print the secret alone, e.g. AUTH_SECRET=$(npx authchart secret --raw)
  --write      write AUTH_SECRET into ./.env instead of printing it: the line is replaced when the file has one,
               added otherwise; other lines are kept; a new .env is readable by its owner only (mode 0600)`

/** Where the command writes; replaceable in tests. */
export interface SecretCommandOptions {
  cwd?: string
  stdout?: (line: string) => void
  stderr?: (line: string) => void
}

type Mode = 'line' | 'raw' | 'write'

function parseArgs(argv: readonly string[]): { mode: Mode } | { help: true } | { error: string } {
  let mode: Mode = 'line'
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return { help: true }
    if (arg !== '--raw' && arg !== '--write') return { error: `unknown argument: ${arg}` }
    const asked: Mode = arg === '--raw' ? 'raw' : 'write'
    if (mode !== 'line' && mode !== asked) return { error: '--raw and --write cannot be combined' }
    mode = asked
  }
  return { mode }
}

/** A fresh secret: 32 bytes from the system's CSPRNG, base64url. */
export function generateSecret(): string {
  return randomToken(32)
}

/** A line that sets AUTH_SECRET (`export ` prefixes and spaces around `=` allowed, as dotenv reads them). */
const secretLine = /^(\s*(?:export\s+)?)AUTH_SECRET\s*=.*$/

/**
 * `text` (the content of a .env file) with every AUTH_SECRET line set to `secret`, or the line appended when there
 * is none. Other lines, their order and the file's line endings are kept.
 * @returns the new text and whether a line was replaced
 */
export function setEnvSecret(text: string, secret: string): { text: string; replaced: boolean } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const lines = text.split(/\r?\n/)
  let replaced = false
  const updated = lines.map((line) => {
    const match = secretLine.exec(line)
    if (!match) return line
    replaced = true
    return `${match[1] ?? ''}AUTH_SECRET=${secret}`
  })
  if (replaced) return { text: updated.join(eol), replaced }
  const base = text === '' || text.endsWith('\n') ? text : `${text}${eol}`
  return { text: `${base}AUTH_SECRET=${secret}${eol}`, replaced }
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return null
    throw err
  }
}

/** Writes the secret into `<cwd>/.env`; says what it did without the value. */
async function writeSecret(cwd: string, stdout: (line: string) => void): Promise<void> {
  const path = resolve(cwd, '.env')
  const secret = generateSecret()
  const existing = await readIfExists(path)
  if (existing === null) {
    // `wx`: if another process created the file meanwhile, fail rather than overwrite it.
    await writeFile(path, `AUTH_SECRET=${secret}\n`, { mode: 0o600, flag: 'wx' })
    stdout(`created ${path} with AUTH_SECRET (readable by you only)`)
    return
  }
  const { text, replaced } = setEnvSecret(existing, secret)
  await writeFile(path, text, 'utf8')
  stdout(
    replaced
      ? `replaced AUTH_SECRET in ${path}; sessions and flow cookies sealed with the previous secret no longer open`
      : `added AUTH_SECRET to ${path}`,
  )
}

/**
 * Runs `authchart secret` with the arguments after the command name.
 * @returns the exit code: 0 done, 1 the file could not be written, 2 bad arguments
 */
export async function runSecretCommand(argv: string[], options: SecretCommandOptions = {}): Promise<number> {
  const stdout = options.stdout ?? ((line: string) => process.stdout.write(`${line}\n`))
  const stderr = options.stderr ?? ((line: string) => process.stderr.write(`${line}\n`))
  const args = parseArgs(argv)
  if ('help' in args) {
    stdout(usage)
    return 0
  }
  if ('error' in args) {
    stderr(`authchart secret: ${args.error}\n${usage}`)
    return 2
  }
  const { mode } = args
  if (mode === 'raw') {
    stdout(generateSecret())
    return 0
  }
  if (mode === 'line') {
    stdout(`AUTH_SECRET=${generateSecret()}`)
    return 0
  }
  try {
    await writeSecret(options.cwd ?? process.cwd(), stdout)
    return 0
  } catch (err) {
    stderr(`authchart secret: ${err instanceof Error ? err.message : String(err)}`)
    return 1
  }
}
