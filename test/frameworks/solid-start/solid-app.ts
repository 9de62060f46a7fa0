/**
 * Builds and serves a fixture SolidStart app the way a user's app is built and served: the fixture's own
 * package.json and lock file (`npm ci`), the shared app source (`fixture-app-src/`) laid over it, Authchart
 * installed from the packed tarball, the framework's build (`vinxi build` for 1.x, `vite build` for 2.x), then
 * Nitro's node-server output (`node .output/server/index.mjs`) on a free loopback port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { npm, npmFlags, root, run } from '../support/fixture-app.js'

/** A built fixture app in a temporary directory. */
export interface BuiltApp {
  dir: string
  /** The Node that built it and runs it. */
  node: string
  remove(): void
}

export interface FixtureOptions {
  /** Directory name under test/frameworks/solid-start. */
  fixture: string
  /** The framework's build command, a script relative to the app's directory run on the app's Node. */
  build: string[]
  /** A Node the fixture installs (path relative to its directory); default the one running the tests. */
  node?: string
}

const skipCopy = /[/\\](node_modules|\.output|\.vinxi)$/

/** `run`, without blocking the event loop: the two fixtures install and build side by side. */
function runAsync(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-6000)))
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-6000)))
    child.once('error', fail)
    child.once('exit', (code) => {
      if (code === 0) done()
      else fail(new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${String(code)}):\n${output}`))
    })
  })
}

/** Copies the fixture and the app source to a temporary directory, installs, and builds. */
export async function buildFixture(options: FixtureOptions, tarball: string): Promise<BuiltApp> {
  const dir = mkdtempSync(join(tmpdir(), `authchart-${options.fixture}-`))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    cpSync(resolve(import.meta.dirname, options.fixture), dir, {
      recursive: true,
      filter: (path) => !skipCopy.test(path),
    })
    cpSync(resolve(import.meta.dirname, 'fixture-app-src'), dir, {
      recursive: true,
      filter: (path) => !skipCopy.test(path),
    })
    await runAsync(npm, ['ci', ...npmFlags], dir)
    // Saved into the copy's package.json, as `npm install authchart` would.
    await runAsync(npm, ['install', ...npmFlags, tarball], dir)
    const node = options.node ? join(dir, options.node) : process.execPath
    await runAsync(
      node,
      options.build.map((part, index) => (index === 0 ? join(dir, part) : part)),
      dir,
      { ...process.env, NODE_ENV: 'production' },
    )
    return { dir, node, remove }
  } catch (error) {
    remove()
    throw error
  }
}

/** Compiles the app's `types-check/` project with this repository's TypeScript; returns the compiler's output. */
export function typecheckFixture(app: BuiltApp): { status: number | null; output: string } {
  const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'types-check'], {
    cwd: app.dir,
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A running server. */
export interface RunningApp {
  origin: string
  /** What the server printed, for failure messages and the log checks. */
  output(): string
  /** `node --version` of the Node serving it. */
  version: string
  stop(): Promise<void>
}

/** Starts Nitro's node-server output of `app` on `port` with `env` (on the app's Node) and waits until it answers. */
export async function startApp(app: BuiltApp, port: number, env: Record<string, string>): Promise<RunningApp> {
  const origin = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(app.node, ['.output/server/index.mjs'], {
    cwd: app.dir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`)
    try {
      await fetch(`${origin}/favicon-probe`, { redirect: 'manual' })
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`the server did not answer on ${origin}:\n${output}`)
      await new Promise((wait) => setTimeout(wait, 100))
    }
  }
  return {
    origin,
    output: () => output,
    version: run(app.node, ['--version'], app.dir).trim(),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}
