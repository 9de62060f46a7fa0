/**
 * `npm run bench`: every benchmark side by side with @auth/core in one process, reported as ratios.
 * `npm run bench -- --quick` runs short rounds (a smoke run); `--only core` runs one suite.
 */
import { runCoreBench } from './core.bench.js'
import { runDatabaseSessionBench } from './database-session.bench.js'
import { runFlowStoreBench } from './flow-store.bench.js'
import { runOidcBench } from './oidc.bench.js'
import { runXStateApiBench } from './xstate-api.bench.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined

const suites: Record<string, () => Promise<unknown>> = {
  core: () => runCoreBench({ quick }),
  oidc: () => runOidcBench({ quick }),
  'flow-store': () => runFlowStoreBench({ quick }),
  'database-session': () => runDatabaseSessionBench({ quick }),
  xstate: () => runXStateApiBench({ quick }),
}

for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue
  await run()
}
