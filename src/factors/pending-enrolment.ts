/**
 * A TOTP enrolment between its start and its first valid code. Nothing is stored for it: the new secret travels
 * to the user's page (or the app's own UI) sealed as a compact JWE under a key derived for this purpose alone, bound
 * to the user and the factor id it will get, with an expiry. So a started enrolment is never a factor (the sign-in
 * challenge cannot see it, removing factors does not count it), an abandoned one leaves nothing behind, and a token
 * of one user opens for nobody else.
 */
import { sealCompactJwe } from '../session/jwe.js'
import { derivePurposeKey } from '../session/hkdf-keys.js'
import { openSealedJson } from './secret-seal.js'
import { InvalidConfig } from '../errors.js'

const purpose = 'second factor pending enrolment'

/** How long a started enrolment can be confirmed: time to install an app and scan the code, not a day. */
export const pendingEnrolmentSeconds = 15 * 60

/** A started enrolment, as opened. */
export interface PendingEnrolment {
  userId: string
  /** The id the factor gets once confirmed. */
  factorId: string
  /** The shared secret, base32. */
  secret: string
  /** Epoch seconds after which it is refused. */
  expiresAt: number
}

interface SealedPayload {
  v: 1
  u: string
  f: string
  s: string
  e: number
}

/**
 * Seals a started enrolment.
 * @param secrets the app's secrets, newest first (the first one seals)
 * @throws {InvalidConfig} when there is no secret
 */
export function sealPendingEnrolment(secrets: readonly string[], pending: PendingEnrolment): string {
  const [newest] = secrets
  if (newest === undefined) throw new InvalidConfig('a TOTP enrolment needs the app secret')
  const payload: SealedPayload = {
    v: 1,
    u: pending.userId,
    f: pending.factorId,
    s: pending.secret,
    e: pending.expiresAt,
  }
  return sealCompactJwe(JSON.stringify(payload), derivePurposeKey(newest, purpose, 32), 'A256GCM')
}

/**
 * Opens a started enrolment of `userId`. `null` when no configured secret opens it, it is malformed, expired at
 * `nowSeconds`, or another user's: the caller refuses it.
 */
export function openPendingEnrolment(
  secrets: readonly string[],
  userId: string,
  sealed: unknown,
  nowSeconds: number,
): PendingEnrolment | null {
  if (typeof sealed !== 'string' || sealed.length > 2000) return null
  const keys = secrets.map((secret) => derivePurposeKey(secret, purpose, 32))
  const opened = openSealedJson(sealed, keys)
  if (!opened) return null
  const { payload } = opened
  if (!isSealedPayload(payload) || payload.u !== userId || payload.e <= nowSeconds) return null
  return { userId: payload.u, factorId: payload.f, secret: payload.s, expiresAt: payload.e }
}

function isSealedPayload(value: unknown): value is SealedPayload {
  if (typeof value !== 'object' || value === null) return false
  const fields: Partial<Record<keyof SealedPayload, unknown>> = value
  return (
    fields.v === 1 &&
    typeof fields.u === 'string' &&
    typeof fields.f === 'string' &&
    typeof fields.s === 'string' &&
    typeof fields.e === 'number'
  )
}
