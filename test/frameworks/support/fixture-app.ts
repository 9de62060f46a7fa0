/**
 * What every framework fixture test shares: Authchart built and packed once (`npm pack`, which builds first, under a
 * lock so test files running in parallel do not write `dist/` at the same time), a free loopback port, a server
 * started from a built fixture and awaited, and a cookie-keeping HTTP client that behaves like a browser tab.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '../../..')
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
/** npm runs with `--prefer-offline`, so a warm npm cache needs no network. */
export const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']

/** Runs a command to completion; throws with the tail of its output when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd} (exit ${String(result.status)}):\n${result.stdout}\n${result.stderr}`.slice(
        -6000,
      ),
    )
  }
  return result.stdout
}

const lockDir = join(tmpdir(), `authchart-build-lock-${Buffer.from(root).toString('hex').slice(-24)}`)

/** Runs `work` while holding a lock directory (another test file may be building the same checkout). */
async function withBuildLock<T>(work: () => T): Promise<T> {
  const deadline = Date.now() + 600_000
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch {
      // A lock left by a killed run is stale after ten minutes.
      const age = Date.now() - (statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 600_000) rmSync(lockDir, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`)
      await new Promise((wait) => setTimeout(wait, 500))
    }
  }
  try {
    return work()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

let packed: Promise<string> | undefined

/** `npm pack` (whose `prepack` runs `npm run build`), once per test file; resolves to the tarball's path. */
export function packAuthchart(): Promise<string> {
  packed ??= withBuildLock(() => {
    const destination = mkdtempSync(join(tmpdir(), 'authchart-pack-'))
    run(npm, ['pack', '--pack-destination', destination, '--loglevel=error'], root)
    const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'))
    if (!tarball) throw new Error('npm pack wrote no tarball')
    return join(destination, tarball)
  })
  return packed
}

/** Removes the packed tarball's directory (after the last suite of the file). */
export async function removePackedAuthchart(): Promise<void> {
  const tarball = await packed?.catch(() => undefined)
  packed = undefined
  if (tarball) rmSync(dirname(tarball), { recursive: true, force: true })
}

/**
 * Copies the fixture directory `source` to a temporary directory (without build output or node_modules), installs
 * its lock file, then the tarball, saved into the copy's package.json as `npm install authchart` would.
 */
export function installFixture(source: string, tarball: string, skip: RegExp): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `authchart-${source.split(/[/\\]/).pop() ?? 'fixture'}-`))
  cpSync(source, dir, { recursive: true, filter: (path) => !skip.test(path) })
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    run(npm, ['ci', ...npmFlags], dir)
    run(npm, ['install', ...npmFlags, tarball], dir)
    return { dir, remove }
  } catch (error) {
    remove()
    throw error
  }
}

/** A port for a server this suite starts (see test/support/ports.ts for why it is not the OS's pick). */
export { freePort } from '../../support/ports.js'

/** A running app server. */
export interface RunningServer {
  origin: string
  /** What the server printed, for failure messages. */
  output(): string
  stop(): Promise<void>
}

/**
 * Starts `node <args>` in `dir` with `env` (PATH kept) and waits until `http://127.0.0.1:<port>` answers and, when
 * `ready` is given, the child has printed it: an answer alone may come from another server holding the port, while the
 * child's own "listening" line cannot.
 */
export async function startNodeServer(
  node: string,
  args: string[],
  dir: string,
  port: number,
  env: Record<string, string>,
  ready?: RegExp,
): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(node, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${output}`)
    try {
      if (ready && !ready.test(output)) throw new Error('not ready yet')
      await fetch(`${origin}/favicon-probe`, { redirect: 'manual' })
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not answer on ${origin}:\n${output}`)
      await new Promise((wait) => setTimeout(wait, 100))
    }
  }
  return {
    origin,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}

/** What a TLS-terminating proxy in front of the app would add: the scheme the browser used. */
export const clientHeaders: Readonly<Record<string, string>> = { 'x-forwarded-proto': 'http' }

/** Cookies of one HTTP client, kept by hand across requests. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  /** Applies the response's Set-Cookie lines; returns the names it set with a value. */
  take(response: Response): string[] {
    const set: string[] = []
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = /;\s*max-age=0/i.test(line) || /;\s*expires=thu, 01 jan 1970/i.test(line)
      if (value === '' || expired) this.cookies.delete(name)
      else {
        this.cookies.set(name, value)
        set.push(name)
      }
    }
    return set
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/** A request as a browser tab would send it (HTML accepted, cookies from `jar`); redirects are not followed. */
export async function browse(
  url: string,
  jar: CookieJar,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'text/html', ...clientHeaders, ...init.headers }
  if (jar.cookies.size > 0) headers.cookie = jar.header()
  const body = init.form ? new URLSearchParams(init.form) : undefined
  if (body) headers['content-type'] = 'application/x-www-form-urlencoded'
  const response = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  })
  jar.take(response)
  return response
}
