/**
 * A session record as `RedisSessionStore` keeps it in its user's hash: `~<created>.<last seen>.<expires>.<rest>`, the
 * times in base 36, and the rest (method, device, address, `amr`, `authTime`, a database session's token) a JSON
 * array up to the last of them present. The hash's key names the user and its field the session, so neither is repeated.
 *
 * Why not the record's JSON: JSON.stringify writes each time as a decimal number (about 0.3 µs each) and the text
 * carried the ids too: 163 characters and 1.9 µs for a JWT session's record, against 43 and 1.0 µs here (measured
 * with the machine under load), and 697 bytes of Redis memory per active session against 465. (It did not change the
 * session check's cost under a large heap, where the write path's own work dominates: docs/benchmarks.md.)
 * Records written as JSON (by an earlier version, or a time this form cannot hold) are still read.
 * @module flow/stores/session-record-text
 */
import { base36Time, isWholeTime, timeFromBase36 } from '../../security/base36-time.js'
import type { StoredSessionRecord } from '../../types/session-store.js'

const marker = '~'

/** The text the store keeps for `record`. */
export function sessionRecordText(record: StoredSessionRecord): string {
  const { createdAt, lastSeenAt, expiresAt } = record
  if (!isWholeTime(createdAt) || !isWholeTime(lastSeenAt) || !isWholeTime(expiresAt)) return JSON.stringify(record)
  const times = `${marker}${base36Time(createdAt)}.${base36Time(lastSeenAt)}.${base36Time(expiresAt)}.`
  const { method, userAgent, clientAddress, amr, authTime, sessionToken } = record
  // The array up to its last member present, each member written on its own: JSON.stringify of the whole array,
  // nulls included, cost more than the times.
  const rest = [
    stringJson(method),
    stringJson(userAgent),
    stringJson(clientAddress),
    amr === undefined ? 'null' : JSON.stringify(amr),
    typeof authTime === 'number' && Number.isFinite(authTime) ? String(authTime) : 'null',
    stringJson(sessionToken),
  ]
  let length = rest.length
  while (length > 0 && rest[length - 1] === 'null') length--
  if (length === 0) return times
  rest.length = length
  return `${times}[${rest.join(',')}]`
}

function stringJson(value: string | undefined): string {
  return value === undefined ? 'null' : JSON.stringify(value)
}

function stringAt(rest: unknown[], index: number): string | undefined {
  const value = rest[index]
  return typeof value === 'string' ? value : undefined
}

/** The record kept as `text` in the field `id` of `userId`'s hash; undefined when it is not one. */
export function readSessionRecordText(text: string, id: string, userId: string): StoredSessionRecord | undefined {
  if (!text.startsWith(marker)) return readJsonRecord(text, userId)
  const afterCreated = text.indexOf('.', 1)
  const afterLastSeen = afterCreated > 0 ? text.indexOf('.', afterCreated + 1) : -1
  const afterExpires = afterLastSeen > 0 ? text.indexOf('.', afterLastSeen + 1) : -1
  if (afterExpires < 0) return undefined
  const createdAt = timeFromBase36(text, 1, afterCreated)
  const lastSeenAt = timeFromBase36(text, afterCreated + 1, afterLastSeen)
  const expiresAt = timeFromBase36(text, afterLastSeen + 1, afterExpires)
  if (createdAt === undefined || lastSeenAt === undefined || expiresAt === undefined) return undefined
  const record: StoredSessionRecord = { id, userId, createdAt, lastSeenAt, expiresAt }
  if (afterExpires + 1 === text.length) return record
  let rest: unknown
  try {
    rest = JSON.parse(text.slice(afterExpires + 1))
  } catch {
    return undefined
  }
  if (!Array.isArray(rest)) return undefined
  const method = stringAt(rest, 0)
  const userAgent = stringAt(rest, 1)
  const clientAddress = stringAt(rest, 2)
  const amr: unknown = rest[3]
  const authTime: unknown = rest[4]
  const sessionToken = stringAt(rest, 5)
  if (method !== undefined) record.method = method
  if (userAgent !== undefined) record.userAgent = userAgent
  if (clientAddress !== undefined) record.clientAddress = clientAddress
  if (Array.isArray(amr) && amr.every((entry) => typeof entry === 'string')) record.amr = amr
  if (typeof authTime === 'number' && Number.isFinite(authTime)) record.authTime = authTime
  if (sessionToken !== undefined) record.sessionToken = sessionToken
  return record
}

/** A record kept as its JSON, which says its own user: one filed under another user's key is not theirs. */
function readJsonRecord(text: string, userId: string): StoredSessionRecord | undefined {
  let record: StoredSessionRecord
  try {
    record = JSON.parse(text) as StoredSessionRecord
  } catch {
    return undefined
  }
  return typeof record === 'object' && record !== null && record.userId === userId ? record : undefined
}
