/**
 * Builds and serves the fixture Next.js app the way a user's app is built and served, in two variants: as written
 * (a next-auth v5 app: the fixture's package.json and lock file, `npm ci`, `next build`), and moved to Authchart (its
 * imports rewritten by rewrite-imports.ts, next-auth and @auth/kysely-adapter removed from package.json and Authchart
 * installed from the packed tarball, as `npm uninstall next-auth @auth/kysely-adapter && npm install authchart`
 * would), then `next start` on a free loopback port. The moved app gains what only Authchart has (step-up's
 * `requireRecentAuth` from `NextAuth()`, and the pages of fixture-next16-authchart/ copied over it), so the next-auth
 * build stays the app as written. `next build` is the heavy part, so each built variant is kept
 * outside the clone (the system's temporary directory), under a key made of the lock file, the app's sources and
 * (moved) the tarball: a second run with the same inputs starts the kept build at once.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { npm, npmFlags, startNodeServer, type RunningServer } from '../support/fixture-app.js'
import { rewriteImports } from './rewrite-imports.js'

export const fixture = resolve(import.meta.dirname, 'fixture-next16')
/** The pages only the moved app has: the conformance suite's protected page and a step-up route. */
export const authchartOnly = resolve(import.meta.dirname, 'fixture-next16-authchart')
const skip = /[/\\](node_modules|\.next)$/

/** The fixture's files, relative to it, sorted (without build output and node_modules). */
function filesOf(dir: string, base = dir): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (skip.test(path)) continue
    if (statSync(path).isDirectory()) out.push(...filesOf(path, base))
    else out.push(relative(base, path))
  }
  return out.sort()
}

/** Which app: the fixture as written (on next-auth) or moved to Authchart (from the packed tarball at `tarball`). */
export type NextAppVariant = { kind: 'next-auth' } | { kind: 'authchart'; tarball: string }

/** The cache key: the lock file, the app's sources, the packed Authchart (moved) and the Node that builds it. */
export function buildKey(variant: NextAppVariant): string {
  const hash = createHash('sha256').update(variant.kind)
  for (const file of filesOf(fixture)) hash.update(file).update(readFileSync(join(fixture, file)))
  if (variant.kind === 'authchart') {
    for (const file of filesOf(authchartOnly)) hash.update(file).update(readFileSync(join(authchartOnly, file)))
    hash.update(readFileSync(variant.tarball))
  }
  hash.update(process.version)
  return `${variant.kind}-${hash.digest('hex').slice(0, 24)}`
}

function runAsync(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)))
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)))
    child.once('error', fail)
    child.once('exit', (code) => {
      if (code === 0) done()
      else fail(new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${String(code)}):\n${output}`))
    })
  })
}

/** Copies the fixture to `dir`. */
function copyFixture(dir: string): void {
  cpSync(fixture, dir, { recursive: true, filter: (path) => !skip.test(path) })
}

/** Rewrites the imports of the app in `dir` to Authchart. */
export function moveImports(dir: string): void {
  for (const file of filesOf(dir)) {
    if (!/\.tsx?$/.test(file)) continue
    const path = join(dir, file)
    writeFileSync(path, rewriteImports(readFileSync(path, 'utf8')))
  }
}

/** The fixture's `NextAuth()` call, which the moved app also takes `requireRecentAuth` from. */
const nextAuthCall = 'export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth('

/** Adds what only Authchart has to the moved app in `dir`: `requireRecentAuth`, and the pages that use it. */
export function addAuthchartOnly(dir: string): void {
  const path = join(dir, 'auth.ts')
  const source = readFileSync(path, 'utf8')
  if (!source.includes(nextAuthCall)) throw new Error(`the fixture's auth.ts no longer has \`${nextAuthCall}\``)
  writeFileSync(
    path,
    source.replace(nextAuthCall, nextAuthCall.replace('unstable_update }', 'unstable_update, requireRecentAuth }')),
  )
  cpSync(authchartOnly, dir, { recursive: true })
}

/** What Authchart replaces: gone from the moved app's package.json (and so, at the next `npm install`, from disk). */
const replaced = ['next-auth', '@auth/kysely-adapter']

function dropReplaced(dir: string): void {
  const path = join(dir, 'package.json')
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { dependencies: Record<string, string> }
  for (const name of replaced) delete manifest.dependencies[name]
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`)
}

export interface BuiltNextApp {
  kind: NextAppVariant['kind']
  dir: string
  /** Whether this run built it (false: the kept build was used). */
  built: boolean
  /** Seconds the install and build took (0 when kept). */
  seconds: number
}

const cacheRoot = join(tmpdir(), 'authchart-next-builds')

/** The built app of `variant`: the kept one, or a new install and `next build`. */
export async function buildNextApp(variant: NextAppVariant): Promise<BuiltNextApp> {
  const { kind } = variant
  const dir = join(cacheRoot, buildKey(variant))
  if (existsSync(join(dir, '.next', 'BUILD_ID'))) return { kind, dir, built: false, seconds: 0 }
  const started = Date.now()
  mkdirSync(cacheRoot, { recursive: true })
  const work = `${dir}.building-${process.pid}`
  rmSync(work, { recursive: true, force: true })
  try {
    copyFixture(work)
    await runAsync(npm, ['ci', ...npmFlags], work)
    if (variant.kind === 'authchart') {
      moveImports(work)
      addAuthchartOnly(work)
      dropReplaced(work)
      await runAsync(npm, ['install', ...npmFlags, variant.tarball], work)
    }
    await runAsync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], work, {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
    })
    rmSync(dir, { recursive: true, force: true })
    renameSync(work, dir)
  } catch (error) {
    rmSync(work, { recursive: true, force: true })
    throw error
  }
  // Older builds of this variant are dropped: only the newest of each is kept.
  for (const name of readdirSync(cacheRoot)) {
    const path = join(cacheRoot, name)
    if (path !== dir && name.startsWith(`${kind}-`) && !name.includes('.building-'))
      rmSync(path, { recursive: true, force: true })
  }
  return { kind, dir, built: true, seconds: (Date.now() - started) / 1000 }
}

/** `next start` of the built app on `port`, with `env`. */
export function startNextApp(app: BuiltNextApp, port: number, env: Record<string, string>): Promise<RunningServer> {
  return startNodeServer(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    app.dir,
    port,
    { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
    // `next start` prints this once its own server listens (an EADDRINUSE exits before it).
    /Ready in/,
  )
}
