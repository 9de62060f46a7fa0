/**
 * The limits on failed credentials sign-ins: their defaults, how the account a submission is for is named, and the
 * keys failures and lockouts are stored under. The machine decides (machines/credentials.ts); the counters
 * (memory or Redis) are the e-mail limits' own.
 */
import { hash } from 'node:crypto'
import type { CredentialInput } from '../types/providers.js'

/**
 * Five failures allow for typos and a forgotten caps lock; a 15-minute lockout then holds online guessing to about
 * 20 tries an hour per account. Fifty failures per client leave room for many people behind one office or carrier
 * address, yet stop one client from spraying a common password over many accounts.
 */
export const defaultCredentialsFailureLimits = {
  maxFailures: 5,
  maxClientFailures: 50,
  windowSeconds: 900,
  lockoutSeconds: 900,
} as const

/** What is stored: failures counted in the window, or a lockout running; per account, per client or per known device. */
export type FailureKeyKind =
  'account-failures' | 'client-failures' | 'device-failures' | 'account-lockout' | 'client-lockout' | 'device-lockout'

/** The part of a stored key that names the account or client: a digest, never the username or IP in the clear. */
export function failureSubject(providerId: string, value: string): string {
  return hash('sha256', `${providerId}\u0000${value}`, 'base64url').slice(0, 32)
}

/** Stored keys never carry a username or IP in the clear; each provider counts its own. */
export function failureKey(kind: FailureKeyKind, providerId: string, value: string): string {
  return failureKeyOf(kind, failureSubject(providerId, value))
}

/**
 * The stored key of a subject already digested by `failureSubject`. The subject is a Redis Cluster hash tag, so one
 * subject's count and lockout share a slot and are reserved in one script.
 */
export function failureKeyOf(kind: FailureKeyKind, subject: string): string {
  return `credentials:${kind}:{${subject}}`
}

/** Longest account identifier kept: longer submissions are cut, so a huge field costs nothing more. */
const maxAccountLength = 320

// Code points that render as nothing (zero-width space and joiners, soft hyphen, variation selectors, bidi marks ...):
// a lookup that ignores them, as most do, must not see a fresh account in "a\u200bda".
const defaultIgnorable = /\p{Default_Ignorable_Code_Point}/gu

/**
 * One account, however it was typed: NFKC, without default-ignorable code points, trimmed, lower-cased. Undefined for
 * an empty or non-text value.
 */
export function normalizeAccount(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const normalized = value
    .slice(0, maxAccountLength * 2)
    .normalize('NFKC')
    .replace(defaultIgnorable, '')
    .trim()
    .toLowerCase()
  return normalized === '' ? undefined : normalized.slice(0, maxAccountLength)
}

/**
 * Whether the field that names the account holds something other than text (a JSON body's `["ada"]` or `{}`): such
 * a submission is refused before `authorize`, since it would escape the per-account limit. An absent field is not
 * malformed (the per-client limit still applies).
 */
export function isMalformedAccount(value: unknown): boolean {
  return value !== undefined && value !== null && typeof value !== 'string'
}

/** The field that names the account: `username`, else `email`, else the first declared field that is not a password. */
export function accountFieldOf(declared: Record<string, CredentialInput> | undefined): string | undefined {
  const fields = Object.entries(declared ?? {})
  if (fields.some(([name]) => name === 'username')) return 'username'
  if (fields.some(([name]) => name === 'email')) return 'email'
  const first = fields.find(([, input]) => input?.type !== 'password')
  if (first) return first[0]
  // A provider that declares no fields (a custom sign-in form) most often posts one of these.
  return 'username'
}
