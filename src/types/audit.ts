/**
 * Types of the audit trail (`config.audit`): one record per finished flow and per security-relevant event.
 * @module types/audit
 */

/** What a record is about. */
export type AuditRecordType = 'flow' | 'sign-in' | 'sign-out' | 'refusal' | 'factor-change' | 'session-revoked'

/**
 * One audit record. Carries no secret and no address: ids, names from a closed set, and a keyed digest of the client
 * key the request limits use (docs/observability.md).
 */
export interface AuditRecord {
  type: AuditRecordType
  /** When it happened: ISO 8601, UTC, milliseconds. */
  time: string
  /** The flow's id (the same on every request of one flow), when the record comes from a flow. */
  flowId?: string
  /** The machine that ran the flow (`oauth`, `email`, `credentials`, `webauthn`, `session`, ...). */
  machine?: string
  /** The user's id, when known (a sign-in, a sign-out, a factor change, revoked sessions). */
  userId?: string
  /** How the user signed in or out: the machine, or for a factor change the factor kind (`totp`, `recovery-codes`). */
  method?: string
  /** The provider id (`github`, `email`, `credentials`), when there is one. */
  provider?: string
  /**
   * How it ended: a flow's final state (`signedIn`, `failed`, `active`, ...; `error` when it threw), `success` for a
   * sign-in or sign-out event, `refused`, `enrolled`/`removed` for a factor, `revoked` for sessions.
   */
  outcome: string
  /** The refusal's check code (docs/security.md#refusal-codes), when refused. */
  refusal?: string
  /** A keyed digest (HMAC-SHA-256 under the first secret, hex, 32 digits) of the client key; never the address. */
  clientKeyDigest?: string
  /** For `session-revoked`: how many sessions were ended. */
  count?: number
}

/**
 * Receives each audit record. Called after the fact and never awaited by the request: a sink that throws or rejects
 * is logged (`audit-sink-failed`, once until it works again) and never fails the sign-in.
 */
export type AuditSink = (record: AuditRecord) => void | Promise<void>
