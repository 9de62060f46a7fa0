/**
 * Provider token refresh: `getAccessToken` asks for a provider's access token that is valid for at least a margin.
 * The stored tokens are loaded (from the JWT session or the account row); a token still valid beyond the margin is
 * handed out; otherwise the refresh token is exchanged once, however many requests ask at the same moment (the
 * handler joins a refresh in progress, here or, through the Redis flow store, on another instance), and the session
 * gets the new tokens. A result kept from an earlier refresh (handed to a request that still carried the refresh
 * token it replaced) whose access token has run short since is not handed out: the newer refresh token it brought is
 * exchanged next, a few times at most (the rotated one is never spent twice). A refresh the provider refuses marks
 * the session (`session.error = "RefreshTokenError"`) or, when the app chose so, ends it. It runs within one request
 * and is never persisted.
 */
import { assign, setup } from 'xstate'
import type { RefusalCheck } from '../src/types/refusals.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'

export interface TokenRefreshContext {
  providerId?: string
  /** The request's time, epoch seconds. */
  now: number
  /** Seconds the access token handed out must still be valid for. */
  margin?: number
  /** Whether a refused refresh ends the session instead of marking it. */
  endSessionOnFailure?: boolean
  /** When the access token handed out expires, epoch seconds, when known. */
  expiresAt?: number
  /** How many newer refresh tokens this request followed after kept results that had run short. */
  followed?: number
  /** The check that refused the refresh; logged once by the runtime. */
  refusal?: RefusalCheck
  /** A short reason for the log (the provider's error code); never a token. */
  refusalReason?: string
}

export type TokenRefreshEvent =
  | {
      type: 'ACCESS_TOKEN_REQUESTED'
      providerId: string
      now: number
      margin: number
      endSessionOnFailure: boolean
    }
  | { type: 'TOKENS_FOUND'; hasAccessToken: boolean; hasRefreshToken: boolean; expiresAt?: number }
  | { type: 'SESSION_NOT_FOUND' }
  | { type: 'TOKENS_NOT_FOUND' }
  | {
      type: 'TOKENS_REFRESHED'
      /** When the new access token expires, epoch seconds, when the provider said. */
      expiresAt?: number
      hasAccessToken: boolean
      /**
       * When the refresh was made, epoch seconds: before this request when it is a result kept from an earlier
       * refresh (another request's, or the session store's newer tokens, which tell no time and say 0).
       */
      refreshedAt: number
      /** The result brought a refresh token other than the one just exchanged (the provider rotates them). */
      hasNewerRefreshToken: boolean
    }
  /** `joined`: the refusal answered another request's refresh, which this request joined (and which logs it). */
  | { type: 'REFRESH_REFUSED'; reason: string; joined: boolean }
  | { type: 'REFRESH_UNAVAILABLE' }
  | { type: 'TOKENS_SAVED' }
  | { type: 'TOKENS_SAVE_FAILED' }
  | { type: 'SESSION_MARKED' }
  | { type: 'SESSION_ENDED' }

/** The commands, declared once: their params type the handlers (src/effects/token-refresh/token-refresh-flow.ts). */
const commands = {
  loadTokens: command<{ providerId: string }>(),
  refreshTokens: command<{ providerId: string }>(),
  saveTokens: command<{ providerId: string }>(),
  markSession: command<{ providerId: string }>(),
  endSession: command<{ providerId: string }>(),
}

export type TokenRefreshCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const tokenRefreshContract = {
  loadTokens: ['TOKENS_FOUND', 'SESSION_NOT_FOUND', 'TOKENS_NOT_FOUND'],
  refreshTokens: ['TOKENS_REFRESHED', 'REFRESH_REFUSED', 'REFRESH_UNAVAILABLE'],
  saveTokens: ['TOKENS_SAVED', 'TOKENS_SAVE_FAILED'],
  markSession: ['SESSION_MARKED'],
  endSession: ['SESSION_ENDED'],
} as const satisfies CommandContract<TokenRefreshCommand, TokenRefreshEvent>

type Found = Extract<TokenRefreshEvent, { type: 'TOKENS_FOUND' }>

/**
 * How many newer refresh tokens one request follows when kept results have run short in turn: a bound, so a provider
 * that hands out access tokens shorter than the margin cannot keep one request refreshing.
 */
export const maxFollowedRefreshes = 2

/** An access token that outlives the margin (a token whose expiry the provider never said counts as valid). */
function outlivesMargin(
  context: TokenRefreshContext,
  tokens: { hasAccessToken: boolean; expiresAt?: number },
): boolean {
  return (
    tokens.hasAccessToken && (tokens.expiresAt === undefined || tokens.expiresAt - (context.margin ?? 0) > context.now)
  )
}

const providerParams = ({ context }: { context: TokenRefreshContext }) => ({ providerId: context.providerId ?? '' })

export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    events: {} as TokenRefreshEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
  },
  guards: {
    /** The stored access token outlives the margin (a token whose expiry the provider never said counts as valid). */
    isAccessTokenValid: ({ context, event }) => outlivesMargin(context, event as Found),
    hasRefreshToken: ({ event }) => (event as Found).hasRefreshToken,
    /** Neither token is left: a refresh was refused before, and the session already carries the mark. */
    wasRefusedBefore: ({ event }) => !(event as Found).hasAccessToken && !(event as Found).hasRefreshToken,
    endsSessionOnFailure: ({ context }) => context.endSessionOnFailure === true,
    /** The refusal was another request's, joined by this one: that request logs it. */
    joinedRefusal: ({ event }) => event.type === 'REFRESH_REFUSED' && event.joined,
    endsSessionOnJoinedRefusal: ({ context, event }) =>
      context.endSessionOnFailure === true && event.type === 'REFRESH_REFUSED' && event.joined,
    /**
     * The refresh handed this request a result made before it (kept for requests that still carry the refresh token
     * it replaced), whose access token has run short since, and which brought a newer refresh token: that one is
     * exchanged next, up to `maxFollowedRefreshes` times. A result made for this request is handed out as it is,
     * however short the provider made it.
     */
    ranShortSinceRefreshed: ({ context, event }) =>
      event.type === 'TOKENS_REFRESHED' &&
      event.refreshedAt < context.now &&
      !outlivesMargin(context, event) &&
      event.hasNewerRefreshToken &&
      (context.followed ?? 0) < maxFollowedRefreshes,
  },
  actions: {
    // Commands: run by the flow runtime with the handlers in src/effects/token-refresh/.
    ...commands,
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    refuse: assign((_, params: { reason: string }) => ({
      refusal: 'refresh-token' as const,
      refusalReason: params.reason,
    })),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: { now: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: "The app asked for a provider's access token.",
      on: {
        ACCESS_TOKEN_REQUESTED: {
          target: 'loading',
          actions: assign(({ event }) => ({
            providerId: event.providerId,
            now: event.now,
            margin: event.margin,
            endSessionOnFailure: event.endSessionOnFailure,
          })),
        },
      },
    },
    loading: {
      description: "The provider's tokens are read from the session: the JWT's own claim, or the account row.",
      entry: { type: 'loadTokens', params: providerParams },
      on: {
        TOKENS_FOUND: [
          {
            guard: 'isAccessTokenValid',
            target: 'valid',
            actions: assign(({ event }) => ({ expiresAt: event.expiresAt })),
          },
          { guard: 'hasRefreshToken', target: 'refreshing' },
          { guard: 'wasRefusedBefore', target: 'refused' },
          {
            guard: 'endsSessionOnFailure',
            target: 'endingSession',
            actions: { type: 'refuse', params: { reason: 'access token expiring and no refresh token' } },
          },
          {
            target: 'markingSession',
            actions: { type: 'refuse', params: { reason: 'access token expiring and no refresh token' } },
          },
        ],
        SESSION_NOT_FOUND: { target: 'noSession' },
        TOKENS_NOT_FOUND: { target: 'noTokens' },
      },
    },
    refreshing: {
      description:
        'The refresh token is exchanged at the provider, once: concurrent requests of the session join the refresh in progress and get its result.',
      entry: { type: 'refreshTokens', params: providerParams },
      on: {
        TOKENS_REFRESHED: [
          {
            guard: 'ranShortSinceRefreshed',
            target: 'followingNewerRefreshToken',
            actions: assign(({ context }) => ({ followed: (context.followed ?? 0) + 1 })),
          },
          { target: 'saving', actions: assign(({ event }) => ({ expiresAt: event.expiresAt })) },
        ],
        REFRESH_REFUSED: [
          { guard: 'endsSessionOnJoinedRefusal', target: 'endingSession' },
          { guard: 'joinedRefusal', target: 'markingSession' },
          {
            guard: 'endsSessionOnFailure',
            target: 'endingSession',
            actions: { type: 'refuse', params: ({ event }) => ({ reason: event.reason }) },
          },
          {
            target: 'markingSession',
            actions: { type: 'refuse', params: ({ event }) => ({ reason: event.reason }) },
          },
        ],
        REFRESH_UNAVAILABLE: { target: 'unavailable' },
      },
    },
    followingNewerRefreshToken: {
      description:
        'The result kept from an earlier refresh has run short since: the newer refresh token it brought is exchanged in turn (the one it replaced is never spent again).',
      always: { target: 'refreshing' },
    },
    saving: {
      description:
        'The session gets the new tokens: the JWT cookie is re-issued (the account row was written by the refresh itself, before anyone else could use it).',
      entry: { type: 'saveTokens', params: providerParams },
      on: {
        TOKENS_SAVED: { target: 'refreshed' },
        TOKENS_SAVE_FAILED: { target: 'unavailable', actions: assign({ expiresAt: undefined }) },
      },
    },
    markingSession: {
      description:
        'The dead tokens are dropped, so the session shows error "RefreshTokenError" until the user signs in again.',
      entry: { type: 'markSession', params: providerParams },
      on: { SESSION_MARKED: { target: 'refused' } },
    },
    endingSession: {
      description:
        'The app chose to end the session when a refresh is refused: cookie cleared, database session deleted (and the dead tokens with it).',
      entry: { type: 'endSession', params: providerParams },
      on: { SESSION_ENDED: { target: 'sessionEnded' } },
    },
    valid: { type: 'final', description: 'The stored access token is valid beyond the margin: handed out as it is.' },
    refreshed: { type: 'final', description: 'A renewed access token is handed out.' },
    noSession: { type: 'final', description: 'No valid session in the request.' },
    noTokens: { type: 'final', description: 'The session holds no tokens of this provider.' },
    unavailable: {
      type: 'final',
      description: 'The provider or a store could not be reached; the session is left as it was.',
    },
    refused: { type: 'final', description: 'The session is marked: the user must sign in again.' },
    sessionEnded: { type: 'final', description: 'The session was ended: the user must sign in again.' },
  },
})
