/**
 * `npm run bench`: every benchmark, Authchart side by side with @auth/core in one process per suite, reported as
 * ratios. `npm run bench -- --quick` runs short rounds (a smoke run); `--only core` runs one suite (`--only tracing`
 * the OpenTelemetry overhead case alone); `--only core --repeat 5` runs it five times, each in a fresh process, and
 * ends with each case's ratio in every run and their median: one run's ratio moves with whatever else the machine
 * does, and a goal should hold across runs.
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
import { printRepeated } from './repeat.js'
import { fileURLToPath } from 'node:url'
import { runCoreBench, runTracingBench } from './core.bench.js'
import { runFlowsBench } from './flows.bench.js'
import { runHttpBench } from './http.bench.js'
import { runDatabaseSessionBench } from './database-session.bench.js'
import { runFlowStoreBench } from './flow-store.bench.js'
import { runLibrariesBench } from './libraries.bench.js'
import { runLogoutRevocationBench } from './logout-revocation.bench.js'
import { runManyUsersBench } from './many-users.bench.js'
import { runOidcBench } from './oidc.bench.js'
import { runSecondFactorBench } from './second-factor.bench.js'
import { runSessionManagementBench } from './session-management.bench.js'
import { runSessionManagementHttpBench } from './session-management-http.bench.js'
import { runXStateApiBench } from './xstate-api.bench.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined
const repeat = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 1
/** Printed by a suite run as a child of `--repeat`, for the parent to collect its ratios. */
const ratiosMark = 'BENCH_RATIOS '

if (import.meta.url.endsWith('.ts')) {
  console.warn('bench: running from TypeScript source through a loader; `npm run bench` measures compiled JavaScript')
}
if (process.env.NODE_ENV !== 'production') console.warn('bench: NODE_ENV is not "production"')

const suites: Record<string, () => Promise<unknown>> = {
  core: () => runCoreBench({ quick }),
  tracing: () => runTracingBench({ quick }),
  'many-users': () => runManyUsersBench({ quick }),
  flows: () => runFlowsBench({ quick }),
  http: () => runHttpBench({ quick }),
  oidc: () => runOidcBench({ quick }),
  'flow-store': () => runFlowStoreBench({ quick }),
  'database-session': () => runDatabaseSessionBench({ quick }),
  xstate: () => runXStateApiBench({ quick }),
  libraries: async () => runLibrariesBench({ quick }),
  'logout-revocation': () => runLogoutRevocationBench({ quick }),
  'session-management': () => runSessionManagementBench({ quick }),
  'session-management-http': () => runSessionManagementHttpBench({ quick }),
  'second-factor': () => runSecondFactorBench({ quick }),
}

if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat takes a whole number of runs, 1 or more')
if (repeat > 1) {
  if (!only) throw new Error('--repeat goes with --only <suite>')
  const runs: Record<string, number>[] = []
  for (let i = 0; i < repeat; i++) {
    const child = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        '--only',
        only,
        '--emit-ratios',
        ...(quick ? ['--quick'] : []),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    )
    const lines = child.stdout.split('\n')
    process.stdout.write(lines.filter((line) => !line.startsWith(ratiosMark)).join('\n'))
    const marked = lines.find((line) => line.startsWith(ratiosMark))
    if (child.status !== 0 || !marked) throw new Error(`run ${i + 1} of ${only} failed`)
    runs.push(JSON.parse(marked.slice(ratiosMark.length)) as Record<string, number>)
  }
  printRepeated(only, runs)
} else if (only) {
  const run = suites[only]
  if (!run) throw new Error(`unknown suite "${only}"; one of: ${Object.keys(suites).join(', ')}`)
  const ratios = await run()
  if (args.includes('--emit-ratios')) console.log(`${ratiosMark}${JSON.stringify(ratios)}`)
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
