/**
 * Single-flight refresh: however many requests of one session ask at the same moment, a refresh token is exchanged
 * once and every one of them gets that exchange's result.
 *
 * - In this process, the requests that carry one refresh token share one promise, keyed by a keyed hash of the
 *   provider id and the refresh token (the same refresh token is the same grant, whichever session holds it).
 * - Across instances (when the config has a `TokenRefreshLock`, which the Redis flow store provides), the one
 *   request per instance that got this far takes a lock in Redis; whoever holds it refreshes and stores the result,
 *   sealed, beside the lock; the others wait for that result.
 * - Results are kept for a while under the old refresh token (`retentionMs`), here and in Redis, so a request that
 *   still carries the old token (it left the browser before the new cookie arrived, or its response never reached
 *   the browser) is handed the new tokens instead of spending a rotated refresh token a second time, which an OP
 *   with reuse detection answers by revoking the whole grant. Whether such a result is still fresh enough is the
 *   token refresh machine's decision (machines/token-refresh.ts): it hears when the result was made and when its
 *   access token expires, and sends the request on to the newer refresh token when it has run short.
 * - The durable write of the new tokens (the account row, for database sessions) happens inside, before the result
 *   is published and the lock released, so no later refresh can be overtaken by an older write.
 */
import { createHmac } from 'node:crypto'
import { InvalidConfig } from '../../errors.js'
import { derivePurposeKey } from '../../session/hkdf-keys.js'
import { openCompactJwe, sealCompactJwe } from '../../session/jwe.js'
import type { TokenRefreshLock } from '../../types/token-refresh.js'
import { providerTokensOf, type ProviderTokens } from './provider-tokens.js'
import type { RefreshOutcome } from './refresh-grant.js'

/** How long a result is handed to requests that still carry the refresh token it replaced. */
export const retentionMs = 120_000
/** How long an outage is remembered: long enough for the requests queued behind it, short enough to retry soon. */
const unavailableRetentionMs = 2_000
/** Results kept in this process at most; the oldest goes first. */
const maxRetained = 10_000

/** One request's refresh, as the coordinator needs it. */
export interface RefreshRequest {
  providerId: string
  refreshToken: string
  /** Exchanges a refresh token at the provider. */
  exchange(refreshToken: string): Promise<RefreshOutcome>
  /**
   * Writes new tokens where the session keeps them for everyone (the account row), before anyone else sees them;
   * a JWT session has no such place (each response carries its own cookie) and passes nothing.
   */
  persist?(tokens: ProviderTokens): Promise<void>
  /** The tokens stored now (the account row), to see a refresh made where no kept result tells of it. */
  reread?(): Promise<ProviderTokens | undefined>
  /** Where failures of the shared lock are reported. */
  log(error: Error): void
}

interface Kept {
  outcome: RefreshOutcome
  until: number
}

/** What the coordinator of one configuration needs: the secrets (keys for hashing and sealing) and the lock. */
export interface CoordinatorSettings {
  secrets: readonly string[]
  lock?: TokenRefreshLock
  /** Milliseconds a provider request may take; the lock is held for a little more than two of them. */
  providerTimeout: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function retentionFor(outcome: RefreshOutcome): number {
  return outcome.kind === 'unavailable' ? unavailableRetentionMs : retentionMs
}

/** Refreshes of one configuration: the promises in flight and the results kept, in this process. */
export class RefreshCoordinator {
  readonly #inFlight = new Map<string, Promise<RefreshOutcome>>()
  readonly #kept = new Map<string, Kept>()
  /** Whose exchange each outcome was (outcomes read back from the lock's result slot were nobody's here). */
  readonly #ledBy = new WeakMap<RefreshOutcome, RefreshRequest>()
  readonly #hashKey: Uint8Array
  readonly #sealKeys: Uint8Array[]
  readonly #lock?: TokenRefreshLock
  readonly #lockTtlMs: number

  constructor(settings: CoordinatorSettings) {
    const [first = ''] = settings.secrets
    this.#hashKey = derivePurposeKey(first, 'token refresh key', 32)
    this.#sealKeys = settings.secrets.map((secret) => derivePurposeKey(secret, 'token refresh result', 32))
    this.#lock = settings.lock
    this.#lockTtlMs = 2 * settings.providerTimeout + 2_000
  }

  /**
   * Exchanges `request.refreshToken` once for every concurrent caller, or hands out the result kept for it (`at`
   * says when it was made). `led` tells the one caller whose exchange it was from all those handed its result.
   */
  async refresh(request: RefreshRequest): Promise<{ outcome: RefreshOutcome; led: boolean }> {
    const outcome = await this.#once(request, request.refreshToken)
    return { outcome, led: this.#ledBy.get(outcome) === request }
  }

  /** The key of a grant: a keyed hash, so neither memory dumps nor Redis keys reveal anything of the token. */
  keyOf(providerId: string, refreshToken: string): string {
    return createHmac('sha256', this.#hashKey).update(`${providerId}\0${refreshToken}`).digest('base64url')
  }

  #once(request: RefreshRequest, refreshToken: string): Promise<RefreshOutcome> {
    const key = this.keyOf(request.providerId, refreshToken)
    const kept = this.#kept.get(key)
    if (kept && kept.until > Date.now()) return Promise.resolve(kept.outcome)
    const joined = this.#inFlight.get(key)
    if (joined) return joined
    const pending = (async () => {
      try {
        const outcome = await this.#lead(request, refreshToken, key)
        this.#keep(key, outcome)
        return outcome
      } finally {
        this.#inFlight.delete(key)
      }
    })()
    this.#inFlight.set(key, pending)
    return pending
  }

  #keep(key: string, outcome: RefreshOutcome): void {
    if (this.#kept.size >= maxRetained) {
      const now = Date.now()
      for (const [old, entry] of this.#kept) if (entry.until <= now) this.#kept.delete(old)
      if (this.#kept.size >= maxRetained) this.#kept.delete(this.#kept.keys().next().value as string)
    }
    this.#kept.set(key, { outcome, until: outcome.at + retentionFor(outcome) })
  }

  /** The one caller in this process that got here: alone, or through the shared lock. */
  async #lead(request: RefreshRequest, refreshToken: string, key: string): Promise<RefreshOutcome> {
    if (!this.#lock) return this.#exchange(request, refreshToken)
    try {
      return await this.#leadShared(this.#lock, request, refreshToken, key)
    } catch (err) {
      request.log(err instanceof Error ? err : new Error(String(err)))
      return { kind: 'unavailable', reason: 'refresh lock unavailable', at: Date.now() }
    }
  }

  async #leadShared(
    lock: TokenRefreshLock,
    request: RefreshRequest,
    refreshToken: string,
    key: string,
  ): Promise<RefreshOutcome> {
    const deadline = Date.now() + this.#lockTtlMs + 1_000
    for (let delay = 20; ; delay = Math.min(delay * 2, 200)) {
      const stored = this.#open(await lock.readResult(key))
      if (stored) return stored
      const owner = await lock.acquire(key, this.#lockTtlMs)
      if (owner) {
        try {
          // Whoever held the lock before may have finished between the read above and the acquire.
          const finished = this.#open(await lock.readResult(key))
          if (finished) return finished
          const outcome = await this.#exchange(request, refreshToken)
          await lock.writeResult(key, this.#seal(outcome), retentionFor(outcome)).catch((err: unknown) => {
            // The tokens are this request's all the same; other instances will find the lock gone and no result.
            request.log(err instanceof Error ? err : new Error(String(err)))
          })
          return outcome
        } finally {
          await lock.release(key, owner).catch(() => {
            /* it expires on its own */
          })
        }
      }
      if (Date.now() >= deadline)
        return { kind: 'unavailable', reason: 'timed out waiting for the refresh of another instance', at: Date.now() }
      await sleep(delay)
    }
  }

  /** The exchange and the durable write, by the one request that leads. */
  async #exchange(request: RefreshRequest, refreshToken: string): Promise<RefreshOutcome> {
    if (request.reread) {
      let stored: ProviderTokens | undefined
      try {
        stored = await request.reread()
      } catch {
        // Logged where it failed (the adapter wrapper).
        return { kind: 'unavailable', reason: 'the stored tokens could not be read', at: Date.now() }
      }
      // The session's store moved on (a refresh whose kept result has gone): what it holds now is a result made
      // before this call (`at` 0), handed out, or, when it has run short too, its newer refresh token exchanged next.
      if (stored?.access_token && stored.refresh_token !== refreshToken)
        return { kind: 'refreshed', tokens: stored, at: 0 }
    }
    const outcome = await request.exchange(refreshToken)
    this.#ledBy.set(outcome, request)
    if (outcome.kind === 'refreshed' && request.persist) {
      try {
        await request.persist(outcome.tokens)
      } catch (err) {
        // The provider has rotated the refresh token already: the kept result is now where the new one lives.
        request.log(err instanceof Error ? err : new Error(String(err)))
      }
    }
    return outcome
  }

  #seal(outcome: RefreshOutcome): string {
    const [current] = this.#sealKeys
    if (!current) throw new InvalidConfig('token refresh results need a secret to be sealed with')
    return sealCompactJwe(JSON.stringify(outcome), current, 'A256GCM')
  }

  #open(sealed: string | null): RefreshOutcome | null {
    if (!sealed) return null
    const opened = openCompactJwe(sealed, this.#sealKeys, ['A256GCM'])
    if (!opened) return null
    try {
      const value = JSON.parse(Buffer.from(opened.plaintext).toString('utf8')) as Record<string, unknown>
      const at = typeof value.at === 'number' ? value.at : 0
      if (value.kind === 'refreshed' && typeof value.tokens === 'object' && value.tokens !== null)
        return { kind: 'refreshed', tokens: providerTokensOf(value.tokens as Record<string, unknown>), at }
      if ((value.kind === 'refused' || value.kind === 'unavailable') && typeof value.reason === 'string')
        return { kind: value.kind, reason: value.reason, at }
    } catch {
      /* not ours */
    }
    return null
  }
}

const coordinators = new WeakMap<object, RefreshCoordinator>()

/** The coordinator of a configuration (one per resolved config object, made on first use). */
export function coordinatorFor(config: object, settings: () => CoordinatorSettings): RefreshCoordinator {
  let coordinator = coordinators.get(config)
  if (!coordinator) coordinators.set(config, (coordinator = new RefreshCoordinator(settings())))
  return coordinator
}
