/**
 * The session lifecycle: read, expire, refresh, re-issue when due, update on the app's request, sign out. The same
 * machine serves both strategies; the handlers (src/effects/session/jwt-session.ts and database-session.ts) know
 * whether the session lives in a JWT cookie or in the database, and only report facts (when the session was issued,
 * when it expires, whether the `jwt` callback changed it). Whether it has expired and whether it is re-issued are
 * decided here, as guarded edges. It runs within one request and is never persisted.
 *
 * Federated logout is drawn here too: a session whose OpenID provider asked for it (a JWT session revoked by a
 * back-channel logout) is refused on read; a sign-out from a provider with `endSessionAtProvider` goes on to the
 * provider's `end_session_endpoint` (RP-initiated logout) after the local session has ended.
 *
 * Session management is drawn too: a session its user (from the device list) or the app ended is `revoked` on read,
 * on every instance, JWT sessions included.
 *
 * So is what a refused provider token refresh (machines/token-refresh.ts) leaves behind: the handlers report which
 * providers' kept tokens a refusal dropped, with the app's `onFailure` for each; the session is then ended, or goes on
 * marked with `error: "RefreshTokenError"`, as decided here.
 */
import { assign, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import { isCsrfVerified, isSessionExpired } from '../src/security/flow-guards.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'

export interface SessionContext {
  intent?: 'read' | 'update' | 'signOut'
  callbackUrl?: string
  redirectTo?: string
  error?: ErrorType
  /** The check that refused the request, when it ended in a refusal; logged once by the runtime. */
  refusal?: RefusalCheck
  /** The request's time, epoch seconds. */
  now: number
  /** Seconds after which a session is re-issued (its expiry slides) on the next check; 0 = every check. */
  updateAge?: number
  /**
   * The provider's logout URL (RP-initiated logout), where the browser goes before `redirectTo`: built from the
   * provider's discovered metadata, carrying `redirectTo` (the redirect callback's answer) as `post_logout_redirect_uri`.
   */
  providerLogoutUrl?: string
  /** When the session was issued or last re-issued, epoch seconds (as loaded). */
  issuedAt?: number
  /** A provider refused to refresh the tokens the session keeps: the client sees `error: "RefreshTokenError"`. */
  refreshRefused?: boolean
}

/**
 * A provider with `tokenRefresh` whose tokens, kept by the session, a refused refresh dropped (the account row's, for
 * a database session), with what the app chose for a refusal (`onFailure: "endSession"`).
 */
export interface RefusedRefresh {
  providerId: string
  endSessionOnFailure: boolean
}

/** What the session machine hands back when it ends: why it failed, or where a sign-out sends the browser. */
export interface SessionOutput {
  error?: ErrorType
  redirectTo?: string
  providerLogoutUrl?: string
}

export type SessionEvent =
  | { type: 'SESSION_REQUESTED'; now: number; updateAge: number }
  | { type: 'SESSION_UPDATE_REQUESTED'; csrfVerified: boolean; now: number; updateAge: number }
  | { type: 'SIGNOUT_REQUESTED'; csrfVerified: boolean; callbackUrl: string; now: number }
  | {
      type: 'SESSION_FOUND'
      issuedAt: number
      expiresAt: number
      /** The providers whose refresh was refused, when there is any (docs/token-refresh.md). */
      refusedRefreshes?: readonly RefusedRefresh[]
    }
  | { type: 'SESSION_NOT_FOUND' }
  | { type: 'SESSION_INVALID' }
  | { type: 'SESSION_REVOKED_AT_PROVIDER' }
  | { type: 'SESSION_REVOKED_BY_SITE' }
  | { type: 'SESSION_REFRESHED'; changed: boolean }
  | { type: 'SESSION_REVOKED' }
  | { type: 'SESSION_REFRESH_FAILED'; error: ErrorType }
  | { type: 'SESSION_REISSUED' }
  | { type: 'SESSION_REISSUE_FAILED' }
  | { type: 'SESSION_RESOLVED' }
  | { type: 'SESSION_CALLBACK_FAILED' }
  | { type: 'SESSION_ANNOUNCED' }
  | { type: 'SESSION_CLEARED' }
  | { type: 'REDIRECT_RESOLVED'; url: string }
  | { type: 'REDIRECT_FAILED' }
  | { type: 'SESSION_ENDED'; endAtProvider?: boolean }
  | { type: 'PROVIDER_LOGOUT_URL_BUILT'; url: string }
  | { type: 'PROVIDER_LOGOUT_UNAVAILABLE' }
  | { type: 'SIGNOUT_FAILED' }

/** The commands, declared once: their params type the handlers. */
const commands = {
  loadSession: command<{ intent: 'read' | 'update' | 'signOut' }>(),
  refreshSession: command<{ trigger: 'update' | 'none' }>(),
  reissueSession: command<Record<string, never>>(),
  /** `refreshRefused`: the session shows `error: "RefreshTokenError"`. */
  runSessionCallback: command<{ trigger: 'update' | 'none'; refreshRefused: boolean }>(),
  emitSessionEvent: command<Record<string, never>>(),
  clearSession: command<{ removeStored: boolean }>(),
  runRedirectCallback: command<{ url: string }>(),
  endSession: command<Record<string, never>>(),
  buildProviderLogoutUrl: command<{ postLogoutRedirectUri: string }>(),
}

export type SessionCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const sessionContract = {
  loadSession: [
    'SESSION_FOUND',
    'SESSION_NOT_FOUND',
    'SESSION_INVALID',
    'SESSION_REVOKED_AT_PROVIDER',
    'SESSION_REVOKED_BY_SITE',
  ],
  refreshSession: ['SESSION_REFRESHED', 'SESSION_REVOKED', 'SESSION_REFRESH_FAILED'],
  reissueSession: ['SESSION_REISSUED', 'SESSION_REISSUE_FAILED'],
  runSessionCallback: ['SESSION_RESOLVED', 'SESSION_CALLBACK_FAILED'],
  emitSessionEvent: ['SESSION_ANNOUNCED'],
  clearSession: ['SESSION_CLEARED'],
  runRedirectCallback: ['REDIRECT_RESOLVED', 'REDIRECT_FAILED'],
  endSession: ['SESSION_ENDED', 'SIGNOUT_FAILED'],
  buildProviderLogoutUrl: ['PROVIDER_LOGOUT_URL_BUILT', 'PROVIDER_LOGOUT_UNAVAILABLE'],
} as const satisfies CommandContract<SessionCommand, SessionEvent>

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
    output: {} as SessionOutput,
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    /**
     * The session is written again (a new cookie, or the row's expiry moved on) when the `jwt` callback changed it or
     * the app asked for an update, or when `updateAge` seconds have passed since it was last issued.
     */
    isReissueDue: ({ context, event }) =>
      (event.type === 'SESSION_REFRESHED' && event.changed) ||
      context.now - (context.issuedAt ?? 0) >= (context.updateAge ?? 0),
    /** A provider refused to refresh the session's tokens, and the app chose to end the session then. */
    endsSessionOnRefusedRefresh: ({ event }) =>
      event.type === 'SESSION_FOUND' && event.refusedRefreshes?.some((refused) => refused.endSessionOnFailure) === true,
    /** A provider refused to refresh the session's tokens: the session is kept, marked. */
    isRefreshRefused: ({ event }) =>
      event.type === 'SESSION_FOUND' && event.refusedRefreshes !== undefined && event.refusedRefreshes.length > 0,
    /** The ended session came from a provider that asked to be signed out of too (RP-initiated logout). */
    endsAtProvider: ({ event }) => event.type === 'SESSION_ENDED' && event.endAtProvider === true,
  },
  actions: {
    // Commands: run by the flow runtime with the handlers in src/effects/.
    ...commands,
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck }) =>
      params.check ? { error: params.error, refusal: params.check } : { error: params.error },
    ),
    /** The session goes on, marked: the client sees `error: "RefreshTokenError"` until the user signs in again. */
    markRefreshRefused: assign({ refreshRefused: true }),
  },
}).createMachine({
  id: 'session',
  output: ({ context }) => ({
    error: context.error,
    redirectTo: context.redirectTo,
    providerLogoutUrl: context.providerLogoutUrl,
  }),
  context: { now: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'A request about the session arrived.',
      on: {
        SESSION_REQUESTED: {
          target: 'loading',
          actions: assign(({ event }) => ({ intent: 'read' as const, now: event.now, updateAge: event.updateAge })),
        },
        SESSION_UPDATE_REQUESTED: [
          {
            guard: isCsrfVerified,
            target: 'loading',
            actions: assign(({ event }) => ({ intent: 'update' as const, now: event.now, updateAge: event.updateAge })),
          },
          {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ now: event.now })),
              { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
            ],
          },
        ],
        SIGNOUT_REQUESTED: [
          {
            guard: isCsrfVerified,
            target: 'resolvingSignOutRedirect',
            actions: assign(({ event }) => ({
              intent: 'signOut' as const,
              callbackUrl: event.callbackUrl,
              now: event.now,
            })),
          },
          {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ now: event.now })),
              { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
            ],
          },
        ],
      },
    },
    loading: {
      description: 'The session cookie is read: the JWT decrypted, or the database session looked up.',
      entry: { type: 'loadSession', params: ({ context }) => ({ intent: context.intent ?? 'read' }) },
      on: {
        SESSION_FOUND: [
          { guard: isSessionExpired, target: 'removingExpired' },
          // A provider refused to refresh the tokens the session keeps (docs/token-refresh.md): the session ends when
          // the app chose `onFailure: "endSession"`, else it goes on marked. The refusal itself was logged by the
          // request whose refresh it was.
          { guard: 'endsSessionOnRefusedRefresh', target: 'endingRefusedSession' },
          {
            guard: 'isRefreshRefused',
            target: 'refreshing',
            actions: [assign(({ event }) => ({ issuedAt: event.issuedAt })), 'markRefreshRefused'],
          },
          { target: 'refreshing', actions: assign(({ event }) => ({ issuedAt: event.issuedAt })) },
        ],
        SESSION_NOT_FOUND: { target: 'anonymous' },
        SESSION_INVALID: { target: 'clearing' },
        // The OP ended this user's session (back-channel logout) after this session was signed in.
        SESSION_REVOKED_AT_PROVIDER: {
          target: 'clearing',
          actions: assign({ refusal: 'session-revoked' as const }),
        },
        // Session management: the user (from another device) or the app ended this session before it expired.
        SESSION_REVOKED_BY_SITE: {
          target: 'revoked',
          actions: assign({ refusal: 'session-revoked' as const }),
        },
      },
    },
    revoked: {
      description:
        'A session its user or the app ended (session management) is refused on every instance and its cookie cleared.',
      entry: { type: 'clearSession', params: { removeStored: true } },
      on: { SESSION_CLEARED: { target: 'anonymous' } },
    },
    removingExpired: {
      description:
        'An expired session is removed where it is stored (clean-up of inactive sessions) and its cookie cleared.',
      entry: { type: 'clearSession', params: { removeStored: true } },
      on: { SESSION_CLEARED: { target: 'anonymous' } },
    },
    endingRefusedSession: {
      description:
        'A provider refused to refresh the tokens this session keeps and the app chose onFailure "endSession": the session is removed where it is stored and its cookie cleared.',
      entry: { type: 'clearSession', params: { removeStored: true } },
      on: { SESSION_CLEARED: { target: 'anonymous' } },
    },
    refreshing: {
      description: 'The jwt callback runs (trigger "update" on an update).',
      entry: {
        type: 'refreshSession',
        params: ({ context }) => ({ trigger: context.intent === 'update' ? ('update' as const) : ('none' as const) }),
      },
      on: {
        SESSION_REFRESHED: [{ guard: 'isReissueDue', target: 'reissuing' }, { target: 'resolving' }],
        SESSION_REVOKED: { target: 'clearing' },
        SESSION_REFRESH_FAILED: { target: 'failed', actions: assign(({ event }) => ({ error: event.error })) },
      },
    },
    reissuing: {
      description: 'The session is written again: a new JWT cookie, or the database row expiry moved on by maxAge.',
      entry: { type: 'reissueSession', params: {} },
      on: {
        SESSION_REISSUED: { target: 'resolving' },
        SESSION_REISSUE_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'JWTSessionError' } } },
      },
    },
    resolving: {
      description: 'The session callback shapes what the client sees.',
      entry: {
        type: 'runSessionCallback',
        params: ({ context }) => ({
          trigger: context.intent === 'update' ? ('update' as const) : ('none' as const),
          refreshRefused: context.refreshRefused === true,
        }),
      },
      on: {
        SESSION_RESOLVED: { target: 'announcing' },
        SESSION_CALLBACK_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'JWTSessionError' } } },
      },
    },
    announcing: {
      description: 'The session event tells the app a session was checked.',
      entry: { type: 'emitSessionEvent', params: {} },
      on: { SESSION_ANNOUNCED: { target: 'active' } },
    },
    clearing: {
      description: 'A revoked or unreadable session is forgotten and its cookie cleared.',
      entry: { type: 'clearSession', params: { removeStored: false } },
      on: { SESSION_CLEARED: { target: 'anonymous' } },
    },
    resolvingSignOutRedirect: {
      description: 'The redirect callback decides where the user lands after signing out.',
      entry: { type: 'runRedirectCallback', params: ({ context }) => ({ url: context.callbackUrl ?? '' }) },
      on: {
        REDIRECT_RESOLVED: { target: 'signingOut', actions: assign(({ event }) => ({ redirectTo: event.url })) },
        REDIRECT_FAILED: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'InvalidCallbackUrl', check: 'callback-url' } },
        },
      },
    },
    signingOut: {
      description: 'The session is invalidated: cookie deleted, database session deleted, signOut event sent.',
      entry: { type: 'endSession', params: {} },
      on: {
        SESSION_ENDED: [{ guard: 'endsAtProvider', target: 'endingProviderSession' }, { target: 'signedOut' }],
        SIGNOUT_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'SignOutError' } } },
      },
    },
    endingProviderSession: {
      description:
        "The provider's end_session_endpoint, with id_token_hint and the callback URL as post_logout_redirect_uri, becomes where the browser goes.",
      entry: {
        type: 'buildProviderLogoutUrl',
        params: ({ context }) => ({ postLogoutRedirectUri: context.redirectTo ?? '' }),
      },
      on: {
        PROVIDER_LOGOUT_URL_BUILT: {
          target: 'signedOut',
          actions: assign(({ event }) => ({ providerLogoutUrl: event.url })),
        },
        // Signed out here all the same; the provider session stays (logged by the handler).
        PROVIDER_LOGOUT_UNAVAILABLE: { target: 'signedOut' },
      },
    },
    active: { type: 'final', description: 'A valid session, returned to the client.' },
    anonymous: { type: 'final', description: 'No session: the client gets null.' },
    signedOut: {
      type: 'final',
      description: "Signed out; the browser goes to the callback URL (or first to the provider's logout).",
    },
    failed: { type: 'final', description: 'The request was refused; context.error names why.' },
  },
})
