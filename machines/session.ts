/**
 * The session lifecycle: read, refresh when due, update on the app's request, expire, sign out. The same machine
 * serves both strategies; the effects (src/effects/session-*.ts) know whether the session lives in a JWT cookie or in
 * the database. It runs within one request and is never persisted.
 *
 * The session check on every page view does not run this machine when nothing is due: src/core/actions/session.ts
 * calls the same effect handlers in the same order (loading → refreshing → resolving → announcing → active), and a test
 * holds that fast path equal to the machine's.
 */
import { assign, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/security/refusals.js'
import { isCsrfVerified } from '../src/security/flow-guards.js'

export interface SessionContext {
  intent?: 'read' | 'update' | 'signOut'
  callbackUrl?: string
  redirectTo?: string
  error?: ErrorType
  /** The check that refused the request, when it ended in a refusal; logged once by the runtime. */
  refusal?: RefusalCheck
  now: number
}

export type SessionEvent =
  | { type: 'SESSION_REQUESTED'; now: number }
  | { type: 'SESSION_UPDATE_REQUESTED'; csrfVerified: boolean; now: number }
  | { type: 'SIGNOUT_REQUESTED'; csrfVerified: boolean; callbackUrl: string; now: number }
  | { type: 'SESSION_FOUND' }
  | { type: 'SESSION_NOT_FOUND' }
  | { type: 'SESSION_INVALID' }
  | { type: 'SESSION_REFRESHED' }
  | { type: 'SESSION_REVOKED' }
  | { type: 'SESSION_REFRESH_FAILED'; error: ErrorType }
  | { type: 'SESSION_RESOLVED' }
  | { type: 'SESSION_CALLBACK_FAILED' }
  | { type: 'SESSION_ANNOUNCED' }
  | { type: 'SESSION_CLEARED' }
  | { type: 'REDIRECT_RESOLVED'; url: string }
  | { type: 'REDIRECT_FAILED' }
  | { type: 'SESSION_ENDED' }
  | { type: 'SIGNOUT_FAILED' }

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    isUpdateRequested: ({ context }) => context.intent === 'update',
  },
  actions: {
    // Commands, run by the flow runtime with the handlers in src/effects/.
    loadSession: (_: unknown, _params: { intent: string }) => {},
    refreshSession: (_: unknown, _params: { trigger: 'update' | 'none' }) => {},
    runSessionCallback: (_: unknown, _params: { trigger: 'update' | 'none' }) => {},
    emitSessionEvent: (_: unknown, _params: Record<string, never>) => {},
    clearSession: (_: unknown, _params: Record<string, never>) => {},
    runRedirectCallback: (_: unknown, _params: { url: string }) => {},
    endSession: (_: unknown, _params: Record<string, never>) => {},
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck }) => (params.check ? { error: params.error, refusal: params.check } : { error: params.error })),
  },
}).createMachine({
  id: 'session',
  context: { now: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'A request about the session arrived.',
      on: {
        SESSION_REQUESTED: { target: 'loading', actions: assign(({ event }) => ({ intent: 'read' as const, now: event.now })) },
        SESSION_UPDATE_REQUESTED: [
          { guard: isCsrfVerified, target: 'loading', actions: assign(({ event }) => ({ intent: 'update' as const, now: event.now })) },
          { target: 'failed', actions: [assign(({ event }) => ({ now: event.now })), { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } }] },
        ],
        SIGNOUT_REQUESTED: [
          { guard: isCsrfVerified, target: 'resolvingSignOutRedirect',
            actions: assign(({ event }) => ({ intent: 'signOut' as const, callbackUrl: event.callbackUrl, now: event.now })) },
          { target: 'failed', actions: [assign(({ event }) => ({ now: event.now })), { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } }] },
        ],
      },
    },
    loading: {
      description: 'The session cookie is read: the JWT decrypted, or the database session looked up.',
      entry: { type: 'loadSession', params: ({ context }) => ({ intent: context.intent ?? 'read' }) },
      on: {
        SESSION_FOUND: { target: 'refreshing' },
        SESSION_NOT_FOUND: { target: 'anonymous' },
        SESSION_INVALID: { target: 'clearing' },
      },
    },
    refreshing: {
      description: 'The jwt callback runs (trigger "update" on an update); the expiry slides when updateAge has passed.',
      entry: { type: 'refreshSession', params: ({ context }) => ({ trigger: context.intent === 'update' ? 'update' as const : 'none' as const }) },
      on: {
        SESSION_REFRESHED: { target: 'resolving' },
        SESSION_REVOKED: { target: 'clearing' },
        SESSION_REFRESH_FAILED: { target: 'failed', actions: assign(({ event }) => ({ error: event.error })) },
      },
    },
    resolving: {
      description: 'The session callback shapes what the client sees.',
      entry: { type: 'runSessionCallback', params: ({ context }) => ({ trigger: context.intent === 'update' ? 'update' as const : 'none' as const }) },
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
      description: 'An expired, revoked or unreadable session is removed and its cookie cleared.',
      entry: { type: 'clearSession', params: {} },
      on: { SESSION_CLEARED: { target: 'anonymous' } },
    },
    resolvingSignOutRedirect: {
      description: 'The redirect callback decides where the user lands after signing out.',
      entry: { type: 'runRedirectCallback', params: ({ context }) => ({ url: context.callbackUrl ?? '' }) },
      on: {
        REDIRECT_RESOLVED: { target: 'signingOut', actions: assign(({ event }) => ({ redirectTo: event.url })) },
        REDIRECT_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'InvalidCallbackUrl', check: 'callback-url' } } },
      },
    },
    signingOut: {
      description: 'The session is invalidated: cookie deleted, database session deleted, signOut event sent.',
      entry: { type: 'endSession', params: {} },
      on: {
        SESSION_ENDED: { target: 'signedOut' },
        SIGNOUT_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'SignOutError' } } },
      },
    },
    active: { type: 'final', description: 'A valid session, returned to the client.' },
    anonymous: { type: 'final', description: 'No session: the client gets null.' },
    signedOut: { type: 'final', description: 'Signed out; the browser goes to the callback URL.' },
    failed: { type: 'final', description: 'The request was refused; context.error names why.' },
  },
})
