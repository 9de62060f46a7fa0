/**
 * authchart/sveltekit in a SvelteKit 2 app (fixture-kit2: adapter-node, Svelte 5), built with `vite build` and
 * served with `node build`, Authchart installed from `npm pack` output. See app-suite.ts for what is checked.
 */
import { defineSvelteKitSuite } from './app-suite.js'

await defineSvelteKitSuite({ fixture: 'fixture-kit2' })
