/**
 * The date strings a session check writes on every re-issue: the answer's `expires` (an ISO string to the
 * millisecond, as Auth.js answers) and the cookie's `Expires` attribute (an HTTP date, whole seconds). Building each
 * from a `Date` costs about a microsecond on Node 20; checks served within the same second share the same second, so
 * the text of the last second is kept and reused. One entry each, never a table: nothing is kept alive for long.
 */

/** ECMAScript's time range: ±100,000,000 days around the epoch. */
const maxDateMs = 8.64e15

/** The ISO text of the last second asked for, up to and including the `.` before the milliseconds. */
let isoSecond = { second: Number.NaN, prefix: '' }

/**
 * `new Date(ms).toISOString()`, without a `Date` or its formatting when the second is the last one asked for.
 * @param ms milliseconds since the epoch (a fraction is dropped, as `Date` drops it)
 * @throws RangeError outside the `Date` range, as `toISOString` does
 */
export function isoStringOf(time: number): string {
  const ms = Math.trunc(time)
  // Outside the Date range (or NaN) the second may still be in range: Date's own error, as before.
  if (!(Math.abs(ms) <= maxDateMs)) return new Date(ms).toISOString()
  const second = Math.floor(ms / 1000)
  if (isoSecond.second !== second) {
    const iso = new Date(second * 1000).toISOString()
    isoSecond = { second, prefix: iso.slice(0, iso.length - 4) }
  }
  const millis = ms - second * 1000
  return `${isoSecond.prefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
}

/** The HTTP date of the last expiry asked for. */
let httpDate = { ms: Number.NaN, text: '' }

/**
 * `date.toUTCString()` (the `Expires` attribute's HTTP date), formatted once per distinct time: a session's
 * re-issued cookies expire on whole seconds, so the checks of one second share it.
 */
export function httpDateOf(date: Date): string {
  const ms = date.getTime()
  if (httpDate.ms !== ms) httpDate = { ms, text: date.toUTCString() }
  return httpDate.text
}
