/** The verification token as Auth.js stores it, so links sent before a migration keep working. */
import { hash } from 'node:crypto'
import { randomHex } from '../../security/random.js'
import type { EmailConfig } from '../../types/providers.js'

/** Seconds a link stays good: the provider's `maxAge`, 24 hours by default (as in Auth.js). */
export function verificationTokenMaxAge(provider: EmailConfig): number {
  return provider.maxAge ?? 24 * 60 * 60
}

/** 32 random bytes in hex: the token the link carries. */
export function newVerificationToken(): string {
  return randomHex(32)
}

/** What the adapter stores: the SHA-256 hex of the token followed by the secret (a stolen table holds no usable link). */
export function hashVerificationToken(token: string, secret: string): string {
  return hash('sha256', `${token}${secret}`, 'hex')
}
