/** The failure limits one credentials sign-in runs under: the provider's settings over the defaults. */
import { InvalidProvider } from '../errors.js'
import type { FailureLimitsInput } from '../effects/credentials/failure-limits.js'
import {
  accountFieldOf,
  defaultCredentialsFailureLimits,
  normalizeAccount,
} from '../providers-internal/credentials-limits.js'
import { MemoryRequestCounter } from '../providers-internal/email-request-limits.js'
import type { CredentialsConfig, CredentialsFailureLimits, FailureCounter } from '../types/providers.js'
import { clientKeyOf } from './client-key.js'
import type { RequestContext } from './context.js'

/** The limits the machine compares counts with, and the store input of the effects. */
export interface ResolvedFailureLimits {
  maxFailures: number
  maxClientFailures: number
  /** The wait told to an attempt refused because the window's attempts are spent. */
  lockoutSeconds: number
  input: FailureLimitsInput
}

/** One memory store per provider config object, when the app configured none. */
const memoryStores = new WeakMap<CredentialsConfig, FailureCounter>()

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback
}

function isFailureCounter(value: unknown): value is FailureCounter {
  const store = value as Partial<FailureCounter> | null
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.hit === 'function' &&
    typeof store.peek === 'function' &&
    typeof store.clear === 'function'
  )
}

function settingsOf(provider: CredentialsConfig): CredentialsFailureLimits {
  return typeof provider.bruteForce === 'object' && provider.bruteForce !== null ? provider.bruteForce : {}
}

/** A configured store that cannot be used, named at start-up (config-assertion.ts) and by each sign-in. */
export function failureStoreProblem(provider: CredentialsConfig): InvalidProvider | undefined {
  if (provider.bruteForce === false) return undefined
  const { store } = settingsOf(provider)
  if (store === undefined || isFailureCounter(store)) return undefined
  return new InvalidProvider(
    `bruteForce.store of provider "${provider.id}" needs hit(), peek() and clear(): use MemoryRequestCounter or RedisRequestCounter from authchart/limits`,
  )
}

function storeFor(provider: CredentialsConfig, settings: CredentialsFailureLimits): FailureCounter {
  const problem = failureStoreProblem(provider)
  if (problem) throw problem
  if (settings.store !== undefined) return settings.store
  let store = memoryStores.get(provider)
  if (!store) memoryStores.set(provider, (store = new MemoryRequestCounter()))
  return store
}

function accountOf(ctx: RequestContext, provider: CredentialsConfig, settings: CredentialsFailureLimits) {
  const { csrfToken: _csrf, callbackUrl: _callback, ...submitted } = ctx.req.body ?? {}
  if (typeof settings.accountKey === 'function') return normalizeAccount(settings.accountKey(submitted))
  const field = accountFieldOf(provider.credentials)
  return field ? normalizeAccount(submitted[field]) : undefined
}

/** What this request is limited by; off only when the provider says `bruteForce: false`. */
export function failureLimitsFor(ctx: RequestContext, provider: CredentialsConfig): ResolvedFailureLimits {
  const defaults = defaultCredentialsFailureLimits
  if (provider.bruteForce === false) {
    return {
      maxFailures: Number.MAX_SAFE_INTEGER,
      maxClientFailures: Number.MAX_SAFE_INTEGER,
      lockoutSeconds: 0,
      input: { enabled: false },
    }
  }
  const settings = settingsOf(provider)
  const lockoutSeconds = positive(settings.lockoutSeconds, defaults.lockoutSeconds)
  return {
    lockoutSeconds,
    maxFailures: Math.ceil(positive(settings.maxFailures, defaults.maxFailures)),
    maxClientFailures: Math.ceil(positive(settings.maxClientFailures, defaults.maxClientFailures)),
    input: {
      enabled: true,
      store: storeFor(provider, settings),
      windowSeconds: positive(settings.windowSeconds, defaults.windowSeconds),
      lockoutSeconds,
      account: accountOf(ctx, provider, settings),
      client: clientKeyOf(ctx, settings.clientKey),
    },
  }
}
