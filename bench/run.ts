/**
 * `npm run bench`: every benchmark, Authchart side by side with @auth/core in one process per suite, reported as
 * ratios. `npm run bench -- --quick` runs short rounds (a smoke run); `--only core` runs one suite.
 *
 * Each suite runs in a process of its own: @auth/core keeps some configuration checks in module-level state (a
 * credentials provider seen by one config makes a later database-strategy config fail its start-up check), so
 * suites sharing one process would measure each other's leftovers.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runCoreBench } from './core.bench.js'
import { runDatabaseSessionBench } from './database-session.bench.js'
import { runFlowStoreBench } from './flow-store.bench.js'
import { runLibrariesBench } from './libraries.bench.js'
import { runLogoutRevocationBench } from './logout-revocation.bench.js'
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
  libraries: async () => runLibrariesBench({ quick }),
  'logout-revocation': () => runLogoutRevocationBench({ quick }),
}

if (only) {
  const run = suites[only]
  if (!run) throw new Error(`unknown suite "${only}"; one of: ${Object.keys(suites).join(', ')}`)
  await run()
} else {
  let failed = 0
  for (const name of Object.keys(suites)) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--only', name, ...(quick ? ['--quick'] : [])],
      { stdio: 'inherit' },
    )
    if (child.status !== 0) failed++
  }
  process.exitCode = failed === 0 ? 0 : 1
}
