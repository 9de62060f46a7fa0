/**
 * Second-factor management for the signed-in user: start and confirm a TOTP enrolment, hand out and regenerate
 * recovery codes, list and remove factors. The caller passes the user id of the request's own session, so nothing
 * here can reach another user's factors: every read is by that id, and a factor id of someone else is never found.
 *
 * A refusal comes back as a value with its stable code (logged once by the action, docs/security.md), never as an
 * exception the user would see as a 500.
 */
import { randomUUID } from 'node:crypto'
import { AuthError } from '../errors.js'
import { otpauthUri, enrolmentQrSvg } from '../factors/enrolment.js'
import { openPendingEnrolment, pendingEnrolmentSeconds, sealPendingEnrolment } from '../factors/pending-enrolment.js'
import { hashRecoveryCode, newRecoveryCodes } from '../factors/recovery-codes.js'
import { sealTotpSecret } from '../factors/secret-seal.js'
import { checkTotpCode, newTotpSecret } from '../factors/totp.js'
import type { AdapterFactor, WrappedAdapter } from '../types/adapters.js'
import type { FactorSummary } from '../types/factor-management.js'
import type { EventCallbacks, LoggerInstance } from '../types/index.js'
import type { RefusalCheck } from '../types/refusals.js'

/** What the factor management needs of the resolved config. */
export interface FactorManagementEnv {
  adapter: WrappedAdapter
  secrets: readonly string[]
  events: Partial<EventCallbacks>
  logger: Pick<LoggerInstance, 'error'>
  /** The audit trail's record of a factor change (when the app has `config.audit`). */
  audit?: (change: { userId: string; method: string; outcome: 'enrolled' | 'removed' }) => void
}

/** A factor as the user sees it: never its secret. */
export type ShownFactor = FactorSummary

/** A started TOTP enrolment: what the user's app needs, and the sealed token that confirms it. */
export interface StartedEnrolment {
  /** The sealed pending enrolment, sent back with the first code. */
  enrolment: string
  /** The shared secret, base32, for typing in by hand. */
  secret: string
  otpauthUri: string
  /** The QR code of `otpauthUri`, an SVG document to inline. */
  qrSvg: string
  /** Epoch seconds after which the enrolment can no longer be confirmed. */
  expiresAt: number
}

/** A refusal: its stable code, and a sentence for the user. */
export interface FactorRefusal {
  refused: RefusalCheck
  reason: string
}

/** Longest label kept: a name such as "work phone", not a document. */
const maxLabelLength = 64

const shown = (factor: AdapterFactor): ShownFactor => ({
  id: factor.id,
  type: factor.type,
  label: factor.label,
  createdAt: factor.createdAt.getTime(),
})

/** The factors of `userId`, TOTP first, oldest first within a kind. */
export async function listFactorsOf(env: FactorManagementEnv, userId: string): Promise<ShownFactor[]> {
  const factors = await env.adapter.listFactorsByUserId(userId)
  return factors
    .map(shown)
    .sort((a, b) => Number(a.type !== 'totp') - Number(b.type !== 'totp') || a.createdAt - b.createdAt)
}

/** Starts a TOTP enrolment of `userId`: a new secret, sealed for the confirmation; nothing is stored yet. */
export async function startTotpEnrolment(
  env: FactorManagementEnv,
  who: { userId: string; issuer: string; accountName: string },
  nowSeconds: number,
): Promise<StartedEnrolment> {
  const secret = newTotpSecret()
  const expiresAt = nowSeconds + pendingEnrolmentSeconds
  const enrolment = sealPendingEnrolment(env.secrets, { userId: who.userId, factorId: randomUUID(), secret, expiresAt })
  const uri = otpauthUri({ issuer: who.issuer, accountName: who.accountName, secret })
  return { enrolment, secret, otpauthUri: uri, qrSvg: await enrolmentQrSvg(uri), expiresAt }
}

/** A confirmed enrolment: the factor, and the recovery codes to show once when this was the first factor. */
export interface ConfirmedEnrolment {
  factor: ShownFactor
  recoveryCodes: string[] | null
}

function normalisedLabel(label: unknown): string | null {
  if (typeof label !== 'string') return null
  const trimmed = label.replace(/\s+/g, ' ').trim()
  return trimmed === '' ? null : trimmed.slice(0, maxLabelLength)
}

/**
 * Confirms a started enrolment with one valid code: only then is the factor stored (its secret sealed to the user
 * and factor, the accepted step recorded so the same code cannot also pass a sign-in). On the user's first TOTP
 * factor a set of recovery codes is created as well and returned, to be shown once.
 */
export async function confirmTotpEnrolment(
  env: FactorManagementEnv,
  userId: string,
  input: { enrolment: unknown; code: unknown; label?: unknown },
  nowMs: number,
): Promise<ConfirmedEnrolment | FactorRefusal> {
  const pending = openPendingEnrolment(env.secrets, userId, input.enrolment, Math.floor(nowMs / 1000))
  if (!pending) return { refused: 'factor-enrolment', reason: 'the enrolment is unknown, expired or of another user' }
  const step =
    typeof input.code === 'string'
      ? checkTotpCode({ secret: pending.secret, code: input.code, nowMs, lastUsedStep: null })
      : null
  if (step === null) return { refused: 'factor-code', reason: 'the first code of the enrolment does not match' }
  const existing = await env.adapter.listFactorsByUserId(userId)
  // A token confirmed twice (a double submit, a replay) must not make a second factor of the same secret.
  if (existing.some((factor) => factor.id === pending.factorId))
    return { refused: 'factor-enrolment', reason: 'the enrolment was confirmed already' }
  const factor = await env.adapter.createFactor({
    id: pending.factorId,
    userId,
    type: 'totp',
    secret: sealTotpSecret(env.secrets, { userId, factorId: pending.factorId }, pending.secret),
    lastUsedStep: step,
    label: normalisedLabel(input.label),
    createdAt: new Date(nowMs),
  })
  await announce(env, 'factorEnrolled', { userId, factor: shown(factor) })
  const hasCodes = existing.some((candidate) => candidate.type === 'recovery-codes')
  const recoveryCodes = hasCodes ? null : await createRecoveryCodes(env, userId, nowMs)
  return { factor: shown(factor), recoveryCodes }
}

async function createRecoveryCodes(env: FactorManagementEnv, userId: string, nowMs: number): Promise<string[]> {
  const codes = newRecoveryCodes()
  const factor = await env.adapter.createFactor({
    id: randomUUID(),
    userId,
    type: 'recovery-codes',
    secret: null,
    lastUsedStep: null,
    label: null,
    createdAt: new Date(nowMs),
    recoveryCodeHashes: codes.map((code) => hashRecoveryCode(userId, code) ?? ''),
  })
  await announce(env, 'factorEnrolled', { userId, factor: shown(factor) })
  return codes
}

/**
 * A new set of recovery codes for `userId`, to show once; every older set is deleted (its codes stop working). The
 * new set is stored before the old ones go, so the user is never left without codes. Refused for a user with no
 * TOTP factor: codes alone would be a second factor of nothing.
 */
export async function regenerateRecoveryCodes(
  env: FactorManagementEnv,
  userId: string,
  nowMs: number,
): Promise<string[] | FactorRefusal> {
  const existing = await env.adapter.listFactorsByUserId(userId)
  if (!existing.some((factor) => factor.type === 'totp'))
    return { refused: 'factor-unknown', reason: 'recovery codes need an enrolled authenticator' }
  const codes = await createRecoveryCodes(env, userId, nowMs)
  for (const old of existing.filter((factor) => factor.type === 'recovery-codes')) await remove(env, userId, old)
  return codes
}

/**
 * Removes a factor of `userId`. Removing the last TOTP factor turns the second factor off, so it also takes the
 * recovery codes with it and needs a recent authentication (`recent`); any other factor can go at once.
 */
export async function removeFactorOf(
  env: FactorManagementEnv,
  userId: string,
  factorId: unknown,
  recent: boolean,
): Promise<ShownFactor[] | FactorRefusal> {
  const existing = await env.adapter.listFactorsByUserId(userId)
  const target = typeof factorId === 'string' ? existing.find((factor) => factor.id === factorId) : undefined
  // Another user's factor id is not found either: the same refusal, nothing told.
  if (!target) return { refused: 'factor-unknown', reason: 'the signed-in user has no factor with that id' }
  const totpLeft = existing.filter((factor) => factor.type === 'totp' && factor.id !== target.id)
  const last = totpLeft.length === 0
  if (last && !recent) return { refused: 'factor-reauth', reason: 'removing the last factor needs a recent sign-in' }
  const going = last ? existing : [target]
  for (const factor of going) await remove(env, userId, factor)
  return going.map(shown)
}

async function remove(env: FactorManagementEnv, userId: string, factor: AdapterFactor): Promise<void> {
  const removed = await env.adapter.deleteFactor({ userId, factorId: factor.id })
  // Gone already (a concurrent removal): nothing was removed by this call, so nothing is announced.
  if (removed) await announce(env, 'factorRemoved', { userId, factor: shown(removed) })
}

async function announce(
  env: FactorManagementEnv,
  name: 'factorEnrolled' | 'factorRemoved',
  message: { userId: string; factor: ShownFactor },
): Promise<void> {
  env.audit?.({
    userId: message.userId,
    method: message.factor.type,
    outcome: name === 'factorEnrolled' ? 'enrolled' : 'removed',
  })
  const listener = env.events[name]
  if (!listener) return
  try {
    await listener(message)
  } catch (err) {
    env.logger.error(err instanceof Error ? err : new AuthError(String(err)))
  }
}

/** Whether a result is a refusal. */
export function isFactorRefusal(value: unknown): value is FactorRefusal {
  return typeof value === 'object' && value !== null && 'refused' in value
}
