/**
 * The session records a Redis session store sends in one write. Adding one (on the session check's hot path) only
 * keeps the record and who waits for it; the key, the text and the lifetime of every record are worked out when the
 * batch is sent, in one pass (`prepare`). Together with 256 records a command instead of 64, this took session
 * management's cost on a session check that writes its record from +16.5 to +10.4 % CPU (one process, both builds
 * interleaved, many distinct users: docs/benchmarks.md). A record written behind (`addBehind`) that a later record of
 * the same session follows in the batch is left out (the later one overwrites it anyway); a failure of records
 * written behind is reported once per reporter.
 * @module flow/stores/session-record-batch
 */
import type { StoredSessionRecord } from '../../types/session-store.js'
import { sessionRecordText } from './session-record-text.js'

/** A `put` waiting for its record: told the error, or null once it is written. */
export type RecordWritten = (err: Error | null) => void

/** Who is told that records written behind failed (for the session check, the app's logger). */
export type RecordWriteFailed = (err: Error) => void

/** The batch as the write sends it: per record kept, its hash key, and its field, text and milliseconds to live. */
export interface PreparedRecords {
  /** Each record's hash key (the script's KEYS). */
  readonly keys: string[]
  /** Per record: field (session id), record text, milliseconds to live, three entries each. */
  readonly values: Array<string | number>
}

/** A lone surrogate, which no UTF-8 encoder writes as it is. */
const loneSurrogate = /[\ud800-\udfff]/

/**
 * `text` as its UTF-8 bytes read back: a lone surrogate becomes U+FFFD, as any client writing the string would make
 * it, so that a JSON decoder on the other side (which refuses an escaped lone surrogate) reads every record, and a
 * key built from it (`encodeURIComponent`, which throws on one) can always be built.
 */
export function wellFormed(text: string): string {
  return loneSurrogate.test(text) ? Buffer.from(text, 'utf8').toString('utf8') : text
}

/** The writes waiting for the next command, in the order they were asked for. */
export class RecordBatch {
  readonly #records: StoredSessionRecord[] = []
  /** Per record: the `put` waiting for it, or undefined for one written behind. */
  readonly #waiting: Array<RecordWritten | undefined> = []
  /** Per record: who to tell when it fails, for one written behind. */
  readonly #reporters: Array<RecordWriteFailed | undefined> = []
  /** Per record sent, its place in `#records`: set by `prepare`; until then, every record. */
  #sent: number[] | undefined

  get size(): number {
    return this.#records.length
  }

  /** A record a `put` waits for: always written, after every write asked for before it. */
  add(record: StoredSessionRecord, waiting: RecordWritten): void {
    this.#records.push(record)
    this.#waiting.push(waiting)
    this.#reporters.push(undefined)
  }

  /** A record written behind (a session check's "last seen"): nothing waits for it; `failed` hears of a failure. */
  addBehind(record: StoredSessionRecord, failed: RecordWriteFailed): void {
    this.#records.push(record)
    this.#waiting.push(undefined)
    this.#reporters.push(failed)
  }

  /**
   * The records to write, in order, with their keys (`keyOf`) and lifetimes as of `nowMs`. A record written behind
   * is left out when a later record of the same session follows it (concurrent checks of one cookie write it once);
   * a `put`'s record is always kept, since its caller waits for it.
   */
  prepare(keyOf: (userId: string) => string, nowMs: number): PreparedRecords {
    const records = this.#records
    const later = new Set<string>()
    const kept: number[] = []
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i]
      if (!record) continue
      const session = `${record.userId}\n${record.id}`
      if (later.has(session) && this.#waiting[i] === undefined) continue
      later.add(session)
      kept.push(i)
    }
    kept.reverse()
    const keys: string[] = []
    const values: Array<string | number> = []
    for (const i of kept) {
      const record = records[i]
      if (!record) continue
      keys.push(keyOf(record.userId))
      // The text needs no such care: every part of it is base 36 or JSON, which escapes a lone surrogate.
      values.push(wellFormed(record.id), sessionRecordText(record), Math.max(1, Math.ceil(record.expiresAt - nowMs)))
    }
    this.#sent = kept
    return { keys, values }
  }

  /**
   * Hands out the answers of the records `prepare` kept: `answers[j]` is `1` when the j-th was written, else Redis's
   * error text; `'all written'` says so of every record; an `Error` is the failure of the whole command (or of the
   * batch before `prepare` ran: then every record hears it). Each `put` hears its own; each reporter hears once of
   * all its records that failed.
   */
  settle(answers: readonly unknown[] | 'all written' | Error): void {
    const sent = this.#sent ?? this.#records.map((_, i) => i)
    if (answers === 'all written') {
      for (const i of sent) this.#waiting[i]?.(null)
      return
    }
    let failures: Map<RecordWriteFailed, { count: number; first: Error }> | undefined
    for (const [j, i] of sent.entries()) {
      const err = errorOf(answers, j)
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
