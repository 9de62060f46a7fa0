/**
 * The side-by-side runner every suite uses. One operation is timed on its own (a `prepare` step before it, such as
 * minting the e-mail link it will confirm, is not timed), both libraries are warmed up first, and then measured in
 * interleaved rounds: Authchart, @auth/core, @auth/core, Authchart, ... so that a burst of load from elsewhere on the
 * machine lands on both. Each round runs one library for a fixed time. The figures are medians over the rounds, and
 * the ratio is the median of the per-round ratios (each round pair measured back to back).
 */
import { loadavg } from 'node:os'

/** Runs client-side work inside a timed operation without counting it (a passkey signing its challenge). */
export type Untimed = <R>(work: () => R | Promise<R>) => Promise<R>

/**
 * One library's side of a case: `run` is the timed operation; `prepare` (untimed) makes what it needs, and work
 * passed to `untimed` inside `run` is not counted either.
 */
export interface Side<T = unknown> {
  prepare?: () => Promise<T>
  run: (prepared: T, untimed: Untimed) => Promise<unknown>
  /**
   * Work the side's operations left running behind their answers (a store write not waited for), finished at the
   * end of each of its rounds and timed with them: it is this side's cost, never the next round's.
   */
  settle?: () => Promise<unknown>
}

export interface RunOptions {
  /** Round pairs (each library runs once per pair). */
  rounds: number
  /** Milliseconds of timed work per library per round. */
  roundMillis: number
  /** Milliseconds of warm-up per library before the first round. */
  warmupMillis: number
}

export const fullRun: RunOptions = { rounds: 21, roundMillis: 200, warmupMillis: 1500 }
export const quickRun: RunOptions = { rounds: 3, roundMillis: 100, warmupMillis: 300 }

export function runOptions(quick: boolean | undefined): RunOptions {
  return quick ? quickRun : fullRun
}

export interface CaseResult {
  label: string
  /** Median operations per second over the rounds. */
  ours: number
  theirs: number
  /** Median of the per-round ratios ours / theirs. */
  ratio: number
  /** The lowest and highest per-round ratio. */
  ratioRange: [number, number]
  /** Median CPU µs per operation, and the median per-round ratio of theirs to ours (undefined with untimed work). */
  cpu?: { ours: number; theirs: number; ratio: number }
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

interface RoundResult {
  /** Operations per second of timed (wall-clock) work. */
  rate: number
  /** CPU microseconds per operation (this process, all threads), when nothing untimed ran in the round. */
  cpuMicros: number | undefined
}

/** Runs one side for `millis` of timed work. */
async function runFor<T>(side: Side<T>, millis: number): Promise<RoundResult> {
  const budget = BigInt(Math.round(millis * 1e6))
  let spent = 0n
  let ops = 0
  let excluded = 0n
  let usedUntimed = false
  const untimed: Untimed = async (work) => {
    usedUntimed = true
    const start = process.hrtime.bigint()
    try {
      return await work()
    } finally {
      excluded += process.hrtime.bigint() - start
    }
  }
  const cpuStart = process.cpuUsage()
  while (spent < budget) {
    const prepared = (side.prepare ? await side.prepare() : undefined) as T
    excluded = 0n
    const start = process.hrtime.bigint()
    await side.run(prepared, untimed)
    spent += process.hrtime.bigint() - start - excluded
    ops++
  }
  if (side.settle) {
    const start = process.hrtime.bigint()
    await side.settle()
    spent += process.hrtime.bigint() - start
  }
  const cpu = process.cpuUsage(cpuStart)
  return {
    rate: ops / (Number(spent) / 1e9),
    cpuMicros: side.prepare || usedUntimed ? undefined : (cpu.user + cpu.system) / ops,
  }
}

/** Measures one case, both libraries interleaved. */
export async function compare<A, B>(
  label: string,
  ours: Side<A>,
  theirs: Side<B>,
  options: RunOptions,
): Promise<CaseResult> {
  // Warm-up in alternating slices, so both have been optimised by the JIT before any round is timed.
  for (let i = 0; i < 4; i++) {
    await runFor(ours, options.warmupMillis / 4)
    await runFor(theirs, options.warmupMillis / 4)
  }
  const oursRounds: RoundResult[] = []
  const theirsRounds: RoundResult[] = []
  for (let round = 0; round < options.rounds; round++) {
    if (round % 2 === 0) {
      oursRounds.push(await runFor(ours, options.roundMillis))
      theirsRounds.push(await runFor(theirs, options.roundMillis))
    } else {
      theirsRounds.push(await runFor(theirs, options.roundMillis))
      oursRounds.push(await runFor(ours, options.roundMillis))
    }
  }
  const ratios = oursRounds.map((a, i) => a.rate / theirsRounds[i].rate)
  const oursCpu = oursRounds.map((r) => r.cpuMicros)
  const theirsCpu = theirsRounds.map((r) => r.cpuMicros)
  const hasCpu = [...oursCpu, ...theirsCpu].every((c) => c !== undefined)
  return {
    label,
    ours: median(oursRounds.map((r) => r.rate)),
    theirs: median(theirsRounds.map((r) => r.rate)),
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    cpu: hasCpu
      ? {
          ours: median(oursCpu as number[]),
          theirs: median(theirsCpu as number[]),
          ratio: median(theirsCpu.map((t, i) => (t as number) / (oursCpu[i] as number))),
        }
      : undefined,
  }
}

function formatRate(opsPerSecond: number): string {
  return opsPerSecond >= 100
    ? Math.round(opsPerSecond).toLocaleString('en')
    : opsPerSecond.toLocaleString('en', { maximumFractionDigits: 1 })
}

function formatMicros(opsPerSecond: number): string {
  const micros = 1e6 / opsPerSecond
  return micros >= 1000 ? `${(micros / 1000).toFixed(2)} ms` : `${micros.toFixed(1)} µs`
}

/** A ratio as the tables print it: two decimals below 2× (where one would hide a 10 % difference), else one. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(ratio < 2 ? 2 : 1)}×`
}

/** The machine's load, printed with every table: on a shared machine the figures mean little without it. */
export function loadNote(): string {
  const [one, five] = loadavg()
  return `load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)`
}

/** Prints a Markdown table of the cases with medians and ratios; returns the ratios by label. */
export function printTable(
  title: string,
  results: CaseResult[],
  options: RunOptions,
  /** What the two columns measured: Authchart and @auth/core, unless the table compares something else. */
  columns: [string, string] = ['Authchart', '@auth/core'],
): Record<string, number> {
  console.log(`\n## ${title}`)
  console.log(
    `\n${options.rounds} interleaved round pairs of ${options.roundMillis} ms per library after ${options.warmupMillis} ms of warm-up each; ${loadNote()}\n`,
  )
  console.log(
    `| case | ${columns[0]} | ${columns[1]} | ratio (median of rounds) | ratio range | CPU µs/op, ${columns[0]} / ${columns[1]} (ratio) |`,
  )
  console.log('|---|---:|---:|---:|---:|---:|')
  const ratios: Record<string, number> = {}
  for (const r of results) {
    // The summary of repeated runs is keyed by label: two cases of one label would be read as one.
    if (Object.hasOwn(ratios, r.label)) throw new Error(`bench: two cases are labelled "${r.label}"`)
    ratios[r.label] = r.ratio
    const cpu = r.cpu ? `${r.cpu.ours.toFixed(1)} / ${r.cpu.theirs.toFixed(1)} (${formatRatio(r.cpu.ratio)})` : 'n/a'
    console.log(
      `| ${r.label} | ${formatRate(r.ours)}/s (${formatMicros(r.ours)}) | ${formatRate(r.theirs)}/s (${formatMicros(r.theirs)}) | **${formatRatio(r.ratio)}** | ${formatRatio(r.ratioRange[0]).slice(0, -1)}–${formatRatio(r.ratioRange[1])} | ${cpu} |`,
    )
  }
  return ratios
}

/** A browser's cookie jar, reduced to what the benchmarks need. */
export class Jar {
  readonly cookies = new Map<string, string>()

  take(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      if (/;\s*max-age=0/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1))
    }
    return this
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/** A single library's throughput (the suites that measure one thing at a time: flow stores, XState APIs). */
export interface Measured {
  name: string
  opsPerSecond: number
  microsPerOp: number
}

/** Runs `fn` sequentially in rounds and reports the median round's throughput. */
export async function measure(
  name: string,
  fn: () => Promise<unknown>,
  options: { rounds?: number; opsPerRound?: number; warmup?: number } = {},
): Promise<Measured> {
  const rounds = options.rounds ?? 7
  const opsPerRound = options.opsPerRound ?? 1000
  for (let i = 0; i < (options.warmup ?? Math.min(500, opsPerRound)); i++) await fn()
  const perRound: number[] = []
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < opsPerRound; i++) await fn()
    perRound.push(opsPerRound / (Number(process.hrtime.bigint() - start) / 1e9))
  }
  const opsPerSecond = median(perRound)
  return { name, opsPerSecond, microsPerOp: 1e6 / opsPerSecond }
}

/** Prints pairs measured with `measure` (ours vs theirs) with the ratio; returns the ratios by case. */
export function printComparison(
  title: string,
  rows: Array<{ label: string; ours: Measured; theirs: Measured }>,
): Record<string, number> {
  console.log(`\n## ${title}\n\n${loadNote()}\n`)
  console.log('| case | Authchart ops/s | @auth/core ops/s | ratio |')
  console.log('|---|---:|---:|---:|')
  const ratios: Record<string, number> = {}
  for (const { label, ours, theirs } of rows) {
    const ratio = ours.opsPerSecond / theirs.opsPerSecond
    ratios[label] = ratio
    console.log(
      `| ${label} | ${Math.round(ours.opsPerSecond).toLocaleString('en')} (${ours.microsPerOp.toFixed(1)} µs) | ${Math.round(theirs.opsPerSecond).toLocaleString('en')} (${theirs.microsPerOp.toFixed(1)} µs) | ${ratio.toFixed(1)}× |`,
    )
  }
  return ratios
}
