import { describe, expect, it } from 'vitest'
import { httpDateOf, isoStringOf } from '../../src/session/expiry-strings.js'

describe('expiry strings', () => {
  it('gives the ISO string Date gives, to the millisecond, within a second and across seconds', () => {
    const start = Date.UTC(2026, 10, 29, 5, 59, 59, 990)
    // Within one second (the kept prefix reused), across the second, the minute, the day and the year.
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 60_000, 86_400_000, 366 * 86_400_000].flatMap((d) => [
      start + d,
      start + d + 7,
    ])
    for (const ms of [...times, ...times.reverse(), 0, -1, -1001, 253_402_300_799_999]) {
      expect(isoStringOf(ms)).toBe(new Date(ms).toISOString())
    }
  })

  it('drops a fraction of a millisecond as Date does, and throws where Date throws', () => {
    expect(isoStringOf(1_700_000_000_123.9)).toBe(new Date(1_700_000_000_123.9).toISOString())
    expect(isoStringOf(-1_000.5)).toBe(new Date(-1_000.5).toISOString())
    expect(() => isoStringOf(Number.NaN)).toThrow(RangeError)
    expect(() => isoStringOf(8.64e15 + 1)).toThrow(RangeError)
  })

  it('gives the HTTP date Date gives, for the same and for another time', () => {
    const first = new Date(Date.UTC(2026, 11, 29, 5, 48, 34))
    expect(httpDateOf(first)).toBe('Tue, 29 Dec 2026 05:48:34 GMT')
    expect(httpDateOf(new Date(first.getTime()))).toBe('Tue, 29 Dec 2026 05:48:34 GMT')
    const next = new Date(first.getTime() + 1000)
    expect(httpDateOf(next)).toBe(next.toUTCString())
    expect(httpDateOf(first)).toBe(first.toUTCString())
  })
})
