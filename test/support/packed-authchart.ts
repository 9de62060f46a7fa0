/**
 * Authchart as an app installs it: built, packed with `npm pack` (test/frameworks/support/fixture-app.ts), and the
 * tarball unpacked into `node_modules/authchart` of a fresh directory under `test-artifacts/`. Inside the repository,
 * so the package's own dependencies (jose, xstate, ...) and the test's (express, @auth/core) resolve from the
 * repository's node_modules, while `authchart` itself resolves only through the packed export map.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { packAuthchart, root, run } from '../frameworks/support/fixture-app.js'

export { removePackedAuthchart } from '../frameworks/support/fixture-app.js'

export interface UnpackedAuthchart {
  /** The directory whose `node_modules/authchart` is the unpacked package: put the app's files here. */
  dir: string
  remove(): void
}

/** Packs Authchart (once per test file) and unpacks it into a new directory under `test-artifacts/`. */
export async function unpackAuthchart(prefix = 'packed-'): Promise<UnpackedAuthchart> {
  const tarball = await packAuthchart()
  const artifacts = join(root, 'test-artifacts')
  mkdirSync(artifacts, { recursive: true })
  const dir = mkdtempSync(join(artifacts, prefix))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    mkdirSync(join(dir, 'node_modules'))
    run('tar', ['-xzf', tarball, '-C', dir], dir)
    renameSync(join(dir, 'package'), join(dir, 'node_modules', 'authchart'))
    return { dir, remove }
  } catch (error) {
    remove()
    throw error
  }
}
