/**
 * TOTP (RFC 6238) codes for the second factor: the secret's generation and the check of a submitted code. The HMAC
 * and the dynamic truncation come from `otpauth`; what this module adds is the policy: a 30-second step, one step
 * of drift either way, each step usable once (the caller records the accepted step, atomically, through the
 * adapter's `useTotpStep`), and a comparison whose time does not depend on the code.
 * @see https://www.rfc-editor.org/rfc/rfc6238
 */
import { Secret, TOTP } from 'otpauth'
import { fixedFormatTokensEqual } from '../security/constant-time.js'
import { randomBytesPooled } from '../security/random.js'

/** The HMAC of a TOTP. Authenticator apps agree only on SHA1; the others are here for RFC 6238's test vectors. */
export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512'

/** How codes are made. Every enrolled factor uses `totpDefaults`; other values serve tests and the vectors. */
export interface TotpParameters {
  algorithm: TotpAlgorithm
  digits: 6 | 8
  /** Seconds per time step. */
  period: number
}

/** What every authenticator app understands: SHA1, 6 digits, 30 seconds (RFC 6238 §5.2, Google Authenticator's key URI format). */
export const totpDefaults: TotpParameters = { algorithm: 'SHA1', digits: 6, period: 30 }

/** Steps of clock drift accepted either side of the current one (RFC 6238 §5.2 recommends at most one). */
export const totpDriftSteps = 1

/** 160 bits: the HMAC-SHA1 output size, the length RFC 4226 §4 recommends for a shared secret. */
const secretBytes = 20

/** A fresh shared secret, base32 as authenticator apps and otpauth:// URIs carry it. */
export function newTotpSecret(): string {
  // A copy: the pooled bytes are a view that later draws must not be able to reach through the secret object.
  return new Secret({ buffer: Uint8Array.from(randomBytesPooled(secretBytes)).buffer }).base32
}

/** The time step of `nowMs` (milliseconds since the epoch). */
export function totpStep(nowMs: number, parameters: TotpParameters = totpDefaults): number {
  return Math.floor(nowMs / 1000 / parameters.period)
}

/**
 * The code of one time step.
 * @param secret the shared secret, base32
 * @param step the time step (`totpStep(now)`)
 */
export function totpCode(secret: string, step: number, parameters: TotpParameters = totpDefaults): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: parameters.algorithm,
    digits: parameters.digits,
    period: parameters.period,
    timestamp: step * parameters.period * 1000,
  })
}

/** A submitted code as compared: spaces (some apps show `123 456`) dropped; `null` if it is not all digits. */
export function normaliseTotpCode(
  input: string,
  digits: TotpParameters['digits'] = totpDefaults.digits,
): string | null {
  if (typeof input !== 'string' || input.length > 32) return null
  const code = input.replace(/\s+/g, '')
  return new RegExp(`^\\d{${digits}}$`).test(code) ? code : null
}

/** What `checkTotpCode` needs of the factor and the moment. */
export interface TotpCheck {
  /** The shared secret, base32 (opened with `openTotpSecret`). */
  secret: string
  /** The code the user typed. */
  code: string
  nowMs: number
  /** The last step a code of this factor was accepted for (`AdapterFactor.lastUsedStep`); `null` before the first. */
  lastUsedStep: number | null
  parameters?: TotpParameters
}

/**
 * The time step `code` belongs to, among the current one and one either side, or `null` when it matches none of
 * them or only steps at or before `lastUsedStep` (a used code, or an older one after it: RFC 6238 §5.2 says a
 * verifier must not accept the second attempt of the same code). Every candidate is computed and compared, so the
 * time taken does not say which step matched. A match is only a candidate: the caller must then claim the step
 * with the adapter's `useTotpStep`, which succeeds once, so two concurrent requests cannot both use it.
 */
export function checkTotpCode({
  secret,
  code,
  nowMs,
  lastUsedStep,
  parameters = totpDefaults,
}: TotpCheck): number | null {
  const submitted = normaliseTotpCode(code, parameters.digits)
  if (submitted === null) return null
  const current = totpStep(nowMs, parameters)
  let matched: number | null = null
  for (let step = current - totpDriftSteps; step <= current + totpDriftSteps; step++) {
    const equal = fixedFormatTokensEqual(totpCode(secret, step, parameters), submitted)
    const fresh = lastUsedStep === null || step > lastUsedStep
    // The earliest fresh step wins: taking a later one would burn the codes in between for nothing.
    if (equal && fresh && matched === null) matched = step
  }
  return matched
}
