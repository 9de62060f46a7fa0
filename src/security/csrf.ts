/**
 * CSRF protection by double-submit cookie. The cookie holds `token|hash` where hash = SHA-256(token + secret) in hex —
 * the format Auth.js uses, so a CSRF cookie issued before a migration stays usable. A POST is accepted only when its
 * `csrfToken` field equals the token of a cookie whose hash proves we issued it.
 */
import { hash } from 'node:crypto'
import { fixedFormatTokensEqual } from './constant-time.js'
import { randomHex } from './random.js'

function hashToken(token: string, secret: string): string {
  return hash('sha256', `${token}${secret}`, 'hex')
}

/** The token in a CSRF cookie, or null when the cookie is absent, malformed or was not issued with any of the secrets. */
export function readCsrfCookie(cookieValue: string | undefined, secrets: readonly string[]): string | null {
  if (!cookieValue || cookieValue.length > 256) return null
  const bar = cookieValue.indexOf('|')
  if (bar <= 0) return null
  const token = cookieValue.slice(0, bar)
  const hash = cookieValue.slice(bar + 1)
  for (const secret of secrets) if (fixedFormatTokensEqual(hash, hashToken(token, secret))) return token
  return null
}

/** A fresh token and the cookie value that vouches for it. */
export function createCsrfToken(secret: string, token = randomHex(32)): { token: string; cookieValue: string } {
  return { token, cookieValue: `${token}|${hashToken(token, secret)}` }
}

/** Whether a submitted token matches the cookie's token (OWASP double-submit cookie). */
export function isCsrfTokenValid(cookieToken: string | null, submitted: unknown): boolean {
  if (!cookieToken || typeof submitted !== 'string' || submitted.length === 0) return false
  return fixedFormatTokensEqual(cookieToken, submitted)
}
