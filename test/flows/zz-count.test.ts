import { it } from 'vitest'
import { getSimplePaths } from 'xstate/graph'
import { machineRegistry } from '../../machines/index.js'
import { pathAlphabet } from './flow-paths.js'
it('count', () => {
  for (const id of ['oauth', 'webauthn']) {
    const e = machineRegistry[id]!
    const t = Date.now()
    const paths = getSimplePaths(e.machine, { events: pathAlphabet(e) })
    console.log('PATHS', id, paths.length, pathAlphabet(e).length, Date.now() - t, 'ms')
  }
}, 300000)
