/**
 * A sign-in that the `secondFactor` policy holds until the user enrols a factor (docs/second-factors.md, "Policy").
 * It is not a session: it travels in its own cookie, sealed as a compact JWE under a key derived for this purpose
 * alone, so no session reader (`GET /session`, `auth()`, `requireRecentAuth`, a database lookup) can take it for one,
 * and a session cookie cannot be made of it. Only the factors endpoints open it, and the first enrolled factor turns
 * it into the session the sign-in would have had, with its own `auth_time`.
 */
import { sealCompactJwe } from '../session/jwe.js'
import { derivePurposeKey } from '../session/hkdf-keys.js'
import { openSealedJson } from './secret-seal.js'
import { pendingEnrolmentSeconds } from './pending-enrolment.js'
import { InvalidConfig } from '../errors.js'
import type { ProviderType } from '../types/models.js'

const providerTypes: readonly unknown[] = ['oauth', 'oidc', 'email', 'credentials', 'webauthn'] satisfies ProviderType[]

const purpose = 'second factor enrolment pending sign-in'

/** As long as a started enrolment: time to install an app and scan its code once. */
export const pendingSignInSeconds = pendingEnrolmentSeconds

/** What the held sign-in keeps: who, by which account, when and by what (for the session's `auth_time` and `amr`). */
export interface PendingSignIn {
  user: { id: string; name?: string | null; email?: string | null; image?: string | null }
  account: { provider: string; type: ProviderType; providerAccountId: string } | null
  /** The sign-in's `auth_time`, epoch seconds. */
  authTime: number
  /** A passkey sign-in's kind of passkey, for the session's `amr`. */
  passkeyDeviceType?: 'singleDevice' | 'multiDevice'
  /** Epoch seconds after which it is refused. */
  expiresAt: number
}

interface SealedPayload {
  v: 1
  s: PendingSignIn
}

/**
 * Seals a held sign-in for its cookie.
 * @param secrets the app's secrets, newest first (the first one seals)
 * @throws {InvalidConfig} when there is no secret
 */
export function sealPendingSignIn(secrets: readonly string[], pending: PendingSignIn): string {
  const [newest] = secrets
  if (newest === undefined) throw new InvalidConfig('holding a sign-in for enrolment needs the app secret')
  const payload: SealedPayload = { v: 1, s: pending }
  return sealCompactJwe(JSON.stringify(payload), derivePurposeKey(newest, purpose, 32), 'A256GCM')
}

/** Opens a held sign-in; `null` when no configured secret opens it, it is malformed or expired at `nowSeconds`. */
export function openPendingSignIn(
  secrets: readonly string[],
  sealed: unknown,
  nowSeconds: number,
): PendingSignIn | null {
  if (typeof sealed !== 'string' || sealed.length > 4000) return null
  const opened = openSealedJson(
    sealed,
    secrets.map((secret) => derivePurposeKey(secret, purpose, 32)),
  )
  if (!opened) return null
  const { payload } = opened
  if (!isSealedPayload(payload) || payload.s.expiresAt <= nowSeconds) return null
  return payload.s
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isSealedPayload(value: unknown): value is SealedPayload {
  if (!isRecord(value) || value.v !== 1 || !isRecord(value.s)) return false
  const { user, account, authTime, expiresAt } = value.s
  const accountOk =
    account === null ||
    (isRecord(account) &&
      typeof account.provider === 'string' &&
      providerTypes.includes(account.type) &&
      typeof account.providerAccountId === 'string')
  return (
    isRecord(user) &&
    typeof user.id === 'string' &&
    user.id !== '' &&
    accountOk &&
    typeof authTime === 'number' &&
    typeof expiresAt === 'number'
  )
}
