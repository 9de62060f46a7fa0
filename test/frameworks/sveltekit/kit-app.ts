/**
 * Builds and serves a fixture SvelteKit app the way a user's app is built and served: Authchart packed with
 * `npm pack` (after `npm run build`), the tarball installed into a temporary copy of the fixture with npm (so the
 * export map and the peer dependencies are what users get), `vite build`, then `node build` (adapter-node) on a
 * free loopback port. npm runs with `--prefer-offline`, so a warm npm cache needs no network.
 */
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { installFixture, root, run, startNodeServer } from '../support/fixture-app.js'

export {
  browse,
  clientHeaders,
  CookieJar,
  freePort,
  packAuthchart,
  removePackedAuthchart,
} from '../support/fixture-app.js'

/** A built fixture app in a temporary directory. */
export interface BuiltApp {
  dir: string
  /** The Node that built it and runs it. */
  node: string
  remove(): void
}

/** Which Node builds and serves a fixture: this one, or one the fixture installed (a path relative to its directory). */
export type NodeChoice = { installed: string } | undefined

/** Copies `test/frameworks/sveltekit/<fixture>`, installs its lock file and the tarball, runs `vite build`. */
export function buildFixture(fixture: string, tarball: string, nodeChoice?: NodeChoice): BuiltApp {
  // The tarball is saved into the copy's package.json, as `npm install authchart` would: SvelteKit's build then
  // compiles the package's Svelte components and bundles the binding with the app, exactly as for a user.
  const { dir, remove } = installFixture(
    resolve(import.meta.dirname, fixture),
    tarball,
    /[/\\](node_modules|build|\.svelte-kit)$/,
  )
  try {
    const node = nodeChoice ? join(dir, nodeChoice.installed) : process.execPath
    run(node, [join(dir, 'node_modules/vite/bin/vite.js'), 'build'], dir, { ...process.env, NODE_ENV: 'production' })
    return { dir, node, remove }
  } catch (error) {
    remove()
    throw error
  }
}

/** Compiles the fixture's `types-check/` project with this repository's TypeScript; returns the compiler's output. */
export function typecheckFixture(app: BuiltApp): { status: number | null; output: string } {
  const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'types-check'], {
    cwd: app.dir,
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A running `node build`. */
export interface RunningApp {
  origin: string
  /** What the server printed, for failure messages. */
  output(): string
  /** `node --version` of the Node serving it. */
  version: string
  stop(): Promise<void>
}

/** Starts `node build` of `app` on `port` with `env` (on the app's Node) and waits until it answers. */
export async function startApp(app: BuiltApp, port: number, env: Record<string, string>): Promise<RunningApp> {
  const origin = `http://127.0.0.1:${port}`
  // ORIGIN is how adapter-node 5 (SvelteKit 2) learns the origin; adapter-node 6 (SvelteKit 3) dropped it and
  // reads the scheme from a proxy header (the clients here send `x-forwarded-proto: http`, see `clientHeaders`).
  const server = await startNodeServer(app.node, ['build'], app.dir, port, {
    HOST: '127.0.0.1',
    PORT: String(port),
    ORIGIN: origin,
    PROTOCOL_HEADER: 'x-forwarded-proto',
    ...env,
  })
  return { ...server, version: run(app.node, ['--version'], app.dir).trim() }
}
