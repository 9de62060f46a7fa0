/** The summary of a suite run several times (`--repeat`): each case's ratio in every run, and their median. */
import { formatRatio, loadNote, median } from './measure.js'

/** Prints a Markdown table: one row per case, the ratio of each run, the median and the lowest. */
export function printRepeated(suite: string, runs: Record<string, number>[]): void {
  console.log(`\n## ${suite}: ${runs.length} runs, each in a fresh process\n\n${loadNote()} at the end\n`)
  console.log('| case | ratio in each run | median | lowest |')
  console.log('|---|---|---:|---:|')
  for (const label of Object.keys(runs[0] ?? {})) {
    const values = runs.map((run) => run[label]).filter((value): value is number => typeof value === 'number')
    const each = values.map(formatRatio).join(', ')
    console.log(`| ${label} | ${each} | **${formatRatio(median(values))}** | ${formatRatio(Math.min(...values))} |`)
  }
}
