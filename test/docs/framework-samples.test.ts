/**
 * What can be checked about the framework guides' samples without a fixture app: that every code block is either a
 * TypeScript sample (compiled in the fixture apps by the framework tests, see framework-samples.ts) or of a language
 * that is not TypeScript, and where each sample is written. The compiling itself runs in
 * test/frameworks/{sveltekit,qwik,solid-start}, where the apps are installed.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { qwikSamples, solidStartSamples, sveltekitSamples } from './framework-sample-projects.js'
import { placeSamples } from './framework-samples.js'
import { samplesOf, type Sample } from './samples.js'

const root = resolve(import.meta.dirname, '../..')
const projects = [sveltekitSamples, qwikSamples, solidStartSamples]

describe('samples of the framework guides', () => {
  it('each guide has one project, and every fenced block is a TypeScript sample, shell or Svelte markup', () => {
    expect(projects.map((p) => p.page).sort()).toEqual(
      ['qwik', 'solid-start', 'sveltekit'].map((name) => `docs/frameworks/${name}.md`),
    )
    for (const { page } of projects) {
      const languages = [...readFileSync(join(root, page), 'utf8').matchAll(/^```(\w+)\s*$/gm)].map((m) => m[1])
      // A `js` or `jsx` block would escape the check; `svelte` markup has no compiler here (svelte-check).
      expect(
        languages.filter((l) => !['ts', 'tsx', 'sh', 'svelte'].includes(l)),
        page,
      ).toEqual([])
      const samples = samplesOf(root, page)
      expect(samples.length, page).toBe(languages.filter((l) => l === 'ts' || l === 'tsx').length)
      for (const s of samples.filter((s) => s.skipped !== null))
        expect(s.skipped, `${page}:${s.line}`).toMatch(/\w{3,}/)
    }
  })

  it('places a sample at the file it names, another under src/, and a second one of the same file next to it', () => {
    const sample = (line: number, named: string | null): Sample => ({
      page: 'p.md',
      line,
      code: '',
      skipped: null,
      named,
      file: named ?? `sample-line-${line}.ts`,
    })
    const placed = placeSamples([
      sample(3, 'src/routes/plugin@auth.ts'),
      sample(9, null),
      sample(20, 'src/routes/plugin@auth.ts'),
      { ...sample(30, null), skipped: 'a fragment' },
    ])
    expect([...placed].map(([path, s]) => [path, s.line])).toEqual([
      ['src/routes/plugin@auth.ts', 3],
      ['src/sample-line-9.ts', 9],
      ['src/routes/variant-line-20.plugin@auth.ts', 20],
    ])
  })
})
