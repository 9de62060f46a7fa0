/**
 * What every framework fixture test shares: Authchart built and packed once per test file (`npm run build`, then
 * `npm pack`), a free loopback port, and an HTTP client that keeps cookies and sends what a browser tab would.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** The repository's root. */
export const root = resolve(import.meta.dirname, '../../..')
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
export const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']

/** Runs `command` to completion; throws with the tail of its output when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${String(result.status)}):\n${result.stdout}\n${result.stderr}`.slice(-6000))
  }
  return result.stdout
}

/**
 * Holds a lock directory while `work` runs: two test files packing at once would run two `tsc` builds into the same
 * `dist` and could pack a half-written one.
 */
function withPackLock<T>(work: () => T): T {
  const lock = join(root, 'node_modules', '.authchart-pack.lock')
  const deadline = Date.now() + 300_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

let packed: string | undefined

/** `npm run build` then `npm pack`, once per test file; returns the tarball's path. */
export function packAuthchart(): string {
  if (packed) return packed
  const destination = mkdtempSync(join(tmpdir(), 'authchart-pack-'))
  withPackLock(() => {
    run(npm, ['run', 'build', '--silent'], root)
    run(npm, ['pack', '--pack-destination', destination, '--loglevel=error'], root)
  })
  const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'))
  if (!tarball) throw new Error('npm pack wrote no tarball')
  packed = join(destination, tarball)
  return packed
}

/** Removes the packed tarball's directory (after the last suite of the file). */
export function removePackedAuthchart(): void {
  if (!packed) return
  rmSync(dirname(packed), { recursive: true, force: true })
  packed = undefined
}

/** A loopback port that was free a moment ago (the app must know its own origin before it starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })
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
export async function browse(url: string, jar: CookieJar, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'text/html', ...clientHeaders, ...init.headers }
  if (jar.cookies.size > 0) headers.cookie = jar.header()
  const body = init.form ? new URLSearchParams(init.form) : undefined
  if (body) headers['content-type'] = 'application/x-www-form-urlencoded'
  const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' })
  jar.take(response)
  return response
}
