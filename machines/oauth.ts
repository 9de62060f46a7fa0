/**
 * The OAuth 2 / OpenID Connect authorization-code flow. It spans two requests: POST /signin/:provider builds the
 * authorization URL and waits (persisted in the flow store), GET or POST /callback/:provider resumes it, checks the
 * callback in its steps (authorization response, code exchange with the ID token, profile) and signs the user in.
 * Every way it can fail is a named transition.
 */
import { and, assign, not, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import {
  hasMatchingState,
  isAccountOfAnotherSignedInUser,
  isCallbackForFlowProvider,
  isCsrfVerified,
  isDangerousEmailLinkingAllowed,
  isUnprovenPasskeyAccount,
  isFlowExpired,
} from '../src/security/flow-guards.js'
import { command, type CommandContract, type CommandsOf } from './contract.js'
import {
  completionActions,
  completionCommands,
  completionContract,
  completionState,
  resolvingCallbackUrl,
  signInCompletion,
  signInOutput,
  type SignInOutput,
  type CompletionContext,
  type CompletionEvent,
  type FlowUser,
} from './sign-in-completion.js'

export interface OAuthContext extends CompletionContext {
  /** A random id for the audit trail, the same on both requests of one flow (not a secret: it grants nothing). */
  flowId?: string
  /** RFC 6749 §10.12 value, present when the provider's checks include `state`. */
  state?: string
  /** OIDC Core §3.1.2.1 value, present when the checks include `nonce`. */
  nonce?: string
  /** RFC 7636 verifier, present when the checks include `pkce`. */
  codeVerifier?: string
  /** The flow's own deadline (epoch seconds); the store's hard expiry is later, so this state can say "expired". */
  expiresAt?: number
  /** The provider's `allowDangerousEmailAccountLinking`, as configured when the callback arrived. */
  dangerousEmailLinking?: boolean
  /** A short, secret-free reason for the refusal (from the client layer's named check). */
  refusalReason?: string
  /** The callback request's time (epoch seconds), for the app's guards; never persisted (the flow ends in that request). */
  now?: number
  /** How often this sign-in resolved its user again after a racing sign-in of the same account got there first. */
  userResolveRetries?: number
}

export type OAuthEvent =
  | {
      type: 'SIGNIN_STARTED'
      flowId?: string
      providerId: string
      callbackUrl: string
      csrfVerified: boolean
      now: number
      expiresAt: number
      state?: string
      nonce?: string
      codeVerifier?: string
    }
  | CompletionEvent
  | { type: 'AUTHORIZATION_URL_BUILT' }
  | { type: 'AUTHORIZATION_URL_FAILED' }
  | { type: 'CALLBACK_RECEIVED'; providerId: string; state?: string; now: number; dangerousEmailLinking: boolean }
  | { type: 'AUTHORIZATION_RESPONSE_ACCEPTED' }
  | { type: 'PROVIDER_DENIED' }
  | { type: 'PROVIDER_UNREACHABLE' }
  | { type: 'AUTHORIZATION_RESPONSE_REFUSED'; check?: RefusalCheck; reason?: string }
  | { type: 'CODE_EXCHANGED' }
  | { type: 'PKCE_FAILED'; check?: RefusalCheck; reason?: string }
  | { type: 'TOKEN_EXCHANGE_FAILED' }
  | { type: 'ID_TOKEN_REFUSED'; check?: RefusalCheck; reason?: string }
  | { type: 'PROFILE_FETCHED'; user: FlowUser }
  | { type: 'USERINFO_FAILED' }
  | { type: 'USERINFO_REFUSED'; check?: RefusalCheck; reason?: string }
  | { type: 'PROFILE_REJECTED' }
  | { type: 'ACCOUNT_FOUND'; ownerId: string; signedInUserId?: string }
  | { type: 'SIGNED_IN_USER_FOUND' }
  | {
      type: 'EMAIL_MATCHED'
      /** The matched user holds a passkey and has not proven this address (never adopted by address). */
      unprovenPasskeyAccount?: boolean
    }
  | { type: 'USER_NOT_FOUND' }
  | { type: 'USER_CREATED' }
  | { type: 'USER_CREATE_FAILED' }
  | { type: 'ACCOUNT_LINKED' }
  | { type: 'ACCOUNT_LINK_FAILED' }
  | { type: 'ACCOUNT_LINK_AWAITED' }

/** The params of the commands that only need to know the provider. */
const providerOf = ({ context }: { context: OAuthContext }) => ({ providerId: context.providerId ?? '' })

/** Ends the sign-in from a step of the completion, refused with `error`. */
const endedWith = <E extends ErrorType>(error: E) =>
  ({ target: '#oauth.failed', actions: { type: 'fail', params: { error } } }) as const

const callbackError = { type: 'fail', params: { error: 'OAuthCallbackError' } } as const
/** A callback step that failed (Auth.js answers all of them `OAuthCallbackError`). */
const callbackFailed = { target: 'failed', actions: callbackError } as const
/** A callback step that refused: the same error, and the check that refused kept for the refusal log. */
const callbackRefused = { target: 'failed', actions: ['noteRefusal', callbackError] } as const

type CallbackChecks = { providerId: string; state?: string; nonce?: string; codeVerifier?: string }

/** The commands, declared once: their params type the handlers (src/effects/oauth/oauth-flow.ts). */
const commands = {
  ...completionCommands,
  buildAuthorizationUrl: command<CallbackChecks>(),
  checkAuthorizationResponse: command<CallbackChecks>(),
  exchangeCode: command<{ providerId: string }>(),
  fetchProfile: command<{ providerId: string }>(),
  resolveUser: command<{ providerId: string }>(),
  createUser: command<{ providerId: string }>(),
  linkAccount: command<{ providerId: string }>(),
  awaitAccountLink: command<{ providerId: string }>(),
}

export type OAuthCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const oauthContract = {
  ...completionContract,
  buildAuthorizationUrl: ['AUTHORIZATION_URL_BUILT', 'AUTHORIZATION_URL_FAILED'],
  checkAuthorizationResponse: [
    'AUTHORIZATION_RESPONSE_ACCEPTED',
    'PROVIDER_DENIED',
    'PROVIDER_UNREACHABLE',
    'AUTHORIZATION_RESPONSE_REFUSED',
  ],
  exchangeCode: ['CODE_EXCHANGED', 'PKCE_FAILED', 'TOKEN_EXCHANGE_FAILED', 'ID_TOKEN_REFUSED'],
  fetchProfile: ['PROFILE_FETCHED', 'ID_TOKEN_REFUSED', 'USERINFO_FAILED', 'USERINFO_REFUSED', 'PROFILE_REJECTED'],
  resolveUser: ['ACCOUNT_FOUND', 'SIGNED_IN_USER_FOUND', 'EMAIL_MATCHED', 'USER_NOT_FOUND'],
  createUser: ['USER_CREATED', 'USER_CREATE_FAILED'],
  linkAccount: ['ACCOUNT_LINKED', 'ACCOUNT_LINK_FAILED'],
  awaitAccountLink: ['ACCOUNT_LINK_AWAITED'],
} as const satisfies CommandContract<OAuthCommand, OAuthEvent>

/**
 * OAuth's step of the sign-in completion (machines/sign-in-completion.ts): who is this? An existing account signs
 * its owner in; a new one creates the user (a sign-up) or is linked to an existing one, by the linking rules.
 */
const userSteps = {
  resolvingUser: {
    description:
      'Who is this? An existing account, a new user, a link to the signed-in user, or an e-mail taken by another account.',
    entry: { type: 'resolveUser' as const, params: providerOf },
    on: {
      // The linking rules, as edges: a known account signs its owner in, unless someone else is signed in here.
      ACCOUNT_FOUND: [
        { guard: isAccountOfAnotherSignedInUser, ...endedWith('OAuthAccountNotLinked') },
        { target: 'checkingSecondFactor' as const },
      ],
      // Someone is signed in and the provider account is new: it is linked to them.
      SIGNED_IN_USER_FOUND: [
        { guard: { type: 'allowAccountLinking' as const }, target: 'linkingAccount' as const },
        endedWith('AccessDenied'),
      ],
      // The e-mail belongs to an existing user: linked only when the provider allows dangerous e-mail linking.
      EMAIL_MATCHED: [
        // The address may be that of a racing first sign-in of this very account, which created the user and is
        // about to link the account: wait for it once before refusing.
        {
          guard: and([not(isDangerousEmailLinkingAllowed), 'canResolveAgain']),
          target: 'waitingForAccountLink' as const,
        },
        { guard: not(isDangerousEmailLinkingAllowed), ...endedWith('OAuthAccountNotLinked') },
        // Even with dangerous linking: the address of a passkey account nobody proved says nothing about who holds
        // its passkey (src/effects/webauthn/unproven-passkey-account.ts).
        {
          guard: isUnprovenPasskeyAccount,
          target: '#oauth.failed',
          actions: {
            type: 'fail' as const,
            params: { error: 'OAuthAccountNotLinked' as const, check: 'unverified-passkey-account' as const },
          },
        },
        { guard: { type: 'allowAccountLinking' as const }, target: 'linkingAccount' as const },
        endedWith('AccessDenied'),
      ],
      USER_NOT_FOUND: [
        { guard: { type: 'allowUserCreation' as const }, target: 'creatingUser' as const },
        endedWith('AccessDenied'),
      ],
    },
  },
  creatingUser: {
    description: 'A new user and its account are created (createUser and linkAccount events).',
    entry: { type: 'createUser' as const, params: providerOf },
    on: {
      USER_CREATED: { target: 'checkingSecondFactor', actions: 'signedUp' as const },
      // Most often a racing first sign-in of the same account created the user (its address is taken) or linked
      // the account first: resolve once more, and this sign-in finds the account.
      USER_CREATE_FAILED: [
        { guard: 'canResolveAgain' as const, target: 'waitingForAccountLink' as const },
        endedWith('OAuthCreateAccount'),
      ],
    },
  },
  linkingAccount: {
    description: 'The provider account is linked to an existing user (linkAccount event).',
    entry: { type: 'linkAccount' as const, params: providerOf },
    on: {
      ACCOUNT_LINKED: { target: 'checkingSecondFactor' as const },
      // A racing sign-in of the same account may have linked it first: resolve once more.
      ACCOUNT_LINK_FAILED: [
        { guard: 'canResolveAgain' as const, target: 'waitingForAccountLink' as const },
        endedWith('OAuthAccountNotLinked'),
      ],
    },
  },
  waitingForAccountLink: {
    description:
      'Another sign-in of this account got there first: wait, briefly and boundedly, for it to link the account, then resolve once more.',
    entry: ['countResolveAgain' as const, { type: 'awaitAccountLink' as const, params: providerOf }],
    on: { ACCOUNT_LINK_AWAITED: { target: 'resolvingUser' as const } },
  },
}

export const oauthMachine = setup({
  types: {
    context: {} as OAuthContext,
    events: {} as OAuthEvent,
    emitted: {} as { type: 'authchart.none' },
    output: {} as SignInOutput,
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    /** Extension point: the app's last word before the user is resolved and the session issued. */
    allowSignIn: () => true,
    /** Extension point: may this sign-in create a new user? */
    allowUserCreation: () => true,
    /** Extension point: may this sign-in link the provider account to an existing user? */
    allowAccountLinking: () => true,
    /** The user is resolved again at most once per sign-in, so a failing database cannot keep the flow looping. */
    canResolveAgain: ({ context }) => (context.userResolveRetries ?? 0) < 1,
  },
  actions: {
    // Commands, run by the flow runtime with the handlers in src/effects/oauth/oauth-flow.ts.
    ...commands,
    ...completionActions<OAuthContext, OAuthEvent>(),
    /** The user was created in this sign-in: a sign-up. */
    signedUp: assign({ isNewUser: true }),
    countResolveAgain: assign(({ context }) => ({ userResolveRetries: (context.userResolveRetries ?? 0) + 1 })),
    // A refusal names its check, so the runtime logs it once under a stable code (docs/security.md).
    /** Keeps the check a command's result named (issuer, PKCE, nonce, ID token), for the refusal log. */
    noteRefusal: assign(({ event }) =>
      'check' in event && event.check ? { refusal: event.check, refusalReason: event.reason } : {},
    ),
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck }) =>
      params.check ? { error: params.error, refusal: params.check } : { error: params.error },
    ),
  },
}).createMachine({
  id: 'oauth',
  output: ({ context }) => signInOutput(context),
  context: {},
  initial: 'idle',
  states: {
    idle: {
      description: 'Waiting for the sign-in button to be posted.',
      on: {
        SIGNIN_STARTED: [
          {
            guard: isCsrfVerified,
            target: 'resolvingCallbackUrl',
            actions: assign(({ event }) => ({
              flowId: event.flowId,
              providerId: event.providerId,
              callbackUrl: event.callbackUrl,
              expiresAt: event.expiresAt,
              state: event.state,
              nonce: event.nonce,
              codeVerifier: event.codeVerifier,
            })),
          },
          {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ providerId: event.providerId })),
              { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
            ],
          },
        ],
      },
    },
    resolvingCallbackUrl: resolvingCallbackUrl('buildingAuthorizationUrl'),
    buildingAuthorizationUrl: {
      description: 'Discovery if needed, then the authorization URL with the PKCE challenge, state and nonce.',
      entry: {
        type: 'buildAuthorizationUrl',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          state: context.state,
          nonce: context.nonce,
          codeVerifier: context.codeVerifier,
        }),
      },
      on: {
        AUTHORIZATION_URL_BUILT: { target: 'awaitingCallback' },
        AUTHORIZATION_URL_FAILED: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'OAuthSignInError' } },
        },
      },
    },
    awaitingCallback: {
      description: 'The browser is at the provider; the flow waits, persisted, for the callback.',
      tags: ['awaitingBrowser'],
      on: {
        CALLBACK_RECEIVED: [
          {
            guard: isFlowExpired,
            target: 'failed',
            actions: { type: 'fail', params: { error: 'FlowRejected', check: 'flow-expired' } },
          },
          {
            guard: isCallbackForFlowProvider,
            target: 'checkingState',
            actions: assign(({ event }) => ({ now: event.now, dangerousEmailLinking: event.dangerousEmailLinking })),
          },
          {
            target: 'failed',
            actions: { type: 'fail', params: { error: 'OAuthCallbackError', check: 'provider-mismatch' } },
          },
        ],
      },
    },
    checkingState: {
      description: 'The state returned by the provider must be the one this browser was sent with.',
      always: [
        { guard: hasMatchingState, target: 'checkingAuthorizationResponse' },
        { target: 'failed', actions: { type: 'fail', params: { error: 'OAuthCallbackError', check: 'state' } } },
      ],
    },
    checkingAuthorizationResponse: {
      description:
        "The authorization response: the flow's state, nonce and PKCE values, the provider's metadata, the callback's iss, state, error and code.",
      entry: {
        type: 'checkAuthorizationResponse',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          state: context.state,
          nonce: context.nonce,
          codeVerifier: context.codeVerifier,
        }),
      },
      on: {
        // From here on the values live only in this request's handlers (the verifier is a secret).
        AUTHORIZATION_RESPONSE_ACCEPTED: {
          target: 'exchangingCode',
          actions: assign({ state: undefined, nonce: undefined, codeVerifier: undefined }),
        },
        PROVIDER_DENIED: callbackFailed,
        PROVIDER_UNREACHABLE: callbackFailed,
        AUTHORIZATION_RESPONSE_REFUSED: callbackRefused,
      },
    },
    exchangingCode: {
      description:
        'The code exchanged at the token endpoint with the PKCE verifier; the token response and its ID token (OIDC) checked as they arrive.',
      entry: { type: 'exchangeCode', params: providerOf },
      on: {
        CODE_EXCHANGED: { target: 'fetchingProfile' },
        PKCE_FAILED: callbackRefused,
        TOKEN_EXCHANGE_FAILED: callbackFailed,
        ID_TOKEN_REFUSED: callbackRefused,
      },
    },
    fetchingProfile: {
      description:
        "The profile from the verified ID token or the userinfo endpoint, mapped by the provider's profile().",
      entry: { type: 'fetchProfile', params: providerOf },
      on: {
        PROFILE_FETCHED: { target: completionState, actions: assign(({ event }) => ({ user: event.user })) },
        ID_TOKEN_REFUSED: callbackRefused,
        USERINFO_FAILED: callbackFailed,
        USERINFO_REFUSED: callbackRefused,
        PROFILE_REJECTED: { target: 'failed', actions: { type: 'fail', params: { error: 'OAuthProfileParseError' } } },
      },
    },
    completingSignIn: signInCompletion('oauth', { initial: 'resolvingUser', states: userSteps }),
    signedIn: {
      type: 'final',
      description: 'Session issued; the browser goes to the callback URL (or the new-user page).',
    },
    redirected: { type: 'final', description: 'The signIn callback sent the user to another page; no session.' },
    failed: { type: 'final', description: 'Sign-in refused; context.error names why.' },
  },
})
