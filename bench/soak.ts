/**
 * `npm run soak`: the ten-minute soak of issue #38 (test/e2e/soak/soak.ts says what runs and what it claims), printed
 * as the tables docs/operations.md keeps. `--minutes N` sets the length (default 10); the CI test runs a one-minute
 * version of the same soak.
 */
import { runSoak, type SoakReport } from '../test/e2e/soak/soak.js'

const args = process.argv.slice(2)
const minutesFlag = args.indexOf('--minutes')
const minutes = minutesFlag >= 0 ? Number(args[minutesFlag + 1]) : 10
if (!(minutes > 0)) throw new Error('--minutes needs a positive number')

const report: SoakReport = await runSoak({
  durationMs: minutes * 60_000,
  signInUsers: 6,
  checkers: 4,
  checkPauseMs: 5,
  hangMs: 5000,
  opAccounts: 200,
  progress: (line) => console.log(line),
})

console.log('\n| phase | requests | ok | 503 | error page | hang / stack / 5xx / other | p50 ms | p99 ms | max ms |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const [phase, f] of Object.entries(report.phases)) {
  const o = f.outcomes
  const bad = (o.hang ?? 0) + (o.stack ?? 0) + (o['server-error'] ?? 0) + (o.unexpected ?? 0)
  const codes = Object.entries(f.errorCodes)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ')
  console.log(
    `| ${phase} | ${f.requests} | ${o.ok ?? 0} | ${o['outage-503'] ?? 0} | ${o['error-page'] ?? 0}${codes ? ` (${codes})` : ''} | ${bad} | ${f.p50Ms} | ${f.p99Ms} | ${f.maxMs} |`,
  )
}
console.log('\nper kind of request (outcome counts):')
for (const [phase, f] of Object.entries(report.phases)) console.log(`- ${phase}: ${JSON.stringify(f.bySteps)}`)
console.log('\nsign-ins', JSON.stringify(report.signIns))
console.log(
  `session checks ${report.sessionChecks}, signed-in sessions ${report.distinctSessions}, sign-outs ${report.signOuts}, provider-side failures ${report.providerFailures}`,
)
console.log('\n| instance | heap after GC, warm (MB) | last (MB) | max (MB) | RSS last (MB) |')
console.log('|---|---:|---:|---:|---:|')
for (const [name, m] of Object.entries(report.memory))
  console.log(`| ${name} | ${m.warmMb} | ${m.lastMb} | ${m.maxMb} | ${m.rssLastMb} |`)
console.log('\nlogged', JSON.stringify(report.logged))
console.log('surprises', report.surprises.length === 0 ? 'none' : report.surprises.join('\n'))
process.exitCode = report.surprises.length === 0 && report.signIns.lost === 0 ? 0 : 1
