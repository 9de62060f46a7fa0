/**
 * `authchart/limits`: the counters behind the e-mail providers' `rateLimit` and the credentials providers'
 * `bruteForce` options, in memory or on Redis (docs/security.md, docs/email.md). A module of its own, not part of a
 * provider module: it uses node:crypto, and provider modules are also bundled into framework clients.
 */
export { defaultCredentialsFailureLimits } from './providers-internal/credentials-limits.js'
export {
  defaultEmailRequestLimits,
  MemoryRequestCounter,
  RedisRequestCounter,
} from './providers-internal/email-request-limits.js'
export type {
  EmailRequestLimits,
  RedisCounterClient,
  RequestCounter,
} from './providers-internal/email-request-limits.js'
export type { CredentialsFailureLimits, FailureCounter } from './types/providers.js'
