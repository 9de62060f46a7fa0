/**
 * Reading and writing the JWT session token: the synchronous node:crypto path by default, the app's own
 * `jwt.encode` / `jwt.decode` when it configured them. Decoding never throws: anything unreadable is "no session".
 */
import { openSessionToken, sealSessionToken } from './session-jwe.js'
import type { JWT } from '../types/jwt.js'
import { JWTSessionError } from '../errors.js'
import { logClientInput, logRefusal } from '../logger.js'
import type { JWTOptions } from '../types/jwt.js'
import type { LoggerInstance } from '../types/logger.js'

/**
 * What reading and writing a session token needs from the resolved config: the secrets, the logger, and the JWT
 * options (the app's own codec when it set one). The core's resolved config satisfies it as it is.
 */
export interface SessionTokenConfig {
  secrets: string[]
  logger: LoggerInstance
  jwt: { maxAge: number; encode?: JWTOptions['encode']; decode?: JWTOptions['decode'] }
}

/** Seconds of clock skew tolerated between `iat` and `exp` (as for `exp` itself). */
const lifetimeToleranceSeconds = 15

/**
 * Why a decoded session token must not be trusted as a session, or undefined when it may be: every session token
 * Authchart issues carries `exp`, and never one further than `maxAge` after its `iat`. A token without `exp` never
 * expires, and one whose lifetime exceeds `maxAge` was not issued under this configuration.
 */
export function sessionLifetimeProblem(token: JWT, maxAge: number, now: number): string | undefined {
  const { exp, iat } = token
  if (typeof exp !== 'number') return 'session token has no exp'
  const issuedAt = typeof iat === 'number' ? iat : now
  if (exp > issuedAt + maxAge + lifetimeToleranceSeconds) return 'session token exp lies beyond iat + maxAge'
  return undefined
}

/**
 * The token in a session cookie value, or null when it is unreadable, expired or sealed with an unknown secret.
 * Synchronous (no promise to await) unless the app configured its own `jwt.decode`.
 */
export function readSessionToken(
  config: SessionTokenConfig,
  salt: string,
  value: string,
  now: number,
): JWT | null | Promise<JWT | null> {
  // The app's own decoder defines its own token format; only tokens of ours are held to our lifetime rule.
  if (config.jwt.decode) return readWithAppDecoder(config.jwt.decode, config, salt, value)
  try {
    const token = openSessionToken<JWT>(config.secrets, salt, value, now)
    // A cookie that no secret opens (another secret, another salt, tampered, expired) is worth one line in the log.
    if (!token) {
      logClientInput(
        config.logger,
        () =>
          new JWTSessionError(
            'the session cookie could not be read: no secret opens it, or it is tampered with or expired',
          ),
      )
      return null
    }
    const problem = sessionLifetimeProblem(token, config.jwt.maxAge, now)
    if (problem) {
      logRefusal(config.logger, 'session-token', { reason: problem })
      return null
    }
    return token
  } catch (err) {
    return decodeFailed(config, err)
  }
}

async function readWithAppDecoder(
  decode: NonNullable<JWTOptions['decode']>,
  config: SessionTokenConfig,
  salt: string,
  value: string,
): Promise<JWT | null> {
  try {
    return (await decode({ token: value, secret: config.secrets, salt })) ?? null
  } catch (err) {
    return decodeFailed(config, err)
  }
}

function decodeFailed(config: SessionTokenConfig, err: unknown): null {
  logClientInput(
    config.logger,
    () => new JWTSessionError('session token could not be decoded', { err: err instanceof Error ? err : undefined }),
  )
  return null
}

/**
 * Seals a token for the session cookie; returns the value and its expiry (epoch seconds). Synchronous unless the app
 * configured its own `jwt.encode`.
 * @param lifetime seconds until it expires: `jwt.maxAge` by default; less to keep an existing session's expiry
 * @throws what the encoder throws
 */
export function writeSessionToken(
  config: SessionTokenConfig,
  salt: string,
  token: JWT,
  now: number,
  lifetime: number = config.jwt.maxAge,
): { value: string; expires: number } | Promise<{ value: string; expires: number }> {
  if (config.jwt.encode) return writeWithAppEncoder(config.jwt.encode, config, salt, token, now, lifetime)
  return { value: sealSessionToken(config.secrets, salt, token, lifetime, now), expires: now + lifetime }
}

async function writeWithAppEncoder(
  encode: NonNullable<JWTOptions['encode']>,
  config: SessionTokenConfig,
  salt: string,
  token: JWT,
  now: number,
  maxAge: number,
): Promise<{ value: string; expires: number }> {
  const value = await encode({ token, secret: config.secrets, salt, maxAge })
  return { value, expires: now + maxAge }
}
