/**
 * The WebAuthn (passkey) flow, over two requests. GET /webauthn-options/:provider decides between registering a new
 * passkey and signing in with one, builds the options for the browser and waits, persisted in the flow store, with
 * the challenge in its context. POST /callback/:provider resumes it: the challenge is claimed once, the response is
 * verified (origin, RP id, challenge, signature; the counter is a guard here) and the new counter stored
 * (authentication); then the shared sign-in completion (machines/sign-in-completion.ts): the `signIn` callback, the
 * new passkey stored with its user and account (registration: the completion's user step), the session, the event.
 */
import { and, assign, not, setup } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import {
  isCallbackForFlowProvider,
  isCsrfVerified,
  isFlowExpired,
  isAuthenticatorCounterRegressed,
  isRegistrationForCurrentSession,
  isResponseForFlowAction,
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

export type WebAuthnAction = 'register' | 'authenticate'

/** The user a passkey is registered for, or the one found by the options request. */
export type WebAuthnFlowUser = FlowUser

/** `user` is the one signing in; `isNewUser` is set when the registration created it (a sign-up). */
export interface WebAuthnContext extends CompletionContext {
  flowId?: string
  /** What the browser asked for (`action` query), if anything. */
  requested?: WebAuthnAction
  /** The id of the user signed in when the options were asked for: such a user can only add a passkey. */
  signedInUserId?: string
  /** What the flow decided, and what the response must be. */
  action?: WebAuthnAction
  /** base64url challenge the browser signs; single-use. */
  challenge?: string
  /** Epoch seconds after which the challenge is refused. */
  expiresAt?: number
  /** Who the options request was about (e-mail, name; id only for the signed-in user). */
  subject?: WebAuthnFlowUser
  /**
   * A signed-out registration named a user that is already stored. The options do not say so (they are the same as
   * for a new address); the callback refuses it once the ceremony is done.
   */
  subjectStored?: boolean
  /** The counter stored for the credential presented (authentication). */
  storedCounter?: number
  refusalReason?: string
  now?: number
}

export type WebAuthnEvent =
  | {
      type: 'OPTIONS_REQUESTED'
      flowId?: string
      providerId: string
      requested?: WebAuthnAction
      signedInUserId?: string
      challenge: string
      now: number
      expiresAt: number
    }
  | { type: 'USER_INFO_FOUND'; user: WebAuthnFlowUser; exists: boolean }
  | { type: 'USER_INFO_NONE' }
  | { type: 'USER_INFO_FAILED' }
  | { type: 'OPTIONS_BUILT' }
  | { type: 'OPTIONS_FAILED' }
  | {
      type: 'RESPONSE_RECEIVED'
      providerId: string
      action?: string
      callbackUrl: string
      csrfVerified: boolean
      /** The user signed in when the response arrived: a registration must finish in the session that began it. */
      signedInUserId?: string
      now: number
    }
  | CompletionEvent
  | { type: 'CHALLENGE_CLAIMED' }
  | { type: 'CHALLENGE_SPENT' }
  | { type: 'REGISTRATION_VERIFIED' }
  | { type: 'CREDENTIAL_TAKEN' }
  | { type: 'CREDENTIAL_FOUND'; storedCounter: number; user: WebAuthnFlowUser }
  | { type: 'CREDENTIAL_UNKNOWN' }
  | { type: 'ASSERTION_VERIFIED'; newCounter: number }
  | { type: 'VERIFICATION_FAILED'; reason: string }
  | { type: 'COUNTER_UPDATED' }
  /** Whether a stored user holds the address a signed-out registration named, looked up again at the callback. */
  | { type: 'ADDRESS_CHECKED'; taken: boolean }
  | { type: 'REGISTRATION_SAVED'; user: WebAuthnFlowUser; isNewUser: boolean }
  | { type: 'SAVE_FAILED' }

/** The commands, declared once: their params type the handlers (src/effects/webauthn.ts). */
const commands = {
  ...completionCommands,
  lookUpUser: command<{ providerId: string; signedInUserId?: string }>(),
  buildRegistrationOptions: command<{ providerId: string; challenge: string; user: WebAuthnFlowUser }>(),
  buildAuthenticationOptions: command<{ providerId: string; challenge: string; userId?: string }>(),
  claimChallenge: command<{ challenge: string; expiresAt: number }>(),
  verifyRegistration: command<{ providerId: string; challenge: string }>(),
  findCredential: command<{ providerId: string }>(),
  verifyAuthentication: command<{ providerId: string; challenge: string }>(),
  updateCounter: command<{ newCounter: number }>(),
  lookUpAddress: command<{ email: string }>(),
  saveRegistration: command<{ providerId: string; user: WebAuthnFlowUser; signedInUserId?: string }>(),
}

export type WebAuthnCommand = CommandsOf<typeof commands>

/** What each command's handler may answer. */
export const webAuthnContract = {
  ...completionContract,
  lookUpUser: ['USER_INFO_FOUND', 'USER_INFO_NONE', 'USER_INFO_FAILED'],
  buildRegistrationOptions: ['OPTIONS_BUILT', 'OPTIONS_FAILED'],
  buildAuthenticationOptions: ['OPTIONS_BUILT', 'OPTIONS_FAILED'],
  claimChallenge: ['CHALLENGE_CLAIMED', 'CHALLENGE_SPENT'],
  verifyRegistration: ['REGISTRATION_VERIFIED', 'CREDENTIAL_TAKEN', 'VERIFICATION_FAILED'],
  findCredential: ['CREDENTIAL_FOUND', 'CREDENTIAL_UNKNOWN'],
  verifyAuthentication: ['ASSERTION_VERIFIED', 'VERIFICATION_FAILED'],
  updateCounter: ['COUNTER_UPDATED'],
  lookUpAddress: ['ADDRESS_CHECKED'],
  saveRegistration: ['REGISTRATION_SAVED', 'SAVE_FAILED'],
} as const satisfies CommandContract<WebAuthnCommand, WebAuthnEvent>

type Args = { context: WebAuthnContext; event: WebAuthnEvent }

/** A signed-in user can only add a passkey to their own account. */
function isSignedIn({ context }: Args): boolean {
  return typeof context.signedInUserId === 'string'
}

/** The browser asked for authentication (`action=authenticate`). */
function askedToAuthenticate({ context }: Args): boolean {
  return context.requested === 'authenticate'
}

/** The browser asked for registration (`action=register`). */
function askedToRegister({ context }: Args): boolean {
  return context.requested === 'register'
}

/** A signed-out registration for a user already stored: refused at the callback, never told at the options. */
function isForStoredSubject({ context }: Args): boolean {
  return context.subjectStored === true
}

/**
 * What the options of a signed-out request may carry about the user it named: what the request itself said. For a
 * stored user that is the address (or, without one, the name) it was looked up by, never its stored display name.
 */
function requestedSubject(user: WebAuthnFlowUser, stored: boolean): WebAuthnFlowUser {
  if (!stored) return { email: user.email, name: user.name }
  return user.email ? { email: user.email } : { name: user.name }
}

function isRegistering({ context }: Args): boolean {
  return context.action === 'register'
}

/** A registration that creates its user: signed out, naming an address (a signed-in user adds a passkey to itself). */
function createsUserForAddress({ context }: Args): boolean {
  return (
    context.action === 'register' &&
    !context.signedInUserId &&
    typeof context.user?.email === 'string' &&
    context.user.email !== ''
  )
}

/**
 * The address a signed-out registration named was free when the options were built (a stored one is refused before,
 * isForStoredSubject) and has been taken since: no second user is created for it.
 */
function isAddressTakenSinceOptions({ event }: Args): boolean {
  return event.type === 'ADDRESS_CHECKED' && event.taken
}

/**
 * The passkey's step of the sign-in completion (machines/sign-in-completion.ts), once the `signIn` callback allowed
 * it: a new passkey is stored with its user and account; a passkey that signed in has nothing left to store (its
 * counter was stored before the completion).
 */
const passkeySteps = {
  choosingPasskeyStep: {
    description: 'A registration stores the new passkey before the session; an authentication goes on to the session.',
    always: [
      { guard: createsUserForAddress, target: 'checkingAddress' as const },
      { guard: isRegistering, target: 'savingRegistration' as const },
      { target: 'checkingSecondFactor' as const },
    ],
  },
  checkingAddress: {
    description:
      'The address a signed-out registration names is looked up again: it may have been taken since the options were built.',
    entry: {
      type: 'lookUpAddress' as const,
      params: ({ context }: { context: WebAuthnContext }) => ({ email: context.user?.email ?? '' }),
    },
    on: {
      ADDRESS_CHECKED: [
        {
          guard: isAddressTakenSinceOptions,
          target: '#webauthn.failed',
          actions: {
            type: 'fail' as const,
            params: { error: 'WebAuthnVerificationError' as const, check: 'webauthn-registration' as const },
          },
        },
        { target: 'savingRegistration' as const },
      ],
    },
  },
  savingRegistration: {
    description:
      'User (unless signed in; createUser event), account of type "webauthn" (linkAccount event) and authenticator are stored.',
    entry: {
      type: 'saveRegistration' as const,
      params: ({ context }: { context: WebAuthnContext }) => ({
        providerId: context.providerId ?? '',
        user: context.user ?? {},
        signedInUserId: context.signedInUserId,
      }),
    },
    on: {
      REGISTRATION_SAVED: { target: 'checkingSecondFactor' as const, actions: 'keepSavedRegistration' as const },
      SAVE_FAILED: {
        target: '#webauthn.failed',
        actions: { type: 'fail' as const, params: { error: 'AdapterError' as const } },
      },
    },
  },
}

const verificationFailed = [
  'noteVerificationFailure',
  { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-verification' } },
] as const

export const webAuthnMachine = setup({
  types: {
    context: {} as WebAuthnContext,
    events: {} as WebAuthnEvent,
    emitted: {} as { type: 'authchart.none' },
    output: {} as SignInOutput,
  },
  // Security checks are not listed here: they are inline guards (src/security/flow-guards.ts) that provide() cannot replace.
  guards: {
    /** Extension point: the app's last word before the passkey is stored or the session issued. */
    allowSignIn: () => true,
  },
  actions: {
    ...commands,
    ...completionActions<WebAuthnContext, WebAuthnEvent>(),
    /** The stored user, and whether the registration created it (a sign-up). */
    keepSavedRegistration: assign(({ event }) =>
      event.type === 'REGISTRATION_SAVED' ? { user: event.user, isNewUser: event.isNewUser } : {},
    ),
    /** Keeps why verification failed (the library's message), for the refusal log line. */
    noteVerificationFailure: assign(({ event }) =>
      event.type === 'VERIFICATION_FAILED' ? { refusalReason: event.reason } : {},
    ),
    fail: assign((_, params: { error: ErrorType; check?: RefusalCheck }) =>
      params.check ? { error: params.error, refusal: params.check } : { error: params.error },
    ),
  },
}).createMachine({
  id: 'webauthn',
  output: ({ context }) => signInOutput(context),
  context: {},
  initial: 'idle',
  states: {
    idle: {
      description: 'Waiting for the browser to ask for passkey options.',
      on: {
        OPTIONS_REQUESTED: {
          target: 'lookingUpUser',
          actions: assign(({ event }) => ({
            flowId: event.flowId,
            providerId: event.providerId,
            requested: event.requested,
            signedInUserId: event.signedInUserId,
            challenge: event.challenge,
            now: event.now,
            expiresAt: event.expiresAt,
          })),
        },
      },
    },
    lookingUpUser: {
      description: 'Who the request is about: the signed-in user, the user the form names (getUserInfo), or nobody.',
      entry: {
        type: 'lookUpUser',
        params: ({ context }) => ({ providerId: context.providerId ?? '', signedInUserId: context.signedInUserId }),
      },
      on: {
        // Signed out, the answer depends on the request alone, never on what is stored: the same options whether the
        // address has an account or not, and no credential ids (discoverable passkeys need none).
        USER_INFO_FOUND: [
          // Signed in: the user's own passkeys may be listed.
          {
            guard: and([askedToAuthenticate, isSignedIn]),
            target: 'buildingAuthenticationOptions',
            actions: assign(({ event }) => ({ action: 'authenticate' as const, subject: event.user })),
          },
          {
            guard: askedToAuthenticate,
            target: 'buildingAuthenticationOptions',
            actions: assign({ action: 'authenticate' as const }),
          },
          // Signed in: the passkey goes to that user.
          {
            guard: isSignedIn,
            target: 'buildingRegistrationOptions',
            actions: assign(({ event }) => ({ action: 'register' as const, subject: event.user })),
          },
          // Signed out, naming someone: registration options, whether or not they are stored. A stored user is
          // refused at the callback (isForStoredSubject), so nobody can attach a passkey to someone else's account
          // by typing their e-mail, and the options do not tell whether the account exists.
          {
            target: 'buildingRegistrationOptions',
            actions: assign(({ event }) => ({
              action: 'register' as const,
              subject: requestedSubject(event.user, event.exists),
              subjectStored: event.exists,
            })),
          },
        ],
        USER_INFO_NONE: [
          {
            guard: askedToRegister,
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-registration' } },
          },
          { target: 'buildingAuthenticationOptions', actions: assign({ action: 'authenticate' as const }) },
        ],
        USER_INFO_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'AdapterError' } } },
      },
    },
    buildingRegistrationOptions: {
      description:
        'Creation options for navigator.credentials.create(): relying party, user, challenge, passkeys already held excluded.',
      entry: {
        type: 'buildRegistrationOptions',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          challenge: context.challenge ?? '',
          user: context.subject ?? {},
        }),
      },
      on: {
        OPTIONS_BUILT: { target: 'awaitingResponse' },
        OPTIONS_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'WebAuthnVerificationError' } } },
      },
    },
    buildingAuthenticationOptions: {
      description:
        "Request options for navigator.credentials.get(): challenge, RP id, the named user's passkeys or discoverable ones.",
      entry: {
        type: 'buildAuthenticationOptions',
        params: ({ context }) => ({
          providerId: context.providerId ?? '',
          challenge: context.challenge ?? '',
          userId: context.subject?.id,
        }),
      },
      on: {
        OPTIONS_BUILT: { target: 'awaitingResponse' },
        OPTIONS_FAILED: { target: 'failed', actions: { type: 'fail', params: { error: 'WebAuthnVerificationError' } } },
      },
    },
    awaitingResponse: {
      description: 'The browser talks to the authenticator; the flow waits, persisted, with the challenge.',
      tags: ['awaitingBrowser'],
      on: {
        RESPONSE_RECEIVED: [
          {
            guard: isFlowExpired,
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-challenge' } },
          },
          {
            guard: not(isCsrfVerified),
            target: 'failed',
            actions: { type: 'fail', params: { error: 'MissingCSRF', check: 'csrf' } },
          },
          {
            guard: not(isCallbackForFlowProvider),
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'provider-mismatch' } },
          },
          {
            guard: not(isResponseForFlowAction),
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-verification' } },
          },
          {
            guard: not(isRegistrationForCurrentSession),
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-session' } },
          },
          {
            target: 'resolvingCallbackUrl',
            actions: assign(({ event }) => ({ now: event.now, callbackUrl: event.callbackUrl })),
          },
        ],
      },
    },
    resolvingCallbackUrl: resolvingCallbackUrl('claimingChallenge'),
    claimingChallenge: {
      description: 'The challenge is spent before anything is verified: a second answer to it is a replay.',
      entry: {
        type: 'claimChallenge',
        params: ({ context }) => ({ challenge: context.challenge ?? '', expiresAt: context.expiresAt ?? 0 }),
      },
      on: {
        CHALLENGE_CLAIMED: [{ guard: isRegistering, target: 'verifyingRegistration' }, { target: 'findingCredential' }],
        CHALLENGE_SPENT: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-challenge' } },
        },
      },
    },
    verifyingRegistration: {
      description: 'Attestation checked: origin, RP id, challenge, user presence and verification, public key.',
      entry: {
        type: 'verifyRegistration',
        params: ({ context }) => ({ providerId: context.providerId ?? '', challenge: context.challenge ?? '' }),
      },
      on: {
        REGISTRATION_VERIFIED: [
          {
            guard: isForStoredSubject,
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-registration' } },
          },
          {
            target: completionState,
            actions: assign(({ context }) => ({ user: context.subject, challenge: undefined })),
          },
        ],
        CREDENTIAL_TAKEN: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-credential' } },
        },
        VERIFICATION_FAILED: { target: 'failed', actions: verificationFailed },
      },
    },
    findingCredential: {
      description: 'The stored authenticator behind the credential id the browser presented, and its user.',
      entry: { type: 'findCredential', params: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      on: {
        CREDENTIAL_FOUND: {
          target: 'verifyingAssertion',
          actions: assign(({ event }) => ({ storedCounter: event.storedCounter, user: event.user })),
        },
        CREDENTIAL_UNKNOWN: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-credential' } },
        },
      },
    },
    verifyingAssertion: {
      description:
        'Assertion checked against the stored public key: origin, RP id, challenge, signature; then the counter.',
      entry: {
        type: 'verifyAuthentication',
        params: ({ context }) => ({ providerId: context.providerId ?? '', challenge: context.challenge ?? '' }),
      },
      on: {
        ASSERTION_VERIFIED: [
          // A counter that did not move forward means two copies of one key: a possible cloned authenticator.
          {
            guard: isAuthenticatorCounterRegressed,
            target: 'failed',
            actions: { type: 'fail', params: { error: 'WebAuthnVerificationError', check: 'webauthn-counter' } },
          },
          { target: 'updatingCounter', actions: assign({ challenge: undefined }) },
        ],
        VERIFICATION_FAILED: { target: 'failed', actions: verificationFailed },
      },
    },
    updatingCounter: {
      description: 'The new signature counter is stored.',
      entry: {
        type: 'updateCounter',
        params: ({ event }) => ({ newCounter: event.type === 'ASSERTION_VERIFIED' ? event.newCounter : 0 }),
      },
      on: { COUNTER_UPDATED: { target: completionState } },
    },
    completingSignIn: signInCompletion('webauthn', { initial: 'choosingPasskeyStep', states: passkeySteps }),
    signedIn: { type: 'final', description: 'Session issued; the browser goes to the callback URL.' },
    redirected: { type: 'final', description: 'The signIn callback sent the user to another page; no session.' },
    failed: { type: 'final', description: 'Refused; context.error names why, context.refusal the check.' },
  },
})
