/** Types of the machine extension points (`config.flows`) and of the transition audit trail (`config.onTransition`). */

/** The decision points a config may override, per machine. Hooks are synchronous and fail closed. */
export interface FlowGuardHooks {
  /** Before a sign-in completes: return `false` to deny it (AccessDenied). */
  allowSignIn?: (args: { user: Record<string, unknown>; providerId: string; now: number }) => boolean
  /** Before a new user is created. */
  allowUserCreation?: (args: { user: Record<string, unknown>; providerId: string; now: number }) => boolean
  /** Before an account is linked to an existing user. */
  allowAccountLinking?: (args: { user: Record<string, unknown>; providerId: string; now: number }) => boolean
}

/** `config.flows`: per machine id, guards that replace the named extension points. */
export type FlowExtensions = Partial<
  Record<'oauth' | 'credentials' | 'session', { guards?: FlowGuardHooks & Record<string, unknown> }>
>

/** One transition, as `onTransition` receives it. Carries no secrets: no tokens, codes, verifiers or credentials. */
export interface TransitionRecord {
  flowId: string
  machine: string
  from: string
  to: string
  event: string
  at: number
}
