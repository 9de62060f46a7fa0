/**
 * What happens once a sign-in knows who the user is, defined once for every sign-in machine: the app's `signIn`
 * callback (a URL it returns still passes the `redirect` callback), the method's own step that saves the user (a
 * slot: e-mail saves the verified address, OAuth resolves, creates or links; credentials has none), the session
 * (the `jwt` callback, with `trigger: "signUp"` when the user was created here) and the `signIn` event.
 *
 * It is one compound state, `completingSignIn`, that `signInCompletion()` builds and each machine composes into its
 * definition; the machine enters it once its user is known. The compiled runtime, the diagrams and the path tests
 * all read the composed graph (src/flow/compiled-machine.ts supports compound states for this). It leaves through
 * the machine's own final states, named by id: `signedIn`, `redirected` and `failed`.
 *
 * The second factor (docs/second-factors.md) lives here too, once, between the method's own step and the session:
 * a user with an enrolled factor is stopped at `awaitingSecondFactor` (the flow is stored like every waiting flow,
 * so any instance can finish it), each code is counted before it is checked, and only a verified factor reaches
 * `issuingSession`.
 */
import { assign, not, type EventObject } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
import type { ProviderType } from '../src/types/providers.js'
import {
  isCsrfVerified,
  isFactorAttemptOverLimit,
  isFactorEnrolled,
  isFirstFactorTwo,
  isChallengeExpired,
  isLastFactorAttempt,
  mustEnrolFactor,
  wasLastFactorAttempt,
} from '../src/security/flow-guards.js'
import { command } from './contract.js'

/** The user as a sign-in machine keeps it: id, name, e-mail and image only. */
export type FlowUser = { id?: string; name?: string | null; email?: string | null; image?: string | null }

/** The context the completion reads and writes; every sign-in machine's context has these keys. */
export interface CompletionContext {
  providerId?: string
  /** Where the browser goes after signing in, as the redirect callback decided when the flow began. */
  callbackUrl?: string
  user?: FlowUser
  /** The method's step created the user in this sign-in: a sign-up (Auth.js's `isNewUser`). */
  isNewUser?: boolean
  /** Where the browser goes next. */
  redirectTo?: string
  error?: ErrorType
  refusal?: RefusalCheck
  /** The challenge under way: its id (what its attempts are counted under) and when it ends (epoch seconds). */
  secondFactorChallenge?: string
  secondFactorExpiresAt?: number
  /** The account of the sign-in, without provider tokens, kept while the challenge waits (the session needs it). */
  secondFactorAccount?: FlowAccount
  /** The attempt being checked is the last the challenge or the account allows: a wrong code ends the challenge. */
  secondFactorLastAttempt?: boolean
  /** A wrong answer came before: the challenge waits for another. */
  secondFactorRejected?: boolean
  /** The factor that passed the challenge; absent when there was none. */
  secondFactorUsed?: SecondFactorKind
  /** The policy wants a factor this user has not enrolled: the sign-in is held, and the browser sent to enrolment. */
  secondFactorEnrolmentRequired?: boolean
}

/** The factors a challenge accepts: a TOTP code, a recovery code, a passkey of the same user. */
export type SecondFactorKind = 'otp' | 'recovery' | 'webauthn'

/** The account a sign-in carries, as a waiting challenge keeps it (provider tokens are not kept). */
export type FlowAccount = { provider: string; type: ProviderType; providerAccountId: string }

/** Wrong codes one challenge allows; the next request finds it ended (docs/security.md, second-factor-limit). */
export { factorAttemptsPerChallenge as maxAttemptsPerChallenge } from '../src/security/flow-guards.js'

/** The result events of the completion's commands. */
export type CompletionEvent =
  | { type: 'SIGNIN_ALLOWED' }
  | { type: 'SIGNIN_DENIED' }
  | { type: 'SIGNIN_REDIRECTED'; url: string }
  | { type: 'SIGNIN_FAILED' }
  | { type: 'REDIRECT_RESOLVED'; url: string }
  | { type: 'REDIRECT_FAILED' }
  | { type: 'SESSION_ISSUED' }
  | { type: 'SESSION_FAILED'; error: ErrorType }
  | { type: 'SIGNIN_ANNOUNCED' }
  /**
   * What the second-factor check found: whether the user has an enrolled factor, whether the app's policy wants one
   * it has not enrolled, whether the first factor was a passkey with user verification and whether the app lets
   * that count as two (`passkeyCountsAsTwo`), and, for an enrolled user, the new challenge's id and deadline.
   */
  | {
      type: 'SECOND_FACTOR_CHECKED'
      enrolled: boolean
      mustEnrol: boolean
      /** The first factor was a passkey assertion the authenticator verified its user for (the UV flag). */
      passkeyUserVerified: boolean
      /** The app's `secondFactor.passkeyCountsAsTwo` (default true), as the check read it. */
      passkeyCountsAsTwo: boolean
      challenge?: string
      expiresAt?: number
      account?: FlowAccount
      /** The stored user's id, when the method knows it by now and the machine's copy may not. */
      userId?: string
    }
  | { type: 'FACTOR_CHECK_FAILED' }
  /** The browser posted an answer to the challenge (the code itself stays with the request's handlers). */
  | { type: 'SECOND_FACTOR_SUBMITTED'; csrfVerified: boolean; now: number }
  /** Attempts counted so far on this challenge and on the account (this one included), and the account's limit. */
  | { type: 'FACTOR_ATTEMPT_RESERVED'; attempts: number; accountAttempts: number; accountLimit: number }
  | { type: 'FACTOR_ATTEMPT_RESERVE_FAILED' }
  | { type: 'FACTOR_VERIFIED'; factor: SecondFactorKind }
  | { type: 'FACTOR_REJECTED' }
  | { type: 'FACTOR_VERIFY_FAILED' }

/**
 * Who is signing in, as the completion's commands are told. `account` is set once a challenge was passed: the
 * request that finishes it has only what the stopped sign-in kept.
 */
type Subject = {
  providerId: string
  user: FlowUser
  isNewUser: boolean
  account?: FlowAccount
  /** The second factor the challenge verified, when there was one: the session's `amr` records it. */
  secondFactor?: SecondFactorKind
  /** Set by `issuingEnrolmentSession` only: the sign-in is held until a factor is enrolled, no session is issued. */
  enrolmentPending?: true
}

/** The completion's commands, with one params shape for every method; spread into each machine's `setup`. */
export const completionCommands = {
  runRedirectCallback: command<{ url: string }>(),
  /** `verificationRequest`: the e-mail method asks before sending a link, as Auth.js's `email.verificationRequest`. */
  runSignInCallback: command<{ providerId: string; user: FlowUser; verificationRequest?: true }>(),
  issueSession: command<Subject>(),
  emitSignInEvent: command<Subject>(),
  checkSecondFactor: command<{ providerId: string; user: FlowUser }>(),
  reserveFactorAttempt: command<{ userId: string; challenge: string }>(),
  verifySecondFactor: command<{ providerId: string; userId: string; challenge: string }>(),
}

/** What each of the completion's commands may answer. */
export const completionContract = {
  runRedirectCallback: ['REDIRECT_RESOLVED', 'REDIRECT_FAILED'],
  runSignInCallback: ['SIGNIN_ALLOWED', 'SIGNIN_DENIED', 'SIGNIN_REDIRECTED', 'SIGNIN_FAILED'],
  issueSession: ['SESSION_ISSUED', 'SESSION_FAILED'],
  emitSignInEvent: ['SIGNIN_ANNOUNCED'],
  checkSecondFactor: ['SECOND_FACTOR_CHECKED', 'FACTOR_CHECK_FAILED'],
  reserveFactorAttempt: ['FACTOR_ATTEMPT_RESERVED', 'FACTOR_ATTEMPT_RESERVE_FAILED'],
  verifySecondFactor: ['FACTOR_VERIFIED', 'FACTOR_REJECTED', 'FACTOR_VERIFY_FAILED'],
} as const

/** Whether `event` is the completion's event `type`: the machine's event union holds it with exactly that payload. */
function isCompletionEvent<T extends CompletionEvent['type']>(
  event: EventObject,
  ...types: T[]
): event is Extract<CompletionEvent, { type: T }> {
  return types.some((type) => event.type === type)
}

/**
 * The completion's own context updates, for a machine's `setup({ actions })`: `...completionActions<Context, Event>()`.
 * Each is an xstate `assign` typed by the machine's context `C`, which extends the completion's: it updates only the
 * completion's keys, and reads the payloads from the completion's own events, narrowed by their type (no cast).
 * `fail` and the `allowSignIn` guard are the machine's own.
 */
export function completionActions<C extends CompletionContext, E extends EventObject>() {
  type Assigner = (args: { context: C; event: E }) => Partial<CompletionContext>
  // The machine's context with the completion's keys updated is still a C (it extends the completion's context):
  // xstate merges it over the context as it merges any partial, so the result is the same.
  const update = (assigner: Assigner) =>
    assign<C, E, undefined, E, never>(({ context, event }) => ({ ...context, ...assigner({ context, event }) }))
  return {
    /** The URL the signIn callback returned, then as the redirect callback resolved it. */
    keepSignInRedirect: update(({ event }) =>
      isCompletionEvent(event, 'SIGNIN_REDIRECTED', 'REDIRECT_RESOLVED') ? { redirectTo: event.url } : {},
    ),
    forgetSignInRedirect: update(() => ({ redirectTo: undefined })),
    /** Signed in: the browser goes to the callback URL. */
    landOnCallbackUrl: update(({ context }) => ({ redirectTo: context.callbackUrl })),
    /** The session could not be issued: the issuer named the error. */
    sessionFailed: update(({ event }) =>
      isCompletionEvent(event, 'SESSION_FAILED') && event.error ? { error: event.error } : {},
    ),
    /** A challenge begins: its id, deadline and the account the session will need once it is passed. */
    beginSecondFactor: update(({ context, event }) => {
      if (!isCompletionEvent(event, 'SECOND_FACTOR_CHECKED')) return {}
      return {
        // The user as stored (an OAuth sign-in knows the provider's profile until then): the challenge's answer is
        // checked against this id's factors, and the session is issued to it.
        ...(typeof event.userId === 'string' ? { user: { ...context.user, id: event.userId } } : {}),
        secondFactorChallenge: event.challenge,
        secondFactorExpiresAt: event.expiresAt,
        secondFactorAccount: event.account,
      }
    }),
    /** Whether this attempt is the last one allowed. Reset after a wrong code, so the waiting state is the same again. */
    keepFactorAttempt: update(({ event }) => ({
      secondFactorLastAttempt: isLastFactorAttempt({ event }) ? true : undefined,
      // The challenge page says the last answer was wrong.
      ...(event.type === 'FACTOR_REJECTED' ? { secondFactorRejected: true } : {}),
    })),
    /** Passed: which factor did it; the challenge's own fields are no longer needed. */
    passSecondFactor: update(({ event }) => ({
      secondFactorUsed: isCompletionEvent(event, 'FACTOR_VERIFIED') ? event.factor : undefined,
      secondFactorChallenge: undefined,
      secondFactorExpiresAt: undefined,
      secondFactorLastAttempt: undefined,
      secondFactorRejected: undefined,
    })),
    requireFactorEnrolment: update(() => ({ secondFactorEnrolmentRequired: true })),
    /** Where the user lands, as the redirect callback resolved the URL the sign-in asked for. */
    keepCallbackUrl: update(({ event }) =>
      isCompletionEvent(event, 'REDIRECT_RESOLVED') ? { callbackUrl: event.url } : {},
    ),
  }
}

/**
 * The step every sign-in takes first (the e-mail link's second half too): the redirect callback decides where the
 * user lands, and the method goes on to `next`; a URL the callback refuses ends the sign-in. One definition, so every
 * method names the same refusal.
 */
export function resolvingCallbackUrl<Next extends string>(next: Next) {
  return {
    description: 'The redirect callback decides where the user lands after signing in.',
    entry: {
      type: 'runRedirectCallback' as const,
      params: ({ context }: { context: CompletionContext }) => ({ url: context.callbackUrl ?? '' }),
    },
    on: {
      REDIRECT_RESOLVED: { target: next, actions: 'keepCallbackUrl' as const },
      REDIRECT_FAILED: {
        target: 'failed' as const,
        actions: {
          type: 'fail' as const,
          params: { error: 'InvalidCallbackUrl' as const, check: 'callback-url' as const },
        },
      },
    },
  }
}

/** The name of the compound state in every sign-in machine. */
export const completionState = 'completingSignIn'

/** Where a method's own step goes once the user is saved: the second-factor check, never straight to the session. */
export const secondFactorEntry = 'checkingSecondFactor'

type Args = { context: CompletionContext; event: { type: string } }

const subjectOf = ({ context }: { context: CompletionContext }): Subject => ({
  providerId: context.providerId ?? '',
  user: context.user ?? {},
  isNewUser: context.isNewUser === true,
  ...(context.secondFactorAccount ? { account: context.secondFactorAccount } : {}),
  ...(context.secondFactorUsed ? { secondFactor: context.secondFactorUsed } : {}),
})

/** The targets that leave the completion: the machine's own final states. */
export function completionExits(machineId: string) {
  return {
    signedIn: `#${machineId}.signedIn`,
    redirected: `#${machineId}.redirected`,
    failed: `#${machineId}.failed`,
  } as const
}

/**
 * The `signIn` callback as a step: it may allow (on to `next`, unless the app's `allowSignIn` guard says no), deny, or
 * send the user elsewhere (`redirect`: that URL still passes the redirect callback). The completion's first step, and
 * the e-mail request's check before a link is sent (`verificationRequest`, as Auth.js calls it).
 */
export function signInCallbackStep<Next extends string>(step: {
  description: string
  next: Next
  failed: string
  redirect: string
  verificationRequest?: true
}) {
  const denied = { target: step.failed, actions: { type: 'fail' as const, params: { error: 'AccessDenied' as const } } }
  return {
    description: step.description,
    entry: {
      type: 'runSignInCallback' as const,
      params: ({ context }: Args) => ({
        providerId: context.providerId ?? '',
        user: context.user ?? {},
        ...(step.verificationRequest ? { verificationRequest: step.verificationRequest } : {}),
      }),
    },
    on: {
      SIGNIN_ALLOWED: [{ guard: { type: 'allowSignIn' as const }, target: step.next }, denied],
      SIGNIN_DENIED: denied,
      SIGNIN_FAILED: denied,
      SIGNIN_REDIRECTED: { target: step.redirect, actions: 'keepSignInRedirect' as const },
    },
  }
}

/**
 * The completion, for the machine `machineId`. `saveUser` is the method's step between the `signIn` callback and
 * the session: its states (entered at `saveUser.initial`) go on to `issuingSession` once the user is saved, and set
 * `isNewUser` when they created it. Without it, an allowed sign-in goes straight to the session.
 */
export function signInCompletion<Steps extends object = Record<never, never>>(
  machineId: string,
  saveUser?: { initial: NoInfer<keyof Steps & string>; states: Steps },
) {
  const exit = completionExits(machineId)
  return {
    description: 'The user is known: the signIn callback, the method saving the user, the session, the signIn event.',
    initial: 'checkingSignIn' as const,
    states: {
      checkingSignIn: signInCallbackStep({
        description: 'The signIn callback may allow, deny, or send the user elsewhere.',
        next: saveUser?.initial ?? secondFactorEntry,
        failed: exit.failed,
        redirect: 'resolvingSignInRedirect',
      }),
      resolvingSignInRedirect: {
        description: 'A URL returned by the signIn callback still passes the redirect callback.',
        entry: {
          type: 'runRedirectCallback' as const,
          params: ({ context }: Args) => ({ url: context.redirectTo ?? '' }),
        },
        on: {
          REDIRECT_RESOLVED: { target: exit.redirected, actions: 'keepSignInRedirect' as const },
          REDIRECT_FAILED: {
            target: exit.failed,
            actions: [
              'forgetSignInRedirect' as const,
              {
                type: 'fail' as const,
                params: { error: 'InvalidCallbackUrl' as const, check: 'callback-url' as const },
              },
            ],
          },
        },
      },
      ...(saveUser?.states as Steps),
      checkingSecondFactor: {
        description:
          "Does this user have to pass a second factor? An enrolled user always does (unless the first factor counts as two); the app's policy may want one the user has not enrolled.",
        entry: {
          type: 'checkSecondFactor' as const,
          params: ({ context }: Args) => ({ providerId: context.providerId ?? '', user: context.user ?? {} }),
        },
        on: {
          SECOND_FACTOR_CHECKED: [
            { guard: isFirstFactorTwo, target: 'issuingSession' },
            { guard: isFactorEnrolled, target: 'awaitingSecondFactor', actions: 'beginSecondFactor' as const },
            {
              guard: mustEnrolFactor,
              target: 'issuingEnrolmentSession',
              actions: 'requireFactorEnrolment' as const,
            },
            { target: 'issuingSession' },
          ],
          FACTOR_CHECK_FAILED: {
            target: exit.failed,
            actions: { type: 'fail' as const, params: { error: 'CallbackRouteError' as const } },
          },
        },
      },
      awaitingSecondFactor: {
        description:
          'Stopped until the browser posts a code (or a recovery code, or a passkey assertion); the flow is stored, so any instance can finish it.',
        tags: ['awaitingBrowser' as const],
        on: {
          SECOND_FACTOR_SUBMITTED: [
            {
              guard: not(isCsrfVerified),
              target: exit.failed,
              actions: { type: 'fail' as const, params: { error: 'MissingCSRF' as const, check: 'csrf' as const } },
            },
            {
              guard: isChallengeExpired,
              target: exit.failed,
              actions: {
                type: 'fail' as const,
                params: { error: 'AccessDenied' as const, check: 'flow-expired' as const },
              },
            },
            { target: 'reservingFactorAttempt' },
          ],
        },
      },
      reservingFactorAttempt: {
        description:
          'The attempt is counted on the challenge and on the account, atomically, before the code is checked: parallel guesses each spend one.',
        entry: {
          type: 'reserveFactorAttempt' as const,
          params: ({ context }: Args) => ({
            userId: context.user?.id ?? '',
            challenge: context.secondFactorChallenge ?? '',
          }),
        },
        on: {
          FACTOR_ATTEMPT_RESERVED: [
            {
              guard: isFactorAttemptOverLimit,
              target: exit.failed,
              actions: {
                type: 'fail' as const,
                params: { error: 'AccessDenied' as const, check: 'second-factor-limit' as const },
              },
            },
            { target: 'verifyingSecondFactor', actions: 'keepFactorAttempt' as const },
          ],
          FACTOR_ATTEMPT_RESERVE_FAILED: {
            target: exit.failed,
            actions: { type: 'fail' as const, params: { error: 'CallbackRouteError' as const } },
          },
        },
      },
      verifyingSecondFactor: {
        description:
          'The answer is checked against the user’s factors: a TOTP step or a recovery code is spent once; a wrong answer on the last attempt ends the challenge.',
        entry: {
          type: 'verifySecondFactor' as const,
          params: ({ context }: Args) => ({
            providerId: context.providerId ?? '',
            userId: context.user?.id ?? '',
            challenge: context.secondFactorChallenge ?? '',
          }),
        },
        on: {
          FACTOR_VERIFIED: { target: 'issuingSession', actions: 'passSecondFactor' as const },
          FACTOR_REJECTED: [
            {
              guard: wasLastFactorAttempt,
              target: exit.failed,
              actions: {
                type: 'fail' as const,
                params: { error: 'AccessDenied' as const, check: 'second-factor-limit' as const },
              },
            },
            { target: 'awaitingSecondFactor', actions: 'keepFactorAttempt' as const },
          ],
          FACTOR_VERIFY_FAILED: {
            target: exit.failed,
            actions: { type: 'fail' as const, params: { error: 'CallbackRouteError' as const } },
          },
        },
      },
      issuingSession: {
        description:
          'The jwt callback shapes the token (trigger signUp for a user created here) and the session cookie is written (or the database session created).',
        entry: { type: 'issueSession' as const, params: subjectOf },
        on: {
          SESSION_ISSUED: { target: 'announcingSignIn', actions: 'landOnCallbackUrl' as const },
          SESSION_FAILED: { target: exit.failed, actions: 'sessionFailed' as const },
        },
      },
      issuingEnrolmentSession: {
        description:
          'The policy wants a factor this user has not enrolled: no session, the sign-in is held in the enrolment cookie, which only the factors endpoints accept; the first factor enrolled turns it into the session.',
        entry: {
          type: 'issueSession' as const,
          params: (args: Args) => ({ ...subjectOf(args), enrolmentPending: true as const }),
        },
        on: {
          SESSION_ISSUED: { target: 'announcingSignIn', actions: 'landOnCallbackUrl' as const },
          SESSION_FAILED: { target: exit.failed, actions: 'sessionFailed' as const },
        },
      },
      announcingSignIn: {
        description: 'The signIn event tells the app a user signed in (isNewUser for a sign-up).',
        entry: { type: 'emitSignInEvent' as const, params: subjectOf },
        on: { SIGNIN_ANNOUNCED: { target: exit.signedIn } },
      },
    },
  }
}

/**
 * What a sign-in machine hands back when it ends (its `output`): where the browser goes, whether the user signed up
 * (`pages.newUser`), whether it must enrol a factor first, or why it was refused.
 */
export interface SignInOutput {
  error?: ErrorType
  redirectTo?: string
  callbackUrl?: string
  isNewUser?: boolean
  secondFactorEnrolmentRequired?: boolean
}

/** The completion's part of a sign-in machine's `output`, read from its context when it reaches a final state. */
export function signInOutput(context: CompletionContext): SignInOutput {
  return {
    error: context.error,
    redirectTo: context.redirectTo,
    callbackUrl: context.callbackUrl,
    isNewUser: context.isNewUser,
    secondFactorEnrolmentRequired: context.secondFactorEnrolmentRequired,
  }
}
