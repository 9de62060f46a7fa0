/** The `secondFactor` option resolved once per config (docs/second-factors.md, "The challenge"). */
import type { ResolvedSecondFactor } from '../effects/shared/second-factor.js'
import { MemoryRequestCounter } from '../providers-internal/email-request-limits.js'
import type { AuthConfig } from '../types/index.js'

const defaults = { challengeSeconds: 600, maxAttemptsPerAccount: 20, windowSeconds: 900 } as const

const positive = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : fallback

/** The option with its defaults: a bare policy is `{ policy }`; the counter is this process's memory unless given. */
export function resolveSecondFactor(option: AuthConfig['secondFactor']): ResolvedSecondFactor {
  const options = typeof option === 'object' && option !== null ? option : { policy: option }
  return {
    policy: options.policy ?? 'optional',
    passkeyCountsAsTwo: options.passkeyCountsAsTwo !== false,
    challengeSeconds: positive(options.challengeSeconds, defaults.challengeSeconds),
    maxAttemptsPerAccount: positive(options.maxAttemptsPerAccount, defaults.maxAttemptsPerAccount),
    windowSeconds: positive(options.windowSeconds, defaults.windowSeconds),
    store: options.store ?? new MemoryRequestCounter(),
  }
}
