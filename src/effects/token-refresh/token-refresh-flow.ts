/**
 * Handlers of the token refresh machine's commands (machines/token-refresh.ts). Where the tokens live is the
 * session store's business (`jwt-session-tokens.ts`, `database-session-tokens.ts`); the single refresh is the
 * coordinator's (`single-flight.ts`); these handlers report what happened, and the machine decides what follows.
 */
import type { HandlersFor } from '../../../machines/contract.js'
import type { TokenRefreshCommand, tokenRefreshContract, TokenRefreshEvent } from '../../../machines/token-refresh.js'
import type { OAuthConfigInternal } from '../../types/providers.js'
import type { EffectEnv } from '../shared/effect-env.js'
import type { SessionCookieWrites } from '../shared/session-cookie-writes.js'
import type { ProviderTokens } from './provider-tokens.js'
import { exchangeRefreshToken } from './refresh-grant.js'
import { coordinatorFor } from './single-flight.js'
import { fromScratch } from '../shared/from-scratch.js'

/**
 * What the handlers of one refresh hand each other in the run's scratch: the session's provider tokens, loaded,
 * then renewed, then saved. The machine decides on whether they are there and when they expire, never on the
 * tokens themselves, which are secrets. It is also what the run leaves for `getAccessToken`: in `valid` the loaded
 * tokens, in `refreshed` the saved ones (the access token it hands out), and the session cookie writes.
 */
export interface TokenRefreshScratch extends SessionCookieWrites {
  tokens: ProviderTokens
}

/** The token refresh machine's handlers, as its contract types them. */
export type TokenRefreshHandlers = HandlersFor<
  TokenRefreshCommand,
  TokenRefreshEvent,
  typeof tokenRefreshContract,
  TokenRefreshScratch
>

/** Where a session keeps a provider's tokens, and what can be done to it. */
export interface SessionTokenStore {
  /** The session's tokens for the provider; `no-session` without a valid session, `no-tokens` when it keeps none. */
  load(): Promise<ProviderTokens | 'no-session' | 'no-tokens'>
  /** Writes renewed tokens where every request of the session finds them, inside the single refresh (rows only). */
  persist?(tokens: ProviderTokens): Promise<void>
  /** The tokens stored now, inside the single refresh (rows only). */
  reread?(): Promise<ProviderTokens | undefined>
  /** Gives this request's session the renewed tokens (a JWT session: a re-issued cookie, left in `writes`). */
  save(tokens: ProviderTokens, writes: Partial<SessionCookieWrites>): Promise<void>
  /** Drops the dead tokens, which marks the session. */
  mark(writes: Partial<SessionCookieWrites>): Promise<void>
  /** Ends the session (its cookie cleared through `writes`). */
  end(writes: Partial<SessionCookieWrites>): Promise<void>
}

export interface TokenRefreshInput {
  provider: OAuthConfigInternal
  store: SessionTokenStore
}

/** Builds the handlers for one request; the run's scratch holds the tokens to give the app (`TokenRefreshScratch`). */
export function tokenRefreshEffects(env: EffectEnv, input: TokenRefreshInput) {
  const { config } = env
  const { provider, store } = input
  const coordinator = () =>
    coordinatorFor(config, () => ({
      secrets: config.secrets,
      lock: config.refreshLock,
      providerTimeout: config.providerTimeout,
    }))

  return {
    async loadTokens(_params, scratch) {
      const loaded = await store.load()
      if (loaded === 'no-session') return { type: 'SESSION_NOT_FOUND' }
      if (loaded === 'no-tokens') return { type: 'TOKENS_NOT_FOUND' }
      const tokens = loaded
      scratch.tokens = tokens
      return {
        type: 'TOKENS_FOUND',
        hasAccessToken: tokens.access_token !== undefined,
        hasRefreshToken: tokens.refresh_token !== undefined,
        ...(tokens.expires_at !== undefined ? { expiresAt: tokens.expires_at } : {}),
      }
    },

    async refreshTokens(_params, scratch) {
      // The machine comes here only once TOKENS_FOUND said the tokens include a refresh token (an app that replaces
      // that guard and lets none through gets the provider's refusal of an empty one), or, following a kept result
      // that ran short, once TOKENS_REFRESHED said it brought a newer one: the scratch holds that result.
      const refreshToken = fromScratch(scratch.tokens, 'the loaded tokens').refresh_token ?? ''
      const { outcome, led } = await coordinator().refresh({
        providerId: provider.id,
        refreshToken,
        exchange: (current) =>
          exchangeRefreshToken(provider, current, { timeoutMs: config.providerTimeout, log: config.logger.error }),
        persist: store.persist?.bind(store),
        reread: store.reread?.bind(store),
        log: config.logger.error,
      })
      // The refusal is the provider's answer to one exchange: logged by the request that made it, not by each joiner.
      if (outcome.kind === 'refused') return { type: 'REFRESH_REFUSED', reason: outcome.reason, joined: !led }
      if (outcome.kind === 'unavailable') return { type: 'REFRESH_UNAVAILABLE' }
      const tokens = outcome.tokens
      // When the machine follows a result that has run short, its newer refresh token is the next one exchanged.
      scratch.tokens = tokens
      // Facts only: whether a result made before this request is still fresh enough is the machine's decision.
      return {
        type: 'TOKENS_REFRESHED',
        ...(tokens.expires_at !== undefined ? { expiresAt: tokens.expires_at } : {}),
        hasAccessToken: tokens.access_token !== undefined,
        refreshedAt: Math.floor(outcome.at / 1000),
        hasNewerRefreshToken: tokens.refresh_token !== undefined && tokens.refresh_token !== refreshToken,
      }
    },

    async saveTokens(_params, scratch) {
      const tokens = fromScratch(scratch.tokens, 'the renewed tokens')
      try {
        await store.save(tokens, scratch)
      } catch (err) {
        config.logger.error(err instanceof Error ? err : new Error(String(err)))
        return { type: 'TOKENS_SAVE_FAILED' }
      }
      return { type: 'TOKENS_SAVED' }
    },

    async markSession(_params, scratch) {
      try {
        await store.mark(scratch)
      } catch (err) {
        // The user is told to sign in again all the same; the next call finds the dead token and tries once more.
        config.logger.error(err instanceof Error ? err : new Error(String(err)))
      }
      return { type: 'SESSION_MARKED' }
    },

    async endSession(_params, scratch) {
      try {
        await store.end(scratch)
      } catch (err) {
        config.logger.error(err instanceof Error ? err : new Error(String(err)))
      }
      return { type: 'SESSION_ENDED' }
    },
  } satisfies TokenRefreshHandlers
}
