/**
 * The refusals Authchart makes, each with a stable check code. Every refusal is logged once, at `warn`, as
 * `refused:<check>` with the flow id and safe details, so operators can count and alert on them. Details never
 * carry a token, code, verifier or secret: only identifiers (flow id, provider id) and short reasons.
 */

/** Every check code, in the order a request meets them. Documented in docs/security.md. */
export const refusalChecks = [
  'method',
  'body-size',
  'body-timeout',
  'host',
  'outbound-origin',
  'csrf',
  'callback-url',
  'credentials-input',
  'credentials-lockout',
  'email-address',
  'rate-limit',
  'redirect-proxy-origin',
  'redirect-proxy-state',
  'redirect-proxy-target',
  'callback-parameters',
  'flow-missing',
  'flow-invalid',
  'flow-expired',
  'flow-replayed',
  'provider-mismatch',
  'state',
  'issuer',
  'pkce',
  'nonce',
  'id-token',
  'userinfo-signature',
  'webauthn-registration',
  'webauthn-challenge',
  'webauthn-session',
  'webauthn-verification',
  'webauthn-credential',
  'webauthn-counter',
  'unverified-passkey-account',
  'session-token',
  'session-revoked',
  'logout-token',
  'logout-token-replayed',
  'verification-token',
  'refresh-token',
  'factor-enrolment',
  'factor-code',
  'factor-unknown',
  'factor-reauth',
  'step-up',
  'second-factor-code',
  'second-factor-limit',
] as const

/** A stable name for one kind of refusal. */
export type RefusalCheck = (typeof refusalChecks)[number]

/** The warning code a refusal is logged under. */
export type RefusalCode = `refused:${RefusalCheck}`

/** What a refusal's log line may say besides its code. Values are cut short; keys are fixed names. */
export interface RefusalDetail {
  flowId?: string
  provider?: string
  reason?: string
  [key: string]: string | number | boolean | undefined
}

/** Longest detail value logged: enough to read, too short to carry a token. */
const maxDetailLength = 120

/** The detail with every string cut to a loggable length and undefined fields dropped. */
export function safeRefusalDetail(detail: RefusalDetail): RefusalDetail {
  const out: RefusalDetail = {}
  for (const [key, value] of Object.entries(detail)) {
    if (value === undefined) continue
    out[key] =
      typeof value === 'string' && value.length > maxDetailLength ? `${value.slice(0, maxDetailLength)}…` : value
  }
  return out
}

/** Whether a string names a known check (for values read back from a machine's context). */
export function isRefusalCheck(value: unknown): value is RefusalCheck {
  return typeof value === 'string' && (refusalChecks as readonly string[]).includes(value)
}
