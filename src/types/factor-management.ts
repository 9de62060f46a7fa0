/** What the app is told of a user's second factors: the factor management events and the JSON endpoints. */
import type { AdapterFactorType } from './adapters.js'
import type { FailureCounter } from './providers.js'

/** A second factor as the user and the app see it: never its secret, never a code. */
export interface FactorSummary {
  id: string
  type: AdapterFactorType
  /** The name the user gave it ("phone"); `null` when none. */
  label: string | null
  /** Epoch milliseconds. */
  createdAt: number
}

/** The `factorEnrolled` and `factorRemoved` events. */
export interface FactorMessage {
  userId: string
  factor: FactorSummary
}

/** The factor that passed a sign-in's second-factor challenge. */
export type SecondFactorKind = 'otp' | 'recovery' | 'webauthn'

/** The `secondFactor` event: one answer to a sign-in's challenge, right or wrong. Never carries a code. */
export interface SecondFactorMessage {
  userId: string
  success: boolean
  /** The factor the answer was for. */
  factor: SecondFactorKind
}

/**
 * Who must pass a second factor at sign-in (docs/second-factors.md, "The challenge"). A user with an enrolled factor
 * is always challenged; the policy says who must enrol one first: nobody (`'optional'`, the default), everybody
 * (`'required'`), or the users the app's function names.
 */
export type SecondFactorPolicy<U = unknown, A = unknown> =
  'optional' | 'required' | ((user: U, account: A | null) => boolean | Promise<boolean>)

/** The `secondFactor` option. */
export interface SecondFactorOptions<U = unknown, A = unknown> {
  policy?: SecondFactorPolicy<U, A>
  /** A passkey sign-in that verified the user (PIN, biometrics) counts as two factors. Default true. */
  passkeyCountsAsTwo?: boolean
  /** Seconds a challenge waits for its answer. Default 600. */
  challengeSeconds?: number
  /** Wrong answers one account may give over every challenge within `windowSeconds`. Default 20. */
  maxAttemptsPerAccount?: number
  /** Default 900 (15 minutes). */
  windowSeconds?: number
  /**
   * Where attempts are counted (the credentials limits' counters: `MemoryRequestCounter`, `RedisRequestCounter` from
   * `authchart/limits`). Default: this process's memory; use Redis when several instances serve sign-ins.
   */
  store?: FailureCounter
}
