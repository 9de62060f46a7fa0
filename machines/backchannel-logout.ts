/**
 * OpenID Connect back-channel logout, the receiving side: `POST <basePath>/backchannel-logout/<provider>` with a
 * `logout_token`. The request is refused unless back-channel logout is configured, the path names an OIDC provider
 * that opted in, and a token of a sane size came; the token is then verified (§2.6), its id claimed once (a replay is
 * refused), and the sessions it names are ended: database session rows deleted, or, for JWT sessions that the server
 * cannot reach, the OP account or session marked revoked. It runs within one request and is never persisted.
 */
import { assign, not, setup } from 'xstate'
import type { RefusalCheck } from '../src/types/refusals.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'

/** Characters a logout token may have: a signed JWT with the claims §2.4 lists is far smaller. */
export const maxLogoutTokenLength = 16_384

export interface BackchannelLogoutContext {
  /** The provider id the path names (not necessarily a configured one, until the checks have passed). */
  providerId?: string
  /** Where the site keeps its sessions: rows the adapter deletes, or JWT cookies only a revocation mark reaches. */
  sessionStrategy?: 'jwt' | 'database'
  /** Database sessions deleted. */
  ended?: number
  /** The check that refused the logout token; logged once by the runtime. */
  refusal?: RefusalCheck
  /** A short reason for the log; never the token. */
  refusalReason?: string
}

/** What the back-channel logout machine hands back when it ends: how many database sessions it ended. */
export interface BackchannelLogoutOutput {
  ended: number
}

export type BackchannelLogoutEvent =
  | {
      type: 'LOGOUT_TOKEN_RECEIVED'
      providerId?: string
      /** Whether the config has `backchannelLogout` (the logout store). */
      configured: boolean
      /** Whether the path names an OIDC provider with `backchannelLogout: true`. */
      providerAccepts: boolean
      /** Length of the `logout_token` form field; 0 when it is missing or not a single string. */
      tokenLength: number
      sessionStrategy: 'jwt' | 'database'
    }
  | { type: 'TOKEN_VERIFIED' }
  /** `reason`: the failed check, for the log (a jose error code or a claim rule), never the token. */
  | { type: 'TOKEN_REJECTED'; reason: string }
  | { type: 'TOKEN_ID_CLAIMED' }
  | { type: 'TOKEN_ID_REPLAYED' }
  | { type: 'SESSIONS_DELETED'; ended: number }
  | { type: 'SESSIONS_REVOKED' }
  /** The logout store or the adapter failed (the handler logged it): the logout did not happen. */
  | { type: 'STORE_FAILED' }

/** The commands, declared once: their params type the handlers (src/effects/session/backchannel-logout-flow.ts). */
const commands = {
  verifyLogoutToken: command<{ providerId: string }>(),
  claimTokenId: command<{ providerId: string }>(),
  deleteSessions: command<{ providerId: string }>(),
  revokeSessions: command<{ providerId: string }>(),
}

export type BackchannelLogoutCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const backchannelLogoutContract = {
  verifyLogoutToken: ['TOKEN_VERIFIED', 'TOKEN_REJECTED'],
  claimTokenId: ['TOKEN_ID_CLAIMED', 'TOKEN_ID_REPLAYED', 'STORE_FAILED'],
  deleteSessions: ['SESSIONS_DELETED', 'STORE_FAILED'],
  revokeSessions: ['SESSIONS_REVOKED', 'STORE_FAILED'],
} as const satisfies CommandContract<BackchannelLogoutCommand, BackchannelLogoutEvent>

type Received = Extract<BackchannelLogoutEvent, { type: 'LOGOUT_TOKEN_RECEIVED' }>

const providerParams = ({ context }: { context: BackchannelLogoutContext }) => ({
  providerId: context.providerId ?? '',
})

export const backchannelLogoutMachine = setup({
  types: {
    context: {} as BackchannelLogoutContext,
    events: {} as BackchannelLogoutEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
    output: {} as BackchannelLogoutOutput,
  },
  guards: {
    isConfigured: ({ event }) => (event as Received).configured,
    acceptsProvider: ({ event }) => (event as Received).providerAccepts,
    hasUsableToken: ({ event }) => {
      const length = (event as Received).tokenLength
      return length > 0 && length <= maxLogoutTokenLength
    },
    usesDatabaseSessions: ({ context }) => context.sessionStrategy === 'database',
  },
  actions: {
    // Commands: run by the flow runtime with the handlers in src/effects/session/backchannel-logout-flow.ts.
    ...commands,
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    refuse: assign((_, params: { check: RefusalCheck; reason: string }) => ({
      refusal: params.check,
      refusalReason: params.reason,
    })),
  },
}).createMachine({
  id: 'backchannelLogout',
  output: ({ context }) => ({ ended: context.ended ?? 0 }),
  context: {},
  initial: 'received',
  states: {
    received: {
      description: 'An OpenID provider posted a logout token for one of its users.',
      on: {
        LOGOUT_TOKEN_RECEIVED: [
          {
            guard: not('isConfigured'),
            target: 'refused',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId })),
              {
                type: 'refuse',
                params: { check: 'logout-token', reason: 'back-channel logout is not configured' },
              },
            ],
          },
          {
            guard: not('acceptsProvider'),
            target: 'refused',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId })),
              {
                type: 'refuse',
                params: { check: 'logout-token', reason: 'no OIDC provider with backchannelLogout by this id' },
              },
            ],
          },
          {
            guard: not('hasUsableToken'),
            target: 'refused',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId })),
              { type: 'refuse', params: { check: 'logout-token', reason: 'no usable logout_token parameter' } },
            ],
          },
          {
            target: 'verifyingToken',
            actions: assign(({ event }) => ({ providerId: event.providerId, sessionStrategy: event.sessionStrategy })),
          },
        ],
      },
    },
    verifyingToken: {
      description:
        "The token is checked: signature against the provider's JWKS, iss, aud, iat age, exp, jti, the logout event, sub or sid, no nonce.",
      entry: { type: 'verifyLogoutToken', params: providerParams },
      on: {
        TOKEN_VERIFIED: { target: 'claimingTokenId' },
        TOKEN_REJECTED: {
          target: 'refused',
          actions: { type: 'refuse', params: ({ event }) => ({ check: 'logout-token', reason: event.reason }) },
        },
      },
    },
    claimingTokenId: {
      description: "The token's id is recorded in the logout store for the token's lifetime: a token is used once.",
      entry: { type: 'claimTokenId', params: providerParams },
      on: {
        TOKEN_ID_CLAIMED: [
          { guard: 'usesDatabaseSessions', target: 'deletingSessions' },
          { target: 'revokingSessions' },
        ],
        TOKEN_ID_REPLAYED: {
          target: 'refused',
          actions: {
            type: 'refuse',
            params: { check: 'logout-token-replayed', reason: 'logout token id already used' },
          },
        },
        STORE_FAILED: { target: 'unavailable' },
      },
    },
    deletingSessions: {
      description:
        'The database sessions indexed under the OP session (sid) or OP account (sub) are deleted, with a signOut event each.',
      entry: { type: 'deleteSessions', params: providerParams },
      on: {
        SESSIONS_DELETED: { target: 'ended', actions: assign(({ event }) => ({ ended: event.ended })) },
        STORE_FAILED: { target: 'unavailable' },
      },
    },
    revokingSessions: {
      description:
        'JWT sessions cannot be reached: the OP session (sid) or OP account (sub) is marked revoked, which every session read checks.',
      entry: { type: 'revokeSessions', params: providerParams },
      on: {
        SESSIONS_REVOKED: { target: 'ended' },
        STORE_FAILED: { target: 'unavailable' },
      },
    },
    ended: { type: 'final', description: 'The sessions the token names have ended: 200.' },
    refused: { type: 'final', description: 'The token was refused, the refusal logged once: 400 invalid_request.' },
    unavailable: {
      type: 'final',
      description: 'The logout store or the adapter failed, so the logout did not happen: 400 invalid_request.',
    },
  },
})
