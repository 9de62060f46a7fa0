/**
 * The TOTP secret at rest: sealed as a compact JWE (`dir`, A256GCM) under a key derived from the app's secret for
 * this purpose alone, and bound to its user and factor, so a database dump holds nothing a code can be made from
 * and a sealed secret copied to another row opens for nobody. Opening tries every configured secret, newest first,
 * so rotating `secret` keeps every enrolment working; `keyIndex` above 0 tells the caller to seal it again.
 */
import { openCompactJwe, sealCompactJwe } from '../session/jwe.js'
import { derivePurposeKey } from '../session/hkdf-keys.js'
import { InvalidConfig } from '../errors.js'

const purpose = 'second factor totp secret'

/** Whose secret it is: both are sealed in and checked on opening. */
export interface TotpSecretOwner {
  userId: string
  factorId: string
}

/** An opened secret. */
export interface OpenedTotpSecret {
  /** The shared secret, base32. */
  secret: string
  /** Which configured secret opened it (0: the newest). Above 0, seal it again with `sealTotpSecret`. */
  keyIndex: number
}

interface SealedPayload {
  v: 1
  u: string
  f: string
  s: string
}

const keysOf = (secrets: readonly string[]) => secrets.map((secret) => derivePurposeKey(secret, purpose, 32))

/**
 * Seals `totpSecret` for storage in `AdapterFactor.secret`.
 * @param secrets the app's secrets, newest first (the first one seals)
 * @throws {InvalidConfig} when there is no secret
 */
export function sealTotpSecret(secrets: readonly string[], owner: TotpSecretOwner, totpSecret: string): string {
  const [newest] = secrets
  if (newest === undefined) throw new InvalidConfig('sealing a TOTP secret needs the app secret')
  const payload: SealedPayload = { v: 1, u: owner.userId, f: owner.factorId, s: totpSecret }
  return sealCompactJwe(JSON.stringify(payload), derivePurposeKey(newest, purpose, 32), 'A256GCM')
}

/**
 * Opens a sealed secret of `owner`. `null` when no configured secret opens it, or it belongs to another user or
 * factor, or it is malformed: the caller refuses the code, never throws at the user.
 */
export function openTotpSecret(
  secrets: readonly string[],
  owner: TotpSecretOwner,
  sealed: string,
): OpenedTotpSecret | null {
  const opened = openSealedJson(sealed, keysOf(secrets))
  if (!opened) return null
  const { payload } = opened
  if (!isSealedPayload(payload) || payload.u !== owner.userId || payload.f !== owner.factorId) return null
  return { secret: payload.s, keyIndex: opened.keyIndex }
}

/**
 * Opens an `A256GCM` JWE sealed with one of `keys` and parses its JSON: the shared first half of opening a sealed
 * TOTP secret and a pending enrolment. `null` when no key opens it or it is not JSON; the caller checks the shape.
 */
export function openSealedJson(
  sealed: string,
  keys: readonly Uint8Array[],
): { payload: unknown; keyIndex: number } | null {
  const opened = openCompactJwe(sealed, keys, ['A256GCM'])
  if (!opened) return null
  try {
    return { payload: JSON.parse(opened.plaintext.toString('utf8')), keyIndex: opened.keyIndex }
  } catch {
    return null
  }
}

function isSealedPayload(value: unknown): value is SealedPayload {
  if (typeof value !== 'object' || value === null) return false
  const fields: Partial<Record<keyof SealedPayload, unknown>> = value
  return fields.v === 1 && typeof fields.u === 'string' && typeof fields.f === 'string' && typeof fields.s === 'string'
}
