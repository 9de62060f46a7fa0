/**
 * The version of the installed package, read from its package.json. The CLI runs from `src/cli/` in a checkout and
 * from `dist/src/cli/` in an installed package, so the file is found by walking up to the package named `authchart`.
 * @module cli/version
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The `version` of the nearest package.json above this module whose `name` is `authchart`. */
export async function packageVersion(): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown
        version?: unknown
      }
      if (manifest.name === 'authchart' && typeof manifest.version === 'string') return manifest.version
    } catch {
      // No package.json here (or not readable): keep walking up.
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('the package.json of authchart was not found')
    dir = parent
  }
}
