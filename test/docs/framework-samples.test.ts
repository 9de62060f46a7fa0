/**
 * What can be checked about the framework guides' samples without a fixture app: that every code block is either a
 * sample the fixture apps check (TypeScript, compiled by the framework tests, and Svelte where the guide's project
 * checks it, see framework-samples.ts) or shell, and where each sample is written. The compiling itself runs in
 * test/frameworks/{sveltekit,qwik,solid-start,next}, where the apps are installed.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextjsSamples, qwikSamples, solidStartSamples, sveltekitSamples } from './framework-sample-projects.js'
import { placeSamples } from './framework-samples.js'
import { samplesOf, type Sample } from './samples.js'

const root = resolve(import.meta.dirname, '../..')
const projects = [sveltekitSamples, qwikSamples, solidStartSamples, nextjsSamples]

describe('samples of the framework guides', () => {
  it('each guide has one project, and every fenced block is a TypeScript sample, a checked Svelte sample or shell', () => {
    expect(projects.map((p) => p.page).sort()).toEqual(
      ['nextjs', 'qwik', 'solid-start', 'sveltekit'].map((name) => `docs/frameworks/${name}.md`),
    )
    for (const { page, svelte } of projects) {
      const languages = [...readFileSync(join(root, page), 'utf8').matchAll(/^```(\w+)\s*$/gm)].map((m) => m[1])
      // A `js` or `jsx` block would escape the check, and so would `svelte` in a project without svelte-check.
      const checked = svelte ? ['ts', 'tsx', 'svelte'] : ['ts', 'tsx']
      expect(
        languages.filter((l) => ![...checked, 'sh'].includes(l)),
        page,
      ).toEqual([])
      const samples = [...samplesOf(root, page), ...samplesOf(root, page, 'svelte')]
      expect(samples.length, page).toBe(languages.filter((l) => checked.includes(l)).length)
      for (const s of samples.filter((s) => s.skipped !== null))
        expect(s.skipped, `${page}:${s.line}`).toMatch(/\w{3,}/)
    }
  })

  it('configures every provider its sign-in samples name (a sample posting to a missing one answers 400)', () => {
    for (const { page } of projects) {
      const text = readFileSync(join(root, page), 'utf8')
      const named = new Set(
        [
          ...text.matchAll(/<SignIn provider="([\w-]+)"/g),
          ...text.matchAll(/providerId: '([\w-]+)'/g),
          ...text.matchAll(/\bsignIn\('([\w-]+)'/g),
        ].map((m) => m[1]),
      )
      expect(named.size, page).toBeGreaterThan(0)
      for (const id of named) expect(text, `${page}: ${id}`).toContain(`from 'authchart/providers/${id}'`)
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
