/** The `--repeat` summary of `npm run bench`: each case's ratio in every run, the median and the lowest. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { printRepeated } from '../../bench/repeat.js'

describe('printRepeated', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('prints one row per case with every run, the median and the lowest', () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(String(line))
    })
    printRepeated('core', [
      { 'session check': 10, 'sign-in': 5.2 },
      { 'session check': 14, 'sign-in': 4.8 },
      { 'session check': 12, 'sign-in': 6.1 },
      { 'session check': 11, 'sign-in': 5.9 },
    ])
    expect(lines[0]).toContain('core: 4 runs, each in a fresh process')
    expect(lines).toContain('| session check | 10.0×, 14.0×, 12.0×, 11.0× | **11.5×** | 10.0× |')
    expect(lines).toContain('| sign-in | 5.2×, 4.8×, 6.1×, 5.9× | **5.6×** | 4.8× |')
  })

  it('prints a ratio below 2 with two decimals, where one would hide a 10 % difference', () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(String(line))
    })
    printRepeated('session-management', [{ 'on / off': 0.912 }, { 'on / off': 0.868 }, { 'on / off': 0.904 }])
    expect(lines).toContain('| on / off | 0.91×, 0.87×, 0.90× | **0.90×** | 0.87× |')
  })
})
