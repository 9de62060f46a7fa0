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
 */
import { assign, type EventObject } from 'xstate'
import type { ErrorType } from '../src/errors.js'
import type { RefusalCheck } from '../src/types/refusals.js'
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
}

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

/** Who is signing in, as the completion's commands are told. */
type Subject = { providerId: string; user: FlowUser; isNewUser: boolean }

/** The completion's commands, with one params shape for every method; spread into each machine's `setup`. */
export const completionCommands = {
  runRedirectCallback: command<{ url: string }>(),
  /** `verificationRequest`: the e-mail method asks before sending a link, as Auth.js's `email.verificationRequest`. */
  runSignInCallback: command<{ providerId: string; user: FlowUser; verificationRequest?: true }>(),
  issueSession: command<Subject>(),
  emitSignInEvent: command<Subject>(),
}

/** What each of the completion's commands may answer. */
export const completionContract = {
  runRedirectCallback: ['REDIRECT_RESOLVED', 'REDIRECT_FAILED'],
  runSignInCallback: ['SIGNIN_ALLOWED', 'SIGNIN_DENIED', 'SIGNIN_REDIRECTED', 'SIGNIN_FAILED'],
  issueSession: ['SESSION_ISSUED', 'SESSION_FAILED'],
  emitSignInEvent: ['SIGNIN_ANNOUNCED'],
} as const

/**
 * The completion's own context updates, for a machine's `setup({ actions })`: `...completionActions<Context, Event>()`.
 * `fail` and the `allowSignIn` guard are the machine's own (every sign-in machine has both).
 */
export function completionActions<C extends CompletionContext, E extends EventObject>() {
  return {
    /** The URL the signIn callback returned, then as the redirect callback resolved it. */
    keepSignInRedirect: assign<C, E, undefined, E, never>(({ event }) => {
      const url = (event as { url?: unknown }).url
      return typeof url === 'string' ? ({ redirectTo: url } as Partial<C>) : {}
    }),
    forgetSignInRedirect: assign<C, E, undefined, E, never>(() => ({ redirectTo: undefined }) as Partial<C>),
    /** Signed in: the browser goes to the callback URL. */
    landOnCallbackUrl: assign<C, E, undefined, E, never>(
      ({ context }) => ({ redirectTo: context.callbackUrl }) as Partial<C>,
    ),
    /** The session could not be issued: the issuer named the error. */
    sessionFailed: assign<C, E, undefined, E, never>(({ event }) => {
      const error = (event as { error?: ErrorType }).error
      return (error ? { error } : {}) as Partial<C>
    }),
  }
}

/** The name of the compound state in every sign-in machine. */
export const completionState = 'completingSignIn'

type Args = { context: CompletionContext; event: { type: string } }

const subjectOf = ({ context }: { context: CompletionContext }): Subject => ({
  providerId: context.providerId ?? '',
  user: context.user ?? {},
  isNewUser: context.isNewUser === true,
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
 * The completion, for the machine `machineId`. `saveUser` is the method's step between the `signIn` callback and
 * the session: its states (entered at `saveUser.initial`) go on to `issuingSession` once the user is saved, and set
 * `isNewUser` when they created it. Without it, an allowed sign-in goes straight to the session.
 */
export function signInCompletion<Steps extends object = Record<never, never>>(
  machineId: string,
  saveUser?: { initial: NoInfer<keyof Steps & string>; states: Steps },
) {
  const exit = completionExits(machineId)
  const denied = { target: exit.failed, actions: { type: 'fail' as const, params: { error: 'AccessDenied' as const } } }
  return {
    description: 'The user is known: the signIn callback, the method saving the user, the session, the signIn event.',
    initial: 'checkingSignIn' as const,
    states: {
      checkingSignIn: {
        description: 'The signIn callback may allow, deny, or send the user elsewhere.',
        entry: {
          type: 'runSignInCallback' as const,
          params: ({ context }: Args) => ({ providerId: context.providerId ?? '', user: context.user ?? {} }),
        },
        on: {
          SIGNIN_ALLOWED: [
            { guard: { type: 'allowSignIn' as const }, target: saveUser?.initial ?? 'issuingSession' },
            denied,
          ],
          SIGNIN_DENIED: denied,
          SIGNIN_FAILED: denied,
          SIGNIN_REDIRECTED: { target: 'resolvingSignInRedirect', actions: 'keepSignInRedirect' as const },
        },
      },
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
      issuingSession: {
        description:
          'The jwt callback shapes the token (trigger signUp for a user created here) and the session cookie is written (or the database session created).',
        entry: { type: 'issueSession' as const, params: subjectOf },
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
