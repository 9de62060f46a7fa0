/**
 * The packed package's source maps: every `.js.map` that `npm pack` ships either carries the text of each source it
 * names (`sourcesContent`) or names only files that are in the package. The package has no src/*.ts, so a map that
 * only points there makes bundlers and dev servers warn once per module (`vite dev` printed 143 warnings).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removePackedAuthchart, unpackAuthchart, type UnpackedAuthchart } from './support/packed-authchart.js'

let unpacked: UnpackedAuthchart
beforeAll(async () => {
  unpacked = await unpackAuthchart('maps-')
}, 300_000)
afterAll(async () => {
  unpacked?.remove()
  await removePackedAuthchart()
})

describe('the source maps npm pack ships', () => {
  it('carry their sources, or point only at files in the package', () => {
    const pkg = join(unpacked.dir, 'node_modules', 'authchart')
    const maps = readdirSync(pkg, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.map'))
    expect(maps.length).toBeGreaterThan(50)
    const unreadable: string[] = []
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(pkg, file), 'utf8')) as { sources: string[]; sourcesContent?: unknown[] }
      map.sources.forEach((source, i) => {
        const content = map.sourcesContent?.[i]
        const shipped = existsSync(resolve(dirname(join(pkg, file)), source))
        if (typeof content !== 'string' && !shipped) unreadable.push(`${file} -> ${source}`)
      })
    }
    expect(unreadable).toEqual([])
  })
})
