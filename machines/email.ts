/**
 * The e-mail link sign-in flow. Its two halves are separate requests, perhaps on separate devices, so the machine is
 * run once per request and never persisted: between the halves the flow's state is the hashed verification token in
 * the adapter, which is consumed exactly once.
 *
 * - Request: the form is posted → the address is normalised and checked → the request limits are counted → the
 *   `signIn` callback (with `email.verificationRequest`) → a token is stored → the message is sent → verify-request.
 * - Link: a GET shows a one-click confirmation page and consumes nothing (mail scanners fetch links before people
 *   do); the page's POST consumes the token → the user is found → `signIn` → a user found has its `emailVerified`
 *   set, else the user is created (a sign-up) → the session. `consumeOnGet` restores Auth.js's behaviour of consuming on the GET itself.
 */
import { and, assign, not, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import {
  isCsrfVerified,
  isSignedInAsFoundUser,
  isSingleMailAddress,
  isUnprovenPasskeyAccount,
  isVerificationTokenExpired,
  isVerificationTokenForLinkAddress,
  isWithinAddressCeiling,
  isWithinAddressRequestLimit,
  isWithinClientRequestLimit,
} from '../src/security/flow-guards.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'
import {
  completionActions,
  completionCommands,
  completionContract,
  completionState,
  resolvingCallbackUrl,
  signInCallbackStep,
  signInCompletion,
  signInOutput,
  type SignInOutput,
  type CompletionContext,
  type CompletionEvent,
  type FlowUser,
} from './sign-in-completion.js'

export interface EmailContext extends CompletionContext {
  /** The address as normalised (request), or as the stored token names it (link). */
  identifier?: string
  /** The address the followed link carries (`email=`), when it carries one. */
  linkIdentifier?: string
  /**
   * The limits on requests within the window: from this client, for this address from this client, and for this
   * address from every client. Each is counted only once the one before it is within its limit, so a client over
   * its own limit spends nobody's address budget.
   */
  clientLimit?: number
  addressLimit?: number
  addressCeiling?: number
  /** When the consumed token expired (epoch seconds). */
  tokenExpiresAt?: number
  refusalReason?: string
  now: number
}

export type EmailEvent =
  | {
      type: 'SIGNIN_REQUESTED'
      providerId: string
      callbackUrl: string
      csrfVerified: boolean
      now: number
      addressLimit: number
      clientLimit: number
      addressCeiling: number
    }
  | {
      type: 'LINK_FOLLOWED'
      providerId: string
      callbackUrl: string
      linkIdentifier?: string
      hasToken: boolean
      consumeOnGet: boolean
      now: number
    }
  | {
      type: 'LINK_CONFIRMED'
      providerId: string
      callbackUrl: string
      linkIdentifier?: string
      hasToken: boolean
      csrfVerified: boolean
      now: number
    }
  | CompletionEvent
  | { type: 'IDENTIFIER_NORMALISED'; identifier: string; customRule: boolean }
  | { type: 'IDENTIFIER_REJECTED' }
  | { type: 'REQUESTS_COUNTED'; count: number }
  | { type: 'REQUEST_COUNT_FAILED' }
  | { type: 'TOKEN_STORED' }
  | { type: 'TOKEN_STORE_FAILED' }
  | { type: 'MAIL_SENT' }
  | { type: 'MAIL_FAILED' }
  | { type: 'TOKEN_CONSUMED'; identifier: string; expiresAt: number }
  | { type: 'TOKEN_NOT_FOUND' }
  | { type: 'TOKEN_LOOKUP_FAILED' }
  | {
      type: 'USER_FOUND'
      user: FlowUser
      /** The user holds a passkey and has not proven this address. */
      unprovenPasskeyAccount?: boolean
      /** The user of the session this browser already has, reported with `unprovenPasskeyAccount`. */
      signedInUserId?: string
    }
  | { type: 'USER_NOT_FOUND' }
  | { type: 'USER_LOOKUP_FAILED' }
  | { type: 'USER_SAVED'; user: FlowUser }
  | { type: 'USER_SAVE_FAILED' }

/** What one count is kept under: the client, this address from this client, or this address from every client. */
export type RequestCountScope = 'client' | 'address-from-client' | 'address'

/** The commands, declared once: their params type the handlers (src/effects/email.ts). */
const commands = {
  ...completionCommands,
  normalizeIdentifier: command<{ providerId: string }>(),
  countSignInRequest: command<{ identifier: string; scope: RequestCountScope }>(),
  storeVerificationToken: command<{ providerId: string; identifier: string }>(),
  /** `callbackUrl`: where the link leads once followed, as the redirect callback decided. */
  sendVerificationRequest: command<{ providerId: string; identifier: string; callbackUrl: string }>(),
  consumeVerificationToken: command<{ providerId: string }>(),
  findUser: command<{ identifier: string }>(),
  createVerifiedUser: command<{ identifier: string }>(),
  markEmailVerified: command<{ userId: string }>(),
}

export type EmailCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const emailContract = {
  ...completionContract,
  normalizeIdentifier: ['IDENTIFIER_NORMALISED', 'IDENTIFIER_REJECTED'],
  countSignInRequest: ['REQUESTS_COUNTED', 'REQUEST_COUNT_FAILED'],
  storeVerificationToken: ['TOKEN_STORED', 'TOKEN_STORE_FAILED'],
  sendVerificationRequest: ['MAIL_SENT', 'MAIL_FAILED'],
  consumeVerificationToken: ['TOKEN_CONSUMED', 'TOKEN_NOT_FOUND', 'TOKEN_LOOKUP_FAILED'],
  findUser: ['USER_FOUND', 'USER_NOT_FOUND', 'USER_LOOKUP_FAILED'],
  createVerifiedUser: ['USER_SAVED', 'USER_SAVE_FAILED'],
  markEmailVerified: ['USER_SAVED', 'USER_SAVE_FAILED'],
} as const satisfies CommandContract<EmailCommand, EmailEvent>

/**
 * One of the three request counts: counted on entry, then on to `next` when `within` holds, else throttled. Each
 * count is made only once the one before it is within its limit.
 */
const countingState = <Next extends string>(state: {
  description: string
  scope: RequestCountScope
  within: (args: { context: object; event: object }) => boolean
  next: Next
  limit: string
}) => ({
  description: state.description,
  entry: {
    type: 'countSignInRequest' as const,
    params: ({ context }: { context: EmailContext }) => ({ identifier: context.identifier ?? '', scope: state.scope }),
  },
  on: {
    REQUESTS_COUNTED: [{ guard: state.within, target: state.next }, throttledBy(state.limit)],
    REQUEST_COUNT_FAILED: requestCountFailed,
  },
})

const throttledBy = (limit: string) => ({
  target: 'throttled' as const,
  actions: { type: 'throttle' as const, params: { limit } },
})

const requestCountFailed = {
  target: 'failed' as const,
  actions: { type: 'fail' as const, params: { error: 'EmailSignInError' as const } },
}

/** The adapter refused to save the user (an outage is not this: it answers 503 before the machine hears of it). */
const saveFailed = {
  target: '#email.failed' as const,
  actions: { type: 'fail' as const, params: { error: 'EmailCreateAccount' as const } },
}

const refusedToken = (reason: string) => ({
  type: 'fail' as const,
  params: { error: 'Verification' as const, check: 'verification-token' as const, reason },
})

/** No address this sign-in can mail: refused as `EmailSignInError`, the reason kept for the refusal log. */
const refusedAddress = (reason: string) => ({
  target: 'failed' as const,
  actions: {
    type: 'fail' as const,
    params: { error: 'EmailSignInError' as const, check: 'email-address' as const, reason },
  },
})

export const emailMachine = setup({
  types: {
    context: {} as EmailContext,
    events: {} as EmailEvent,
    // Machines emit nothing; declared so parameterised assigns type-check.
    emitted: {} as { type: 'authchart.none' },
    output: {} as SignInOutput,
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    /** Extension point: the app's last word before a link is sent, and again before the session is issued. */
    allowSignIn: () => true,
    /** Extension point: whether a first e-mail sign-in may create the user. */
    allowUserCreation: () => true,
    /** The app asked for Auth.js's consume-on-GET (the link works in one click, and scanners can burn it). */
    consumesOnGet: ({ event }) => event.type === 'LINK_FOLLOWED' && event.consumeOnGet,
    /** No user had this address when it was looked up (`USER_NOT_FOUND`): this sign-in creates it, a sign-up. */
    isSignUp: ({ context }) => context.isNewUser === true,
    /** The link carries a token at all (a hand-typed or truncated link does not). */
    linkHasToken: ({ event }) => (event.type === 'LINK_FOLLOWED' || event.type === 'LINK_CONFIRMED') && event.hasToken,
  },
  actions: {
    // Commands: run by the flow runtime with the handlers in src/effects/email/email-flow.ts.
    ...commands,
    ...completionActions<EmailContext, EmailEvent>(),
    /** The user as saved (a created user's id is the adapter's). */
    keepSavedUser: assign(({ event }) => (event.type === 'USER_SAVED' ? { user: event.user } : {})),
    /** What a followed or confirmed link carries (never its token). */
    rememberLink: assign(({ event }) =>
      event.type === 'LINK_FOLLOWED' || event.type === 'LINK_CONFIRMED'
        ? {
            providerId: event.providerId,
            callbackUrl: event.callbackUrl,
            linkIdentifier: event.linkIdentifier,
            now: event.now,
          }
        : {},
    ),
    /** Over a request limit: not an error (the browser must not tell it from a sent link), a logged refusal naming the limit. */
    throttle: assign((_, params: { limit: string }) => ({
      refusal: 'rate-limit' as const,
      refusalReason: `too many sign-in requests in the window: ${params.limit}`,
    })),
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck; reason?: string }) =>
      params.check
        ? { error: params.error, refusal: params.check, ...(params.reason ? { refusalReason: params.reason } : {}) }
        : { error: params.error },
    ),
  },
}).createMachine({
  id: 'email',
  output: ({ context }) => signInOutput(context),
  context: { now: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'Waiting for the sign-in form, a followed link, or a confirmed link.',
      on: {
        SIGNIN_REQUESTED: [
          {
            guard: isCsrfVerified,
            target: 'resolvingCallbackUrl',
            actions: assign(({ event }) => ({
              providerId: event.providerId,
              callbackUrl: event.callbackUrl,
              now: event.now,
              addressLimit: event.addressLimit,
              clientLimit: event.clientLimit,
              addressCeiling: event.addressCeiling,
            })),
          },
          {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId, now: event.now })),
              { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
            ],
          },
        ],
        LINK_FOLLOWED: [
          { guard: { type: 'linkHasToken' }, target: 'choosingConfirmation', actions: 'rememberLink' },
          { target: 'failed', actions: ['rememberLink', refusedToken('link without a token')] },
        ],
        LINK_CONFIRMED: [
          { guard: isCsrfVerified, target: 'checkingLinkToken', actions: 'rememberLink' },
          {
            target: 'failed',
            actions: ['rememberLink', { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } }],
          },
        ],
      },
    },
    choosingConfirmation: {
      description: 'A followed link is shown a confirmation page, unless the app restored consume-on-GET.',
      always: [{ guard: 'consumesOnGet', target: 'resolvingLinkCallbackUrl' }, { target: 'awaitingConfirmation' }],
    },
    awaitingConfirmation: {
      type: 'final',
      description: 'The one-click confirmation page is shown; no token was consumed (a mail scanner stops here).',
    },
    checkingLinkToken: {
      description: 'A confirmation must carry the token from the link.',
      always: [
        { guard: 'linkHasToken', target: 'resolvingLinkCallbackUrl' },
        { target: 'failed', actions: refusedToken('confirmation without a token') },
      ],
    },
    resolvingCallbackUrl: resolvingCallbackUrl('normalisingIdentifier'),
    normalisingIdentifier: {
      description:
        "The address is normalised (trimmed, lower-cased; or the provider's normalizeIdentifier) and must be one single address.",
      entry: { type: 'normalizeIdentifier', params: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      on: {
        IDENTIFIER_NORMALISED: [
          // The address is the user as far as the app's guards can know before the link is followed.
          {
            guard: isSingleMailAddress,
            target: 'countingClientRequests',
            actions: assign(({ event }) => ({ identifier: event.identifier, user: { email: event.identifier } })),
          },
          refusedAddress('not one single address'),
        ],
        IDENTIFIER_REJECTED: refusedAddress('normalizeIdentifier refused the address'),
      },
    },
    countingClientRequests: countingState({
      description:
        'Requests from this client are counted first: a client over its limit is throttled before it can spend any address budget.',
      scope: 'client',
      within: isWithinClientRequestLimit,
      next: 'countingAddressRequests',
      limit: 'per-client limit',
    }),
    countingAddressRequests: countingState({
      description:
        "Requests for this address from this client: a stranger's requests for someone's address spend the stranger's budget, not the owner's.",
      scope: 'address-from-client',
      within: isWithinAddressRequestLimit,
      next: 'countingAddressCeiling',
      limit: 'per-address limit from this client',
    }),
    countingAddressCeiling: countingState({
      description: 'Requests for this address from every client stay under a ceiling, so no inbox can be flooded.',
      scope: 'address',
      within: isWithinAddressCeiling,
      next: 'checkingSignInRequest',
      limit: 'per-address ceiling across clients',
    }),
    checkingSignInRequest: signInCallbackStep({
      description: 'The signIn callback (email.verificationRequest: true) may allow, deny, or send the user elsewhere.',
      next: 'storingToken',
      failed: 'failed',
      // The completion's one definition of it: the URL still passes the redirect callback.
      redirect: `${completionState}.resolvingSignInRedirect`,
      verificationRequest: true,
    }),
    storingToken: {
      description: 'A fresh token is created; its hash (with the secret) is stored with its expiry.',
      entry: {
        type: 'storeVerificationToken',
        params: ({ context }) => ({ providerId: context.providerId ?? '', identifier: context.identifier ?? '' }),
      },
      on: {
        TOKEN_STORED: { target: 'sendingMail' },
        TOKEN_STORE_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'EmailSignInError' } } },
      },
    },
    sendingMail: {
      description: "The provider's sendVerificationRequest delivers the link.",
      entry: {
        type: 'sendVerificationRequest',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          identifier: context.identifier ?? '',
          callbackUrl: context.callbackUrl ?? '',
        }),
      },
      on: {
        MAIL_SENT: { target: 'verificationSent' },
        MAIL_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'EmailSignInError' } } },
      },
    },
    verificationSent: {
      type: 'final',
      description: 'The link is on its way; the browser is shown the verify-request page.',
    },
    throttled: {
      type: 'final',
      description: 'Over a request limit: no mail, and the browser sees the same verify-request page (no oracle).',
    },
    resolvingLinkCallbackUrl: resolvingCallbackUrl('consumingToken'),
    consumingToken: {
      description: 'The stored token is looked up by its hash and deleted in one step: it works once.',
      entry: { type: 'consumeVerificationToken', params: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      on: {
        TOKEN_CONSUMED: [
          {
            guard: isVerificationTokenExpired,
            target: 'failed',
            actions: [assign(({ event }) => ({ tokenExpiresAt: event.expiresAt })), refusedToken('token expired')],
          },
          {
            guard: isVerificationTokenForLinkAddress,
            target: 'findingUser',
            actions: assign(({ event }) => ({
              identifier: event.identifier,
              tokenExpiresAt: event.expiresAt,
              user: { email: event.identifier },
            })),
          },
          { target: 'failed', actions: refusedToken('token of another address') },
        ],
        TOKEN_NOT_FOUND: { target: 'failed', actions: refusedToken('token unknown or already used') },
        TOKEN_LOOKUP_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'Verification' } } },
      },
    },
    findingUser: {
      description: 'The user with this address, if there is one.',
      entry: { type: 'findUser', params: ({ context }) => ({ identifier: context.identifier ?? '' }) },
      on: {
        USER_FOUND: [
          // A passkey account made for this address by someone who never proved it: the mailbox owner must not land
          // in it (src/effects/webauthn/unproven-passkey-account.ts). From its own session the person holds both the
          // passkey and the mailbox, and this sign-in verifies the address.
          {
            guard: and([isUnprovenPasskeyAccount, not(isSignedInAsFoundUser)]),
            target: 'failed',
            actions: { type: 'fail', params: { error: 'OAuthAccountNotLinked', check: 'unverified-passkey-account' } },
          },
          {
            target: completionState,
            actions: assign(({ event }) => ({ user: event.user, isNewUser: false })),
          },
        ],
        USER_NOT_FOUND: [
          {
            guard: { type: 'allowUserCreation' },
            target: completionState,
            actions: assign(({ context }) => ({ user: { email: context.identifier }, isNewUser: true })),
          },
          { target: 'failed', actions: { type: 'fail', params: { error: 'AccessDenied' } } },
        ],
        USER_LOOKUP_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'Verification' } } },
      },
    },
    completingSignIn: signInCompletion('email', {
      initial: 'savingUser',
      states: {
        savingUser: {
          description:
            'The address is now verified: a first e-mail sign-in creates the user (a sign-up), a later one sets its emailVerified.',
          always: [{ guard: 'isSignUp' as const, target: 'creatingUser' }, { target: 'markingVerified' }],
        },
        creatingUser: {
          description: 'The user is created with this address, verified now, and the createUser event sent.',
          entry: {
            type: 'createVerifiedUser' as const,
            params: ({ context }: { context: EmailContext }) => ({ identifier: context.identifier ?? '' }),
          },
          on: {
            USER_SAVED: { target: 'checkingSecondFactor', actions: 'keepSavedUser' as const },
            USER_SAVE_FAILED: saveFailed,
          },
        },
        markingVerified: {
          description: "The found user's emailVerified is set to now, and the updateUser event sent.",
          entry: {
            type: 'markEmailVerified' as const,
            params: ({ context }: { context: EmailContext }) => ({ userId: context.user?.id ?? '' }),
          },
          on: {
            USER_SAVED: { target: 'checkingSecondFactor', actions: 'keepSavedUser' as const },
            USER_SAVE_FAILED: saveFailed,
          },
        },
      },
    }),
    signedIn: { type: 'final', description: 'Session issued; the browser goes to the callback URL.' },
    redirected: {
      type: 'final',
      description: 'The signIn callback sent the user to another page; no link sent or no session.',
    },
    failed: { type: 'final', description: 'Refused; context.error names why.' },
  },
})
