/**
 * Reading and writing the JWT session token: the synchronous node:crypto path by default, the app's own
 * `jwt.encode` / `jwt.decode` when it configured them. Decoding never throws: anything unreadable is "no session".
 */
import type { ResolvedConfig } from '../core/config.js'
import { decodeSync, encodeSync } from '../jwt.js'
import type { JWT } from '../jwt-types.js'
import { JWTSessionError } from '../errors.js'

/** The token in a session cookie value, or null when it is unreadable, expired or sealed with an unknown secret. */
export async function readSessionToken(config: ResolvedConfig, salt: string, value: string, now: number): Promise<JWT | null> {
  try {
    if (config.jwt.decode) return (await config.jwt.decode({ token: value, secret: config.secrets, salt })) ?? null
    return decodeSync({ token: value, secret: config.secrets, salt, now })
  } catch (err) {
    config.logger.error(new JWTSessionError('session token could not be decoded', { err: err instanceof Error ? err : undefined }))
    return null
  }
}

/** Seals a token for the session cookie; returns the value and its expiry (epoch seconds). */
export async function writeSessionToken(config: ResolvedConfig, salt: string, token: JWT, now: number): Promise<{ value: string; expires: number }> {
  const maxAge = config.jwt.maxAge
  const value = config.jwt.encode
    ? await config.jwt.encode({ token, secret: config.secrets, salt, maxAge })
    : encodeSync({ token, secret: config.secrets, salt, maxAge, now })
  return { value, expires: now + maxAge }
}
