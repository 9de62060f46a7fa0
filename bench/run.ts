/**
 * `npm run bench`: every benchmark, Authchart side by side with @auth/core in one process per suite, reported as
 * ratios. `npm run bench -- --quick` runs short rounds (a smoke run); `--only core` runs one suite.
 *
 * `npm run bench` compiles this folder and the sources with `tsc` (bench/tsconfig.json, into dist-bench/) and runs
 * the JavaScript in a plain `node` process with NODE_ENV=production: no loader transforms modules while they are
 * measured, no source maps, and both libraries load the same way.
 *
 * Each suite runs in a process of its own: @auth/core keeps some configuration checks in module-level state (a
 * credentials provider seen by one config makes a later database-strategy config fail its start-up check), so
 * suites sharing one process would measure each other's leftovers.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runCoreBench } from './core.bench.js'
import { runFlowsBench } from './flows.bench.js'
import { runHttpBench } from './http.bench.js'
import { runDatabaseSessionBench } from './database-session.bench.js'
import { runFlowStoreBench } from './flow-store.bench.js'
import { runLibrariesBench } from './libraries.bench.js'
import { runLogoutRevocationBench } from './logout-revocation.bench.js'
import { runOidcBench } from './oidc.bench.js'
import { runXStateApiBench } from './xstate-api.bench.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined

if (import.meta.url.endsWith('.ts')) {
  console.warn('bench: running from TypeScript source through a loader; `npm run bench` measures compiled JavaScript')
}
if (process.env.NODE_ENV !== 'production') console.warn('bench: NODE_ENV is not "production"')

const suites: Record<string, () => Promise<unknown>> = {
  core: () => runCoreBench({ quick }),
  flows: () => runFlowsBench({ quick }),
  http: () => runHttpBench({ quick }),
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
