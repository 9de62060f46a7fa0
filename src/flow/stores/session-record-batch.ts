/**
 * The session records a Redis session store sends in one write: kept as the script's arguments from the start (no
 * object per record), a record written behind (`putBehind`) replaced by a later one of the same session, and each
 * answer handed to whoever waits for it, a failure of records written behind reported once per reporter.
 * @module flow/stores/session-record-batch
 */

/** A `put` waiting for its record: told the error, or null once it is written. */
export type RecordWritten = (err: Error | null) => void

/** Who is told that records written behind failed (for the session check, the app's logger). */
export type RecordWriteFailed = (err: Error) => void

/** The writes waiting for the next command, in the order they were asked for. */
export class RecordBatch {
  /** Each record's hash key (the script's KEYS). */
  readonly keys: string[] = []
  /** Per record: session id, record text, milliseconds to live (the script's ARGV, three per record). */
  readonly args: Array<string | number> = []
  /** Per record: the `put` waiting for it, or undefined for one written behind. */
  readonly #waiting: Array<RecordWritten | undefined> = []
  /** Per record: who to tell when it fails, for one written behind. */
  readonly #reporters: Array<RecordWriteFailed | undefined> = []
  /** Where each session's record written behind sits: a later one of the same session takes its place. */
  readonly #behind = new Map<string, number>()

  get size(): number {
    return this.keys.length
  }

  /** A record a `put` waits for: always a write of its own, after every write asked for before it. */
  add(key: string, id: string, text: string, ttl: number, waiting: RecordWritten): void {
    // A record written behind before it must not overwrite it later: the next one of this session goes after.
    this.#behind.delete(id)
    this.#push(key, id, text, ttl, waiting, undefined)
  }

  /**
   * A record written behind (a session check's "last seen"): when the same session's record already waits here, the
   * newer one replaces it in place (concurrent checks of one cookie write it once).
   */
  addBehind(key: string, id: string, text: string, ttl: number, failed: RecordWriteFailed): void {
    const at = this.#behind.get(id)
    if (at !== undefined && this.keys[at] === key) {
      this.args[at * 3 + 1] = text
      this.args[at * 3 + 2] = ttl
      this.#reporters[at] = failed
      return
    }
    this.#behind.set(id, this.keys.length)
    this.#push(key, id, text, ttl, undefined, failed)
  }

  #push(
    key: string,
    id: string,
    text: string,
    ttl: number,
    waiting: RecordWritten | undefined,
    failed: RecordWriteFailed | undefined,
  ): void {
    this.keys.push(key)
    this.args.push(id, text, ttl)
    this.#waiting.push(waiting)
    this.#reporters.push(failed)
  }

  /**
   * Hands out the answers: `answers[i]` is `1` when record i was written, else Redis's error text; `'all written'`
   * says so of every record; an `Error` is the failure of the whole command. Each `put` hears its own; each reporter
   * hears once of all its records that failed.
   */
  settle(answers: readonly unknown[] | 'all written' | Error): void {
    if (answers === 'all written') {
      for (const waiting of this.#waiting) waiting?.(null)
      return
    }
    let failures: Map<RecordWriteFailed, { count: number; first: Error }> | undefined
    for (let i = 0; i < this.keys.length; i++) {
      const err = errorOf(answers, i)
      const waiting = this.#waiting[i]
      if (waiting) waiting(err)
      const failed = this.#reporters[i]
      if (!err || !failed) continue
      failures ??= new Map()
      const seen = failures.get(failed)
      if (seen) seen.count += 1
      else failures.set(failed, { count: 1, first: err })
    }
    if (!failures) return
    for (const [failed, { count, first }] of failures) {
      failed(count === 1 ? first : new Error(`${count} session records were not written: ${first.message}`))
    }
  }
}

function errorOf(answers: readonly unknown[] | Error, i: number): Error | null {
  if (answers instanceof Error) return answers
  const answer = answers[i]
  if (answer === 1) return null
  return new Error(typeof answer === 'string' ? answer : 'the record was not written')
}
