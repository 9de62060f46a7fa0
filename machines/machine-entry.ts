/**
 * What the registry knows about each machine: the definition, its version and its extension points. The runtime, the diagrams and the path tests all read the same entries.
 */
import type { AnyStateMachine } from 'xstate'

/** Conventions every machine follows, so tools can read outcomes from the definition alone. */
export const machineConventions = {
  /** Tag of states that wait for the browser's next request (the flow is persisted there). */
  awaitingBrowserTag: 'awaitingBrowser',
  /** Entry command that runs the app's `signIn` callback. Every path to a session passes a state that emits it. */
  signInCommand: 'runSignInCallback',
  /** Entry command that writes the session (JWT cookie or database row). */
  issueSessionCommand: 'issueSession',
  /** Entry command that runs the app's `redirect` callback; the only source of a redirect target. */
  redirectCommand: 'runRedirectCallback',
  /** Entry command that asks whether the user must pass a second factor. Every path to a session passes it. */
  secondFactorCheckCommand: 'checkSecondFactor',
  /** Entry command that checks the answer to a second-factor challenge. */
  secondFactorVerifyCommand: 'verifySecondFactor',
} as const

/** One registered machine. */
export interface MachineEntry<M extends AnyStateMachine = AnyStateMachine> {
  id: string
  /** Bumped whenever the structural fingerprint changes (a test pins it). */
  version: number
  machine: M
  /** Names of the guards an app may replace through `config.flows[id].guards`. */
  extensionPoints: readonly string[]
}
