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
 * suites sharing one process would measure each other's leftovers. A process loads only the suite it runs. When
 * every suite was imported up front, the Redis client that the store suites use was loaded in every process. With it
 * loaded, undici's header validation ran about 70 µs a request slower in the harness's `new Request` with an 8 KB
 * cookie, so a refused cookie in the core suite looked dearer than a valid one (docs/benchmarks.md).
 */
import { spawnSync } from 'node:child_process'
import { printRepeated } from './repeat.js'
import { fileURLToPath } from 'node:url'

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

/** Each suite's module is imported only when that suite runs. */
const suites: Record<string, () => Promise<unknown>> = {
  core: async () => (await import('./core.bench.js')).runCoreBench({ quick }),
  tracing: async () => (await import('./core.bench.js')).runTracingBench({ quick }),
  'many-users': async () => (await import('./many-users.bench.js')).runManyUsersBench({ quick }),
  flows: async () => (await import('./flows.bench.js')).runFlowsBench({ quick }),
  http: async () => (await import('./http.bench.js')).runHttpBench({ quick }),
  oidc: async () => (await import('./oidc.bench.js')).runOidcBench({ quick }),
  'flow-store': async () => (await import('./flow-store.bench.js')).runFlowStoreBench({ quick }),
  'database-session': async () => (await import('./database-session.bench.js')).runDatabaseSessionBench({ quick }),
  xstate: async () => (await import('./xstate-api.bench.js')).runXStateApiBench({ quick }),
  libraries: async () => (await import('./libraries.bench.js')).runLibrariesBench({ quick }),
  'logout-revocation': async () => (await import('./logout-revocation.bench.js')).runLogoutRevocationBench({ quick }),
  'session-management': async () =>
    (await import('./session-management.bench.js')).runSessionManagementBench({ quick }),
  'session-management-http': async () =>
    (await import('./session-management-http.bench.js')).runSessionManagementHttpBench({ quick }),
  'second-factor': async () => (await import('./second-factor.bench.js')).runSecondFactorBench({ quick }),
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
