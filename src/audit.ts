/**
 * The JSON-lines audit sink, for `config.audit` (docs/observability.md): one record per line, appended to a file or
 * written to a stream. The SQL sink, hash-chained, is `sqlAuditSink` in `authchart/adapters/sql`.
 * @module audit
 */
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import type { AuditRecord } from './types/audit.js'

export type { AuditRecord, AuditRecordType, AuditSink } from './types/audit.js'

/** An audit sink writing JSON lines; `close()` ends a file it opened (a stream it was given is left open). */
export interface JsonLinesAuditSink {
  (record: AuditRecord): Promise<void>
  close(): Promise<void>
}

/**
 * Appends each record as one line of JSON to `target`: a file path (opened for appending, created when missing) or a
 * writable stream (`process.stdout`, a log shipper's pipe). Each call resolves once its line is handed to the file
 * system, and rejects when the write fails (the audit trail logs that once and the request goes on).
 * @example
 * export const config = { ...authConfig, audit: jsonLinesAuditSink('/var/log/authchart/audit.jsonl') }
 */
export function jsonLinesAuditSink(target: string | Writable): JsonLinesAuditSink {
  const owned = typeof target === 'string'
  const stream = owned ? createWriteStream(target, { flags: 'a', mode: 0o600 }) : target
  // A stream error is also reported to the write that met it; without a listener it would crash the process.
  if (owned) stream.on('error', () => {})
  const write = (record: AuditRecord): Promise<void> =>
    new Promise((resolve, reject) => {
      stream.write(`${JSON.stringify(record)}\n`, (err) => (err ? reject(err) : resolve()))
    })
  return Object.assign(write, {
    close: (): Promise<void> =>
      owned ? new Promise<void>((resolve) => stream.end(() => resolve())) : Promise.resolve(),
  })
}
