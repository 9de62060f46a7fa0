/** A small side-by-side benchmark runner: warm-up, several timed rounds, the median, and ratios. */

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
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    perRound.push(opsPerRound / seconds)
  }
  perRound.sort((a, b) => a - b)
  const median = perRound[Math.floor(perRound.length / 2)]
  return { name, opsPerSecond: median, microsPerOp: 1e6 / median }
}

/** Prints a table of pairs (ours vs theirs) with the ratio, and returns the ratios by case. */
export function printComparison(
  title: string,
  rows: Array<{ label: string; ours: Measured; theirs: Measured }>,
): Record<string, number> {
  console.log(`\n## ${title}`)
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
