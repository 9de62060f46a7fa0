/**
 * The credentials sign-in flow: the attempt is counted first, atomically, and a locked-out account or client, or one
 * whose attempts in the window are spent, is refused before `authorize` runs; `authorize` checks what the user typed
 * (a failure that spends the last attempt starts a lockout; a success gives the attempts back), the `signIn`
 * callback may veto, the session is issued. It starts and ends within one request (POST /callback/:provider), so it is never persisted.
 */
import { assign, not, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import {
  isAccountReadable,
  isAttemptOverBudget,
  isCsrfVerified,
  isLockedOut,
  isWithinFailureLimits,
} from '../src/security/flow-guards.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'
import {
  completionActions,
  completionCommands,
  completionContract,
  completionState,
  resolvingCallbackUrl,
  signInCompletion,
  type CompletionContext,
  type CompletionEvent,
  signInOutput,
  type SignInOutput,
} from './sign-in-completion.js'

/** `user` is the one `authorize` returned (id, name, e-mail and image); `isNewUser` is always false (Auth.js). */
export interface CredentialsContext extends CompletionContext {
  /** `CredentialsSignin.code`, shown in the redirect URL. */
  errorCode?: string
  /** Failed sign-ins allowed per account and per client within the window (docs/security.md). */
  maxFailures?: number
  maxClientFailures?: number
  /** How long a lockout lasts: the wait told to an attempt refused because the window's attempts are spent. */
  lockoutSeconds?: number
  /** Attempts counted in the window for the account and the client, this one included (0 when unknown). */
  accountFailures?: number
  clientFailures?: number
  /**
   * The browser holds a device cookie from an earlier good sign-in to this account (OWASP's device cookies): its
   * attempts are counted on its own budget, so strangers who lock the account out do not lock out its owner.
   */
  knownDevice?: boolean
  /** Which limits the failure that starts a lockout reached. */
  lockAccount?: boolean
  lockClient?: boolean
  /** Seconds until the lockout that refused this request ends. */
  retryAfterSeconds?: number
  refusalReason?: string
  now: number
}

/** What the credentials machine hands back when it ends: the completion's, and a refusal's code and lockout wait. */
export interface CredentialsOutput extends SignInOutput {
  /** `CredentialsSignin.code`, shown in the redirect URL. */
  errorCode?: string
  /** Seconds until the lockout that refused this request ends. */
  retryAfterSeconds?: number
}

export type CredentialsEvent =
  | {
      type: 'CREDENTIALS_SUBMITTED'
      providerId: string
      callbackUrl: string
      csrfVerified: boolean
      now: number
      maxFailures: number
      maxClientFailures: number
      lockoutSeconds: number
      /** False when the field naming the account held something other than text. */
      accountReadable: boolean
      /** The request carries a device cookie that verifies for the account it names. */
      knownDevice: boolean
    }
  | CompletionEvent
  | { type: 'ATTEMPT_RESERVED'; retryAfterSeconds: number; accountFailures: number; clientFailures: number }
  | { type: 'ATTEMPT_RESERVE_FAILED' }
  | { type: 'LOCKOUT_STARTED' }
  | { type: 'FAILURES_CLEARED' }
  | { type: 'AUTHORIZED'; user: NonNullable<CredentialsContext['user']> }
  | { type: 'AUTHORIZE_REJECTED'; code: string }
  | { type: 'AUTHORIZE_FAILED' }

/** Whose failures an attempt spends: the account's (shared by every unknown client) or the known device's own. */
export type FailureBudget = 'account' | 'device'

const budgetOf = (context: CredentialsContext): FailureBudget => (context.knownDevice === true ? 'device' : 'account')

/** The commands, declared once: their params type the handlers (src/effects/credentials/credentials-flow.ts). */
const commands = {
  ...completionCommands,
  reserveAttempt: command<{ providerId: string; budget: FailureBudget }>(),
  authorize: command<{ providerId: string }>(),
  startLockout: command<{ providerId: string; budget: FailureBudget; account: boolean; client: boolean }>(),
  clearFailures: command<{ providerId: string; budget: FailureBudget }>(),
}

export type CredentialsCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const credentialsContract = {
  ...completionContract,
  reserveAttempt: ['ATTEMPT_RESERVED', 'ATTEMPT_RESERVE_FAILED'],
  authorize: ['AUTHORIZED', 'AUTHORIZE_REJECTED', 'AUTHORIZE_FAILED'],
  startLockout: ['LOCKOUT_STARTED'],
  clearFailures: ['FAILURES_CLEARED'],
} as const satisfies CommandContract<CredentialsCommand, CredentialsEvent>

export const credentialsMachine = setup({
  types: {
    context: {} as CredentialsContext,
    events: {} as CredentialsEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
    output: {} as CredentialsOutput,
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    /** Extension point: the app's last word before the session is issued. */
    allowSignIn: () => true,
  },
  actions: {
    // Commands: run by the flow runtime with the handlers in src/effects/credentials/credentials-flow.ts.
    ...commands,
    ...completionActions<CredentialsContext, CredentialsEvent>(),
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck }) =>
      params.check ? { error: params.error, refusal: params.check } : { error: params.error },
    ),
  },
}).createMachine({
  id: 'credentials',
  output: ({ context }) => ({
    ...signInOutput(context),
    errorCode: context.errorCode,
    retryAfterSeconds: context.retryAfterSeconds,
  }),
  context: { now: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'Waiting for the sign-in form to be posted.',
      on: {
        CREDENTIALS_SUBMITTED: [
          {
            guard: not(isCsrfVerified),
            target: 'failed',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId, now: event.now })),
              { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
            ],
          },
          {
            // Refused before any count or authorize(): a non-text account would escape the per-account limit.
            guard: not(isAccountReadable),
            target: 'failed',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId, now: event.now, errorCode: 'invalid_input' })),
              { type: 'fail', params: { error: 'CredentialsSignin', check: 'credentials-input' } },
            ],
          },
          {
            target: 'resolvingCallbackUrl',
            actions: assign(({ event }) => ({
              providerId: event.providerId,
              callbackUrl: event.callbackUrl,
              now: event.now,
              maxFailures: event.maxFailures,
              maxClientFailures: event.maxClientFailures,
              lockoutSeconds: event.lockoutSeconds,
              knownDevice: event.knownDevice,
            })),
          },
        ],
      },
    },
    resolvingCallbackUrl: resolvingCallbackUrl('reservingAttempt'),
    reservingAttempt: {
      description:
        'The attempt is counted for the client and for the account (or, from a known device, for that device alone) before authorize() runs, in one atomic step per key, so parallel guesses each spend one; a running lockout or a spent window is refused, known account or not.',
      entry: {
        type: 'reserveAttempt',
        params: ({ context }) => ({ providerId: context.providerId ?? '', budget: budgetOf(context) }),
      },
      on: {
        ATTEMPT_RESERVED: [
          {
            guard: isLockedOut,
            target: 'lockedOut',
            // Not an error of the flow: the answer (CredentialsSignin, too_many_attempts) is the HTTP layer's.
            actions: assign(({ event }) => ({
              retryAfterSeconds: event.retryAfterSeconds,
              refusal: 'credentials-lockout' as const,
              refusalReason: 'too many failed sign-ins in the window',
            })),
          },
          {
            // More attempts in flight than failures allowed: the ones past the budget never reach authorize().
            guard: isAttemptOverBudget,
            target: 'lockedOut',
            actions: assign(({ context }) => ({
              retryAfterSeconds: context.lockoutSeconds ?? 0,
              refusal: 'credentials-lockout' as const,
              refusalReason: 'the attempts allowed in the window are spent',
            })),
          },
          {
            target: 'authorizing',
            actions: assign(({ event }) => ({
              accountFailures: event.accountFailures,
              clientFailures: event.clientFailures,
            })),
          },
        ],
        // The store cannot count the attempt: refuse rather than let guessing through unlimited.
        ATTEMPT_RESERVE_FAILED: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'CallbackRouteError' } },
        },
      },
    },
    authorizing: {
      description: "The provider's authorize() checks the submitted credentials.",
      entry: { type: 'authorize', params: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      on: {
        // Auth.js never creates a credentials user: the completion reports a sign-in, never a sign-up.
        AUTHORIZED: {
          target: 'clearingFailures',
          actions: assign(({ event }) => ({ user: event.user, isNewUser: false })),
        },
        AUTHORIZE_REJECTED: [
          {
            // The failure was counted when the attempt was reserved: only whether it spent the last one is left.
            guard: isWithinFailureLimits,
            target: 'failed',
            actions: [
              assign(({ event }) => ({ errorCode: event.code })),
              { type: 'fail', params: { error: 'CredentialsSignin' } },
            ],
          },
          {
            target: 'lockingOut',
            actions: assign(({ context, event }) => ({
              errorCode: event.code,
              lockAccount: (context.accountFailures ?? 0) >= (context.maxFailures ?? 0),
              lockClient: (context.clientFailures ?? 0) >= (context.maxClientFailures ?? 0),
            })),
          },
        ],
        AUTHORIZE_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'CallbackRouteError' } } },
      },
    },
    lockingOut: {
      description:
        'The last allowed failure starts a lockout of the account or client; the credentialsLockout event is sent.',
      entry: {
        type: 'startLockout',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          budget: budgetOf(context),
          account: context.lockAccount === true,
          client: context.lockClient === true,
        }),
      },
      on: { LOCKOUT_STARTED: { target: 'failed', actions: { type: 'fail', params: { error: 'CredentialsSignin' } } } },
    },
    clearingFailures: {
      description:
        "Right credentials: the account's (or the known device's) count starts again and the client gets this attempt back (a success is no failure).",
      entry: {
        type: 'clearFailures',
        params: ({ context }) => ({ providerId: context.providerId ?? '', budget: budgetOf(context) }),
      },
      on: { FAILURES_CLEARED: { target: completionState } },
    },
    completingSignIn: signInCompletion('credentials'),
    signedIn: { type: 'final', description: 'Session issued; the browser goes to the callback URL.' },
    redirected: { type: 'final', description: 'The signIn callback sent the user to another page; no session.' },
    lockedOut: {
      type: 'final',
      description: 'Locked out: refused with Retry-After, the same answer for every account, known or not.',
    },
    failed: { type: 'final', description: 'Sign-in refused; context.error names why.' },
  },
})
