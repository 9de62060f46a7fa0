/** The failure limits one credentials sign-in runs under: the provider's settings over the defaults. */
import { InvalidProvider } from '../errors.js'
import type { FailureLimitsInput } from '../effects/credentials/failure-limits.js'
import {
  accountFieldOf,
  defaultCredentialsFailureLimits,
  isMalformedAccount,
  normalizeAccount,
} from '../providers-internal/credentials-limits.js'
import { MemoryRequestCounter } from '../providers-internal/email-request-limits.js'
import type { CredentialsConfig, CredentialsFailureLimits, FailureCounter } from '../types/providers.js'
import { clientKeyOf } from './client-key.js'
import { knownDeviceOf } from './device-cookie.js'
import type { RequestContext } from './context.js'

/** The limits the machine compares counts with, and the store input of the effects. */
export interface ResolvedFailureLimits {
  maxFailures: number
  maxClientFailures: number
  /** The wait told to an attempt refused because the window's attempts are spent. */
  lockoutSeconds: number
  /** The field naming the account held something other than text: refused before authorize (isAccountReadable). */
  accountMalformed: boolean
  /** The request's device cookie verifies for the account it names (src/core/device-cookie.ts). */
  knownDevice: boolean
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

/** The account the submission names, and whether its field held something other than text. */
function accountOf(
  ctx: RequestContext,
  provider: CredentialsConfig,
  settings: CredentialsFailureLimits,
): { account: string | undefined; malformed: boolean } {
  const { csrfToken: _csrf, callbackUrl: _callback, ...submitted } = ctx.req.body ?? {}
  if (typeof settings.accountKey === 'function') {
    const chosen: unknown = settings.accountKey(submitted)
    return { account: normalizeAccount(chosen), malformed: isMalformedAccount(chosen) }
  }
  const field = accountFieldOf(provider.credentials)
  const value: unknown = field ? submitted[field] : undefined
  return { account: normalizeAccount(value), malformed: isMalformedAccount(value) }
}

/** What this request is limited by; off only when the provider says `bruteForce: false`. */
export function failureLimitsFor(ctx: RequestContext, provider: CredentialsConfig): ResolvedFailureLimits {
  const defaults = defaultCredentialsFailureLimits
  if (provider.bruteForce === false) {
    return {
      maxFailures: Number.MAX_SAFE_INTEGER,
      maxClientFailures: Number.MAX_SAFE_INTEGER,
      lockoutSeconds: 0,
      accountMalformed: false,
      knownDevice: false,
      input: { enabled: false },
    }
  }
  const settings = settingsOf(provider)
  const lockoutSeconds = positive(settings.lockoutSeconds, defaults.lockoutSeconds)
  const { account, malformed } = accountOf(ctx, provider, settings)
  const device = knownDeviceOf(ctx, provider.id, account)
  return {
    lockoutSeconds,
    accountMalformed: malformed,
    knownDevice: device !== undefined,
    maxFailures: Math.ceil(positive(settings.maxFailures, defaults.maxFailures)),
    maxClientFailures: Math.ceil(positive(settings.maxClientFailures, defaults.maxClientFailures)),
    input: {
      enabled: true,
      store: storeFor(provider, settings),
      windowSeconds: positive(settings.windowSeconds, defaults.windowSeconds),
      lockoutSeconds,
      account,
      device,
      client: clientKeyOf(ctx, settings.clientKey),
    },
  }
}
