/** The logger's contract: the warning codes and the three levels an app may replace (`config.logger`). */
import type { RefusalCode, RefusalDetail } from './refusals.js'

/** Warning codes passed to `logger.warn`. */
export type WarningCode =
  | 'debug-enabled'
  | 'csrf-disabled'
  | 'experimental-webauthn'
  | 'env-url-basepath-redundant'
  | 'env-url-basepath-mismatch'
  | 'secret-too-short'
  | 'jwt-cookie-oversized'
  | 'flow-guard-not-boolean'
  | 'redirect-proxy-without-allowlist'
  | 'email-without-origin'
  | 'credentials-signin'
  | 'express-mount-basepath-mismatch'
  | 'credentials-lockout'
  | 'cookie-option-unused'
  | 'unknown-action'
  | 'credentials-user-unknown'
  | 'sveltekit-trusts-any-host'
  | 'client-input'
  | 'audit-sink-failed'
  | RefusalCode

export interface LoggerInstance {
  /** `detail` accompanies refusals (`refused:<check>`): flow id, provider and a short reason, never a secret. */
  warn: (code: WarningCode, detail?: RefusalDetail) => void
  error: (error: Error) => void
  debug: (message: string, metadata?: unknown) => void
}
