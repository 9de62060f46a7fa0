/**
 * What every sign-in method's handlers keep in the run's scratch (src/flow/runtime.ts, `FlowScratch`) for the shared
 * completion (machines/sign-in-completion.ts): the user and account as the method found or made them. The machine
 * keeps only id, name, e-mail and image; the full records stay here because they are the app's or the adapter's
 * (any field an app's `authorize` or adapter returns, an account with provider tokens), which a stored flow must
 * never carry, and because the `signIn` callback, the `jwt` callback and the `signIn` event get them as Auth.js
 * gives them.
 */
import type { Account, User } from '../../types/index.js'
import type { SessionCookieWrites } from './session-cookie-writes.js'

/** With what the completion's `issueSession` leaves for the HTTP layer: the session's cookie writes (secrets). */
export interface SignInScratch extends SessionCookieWrites {
  /** The user as the method has it: `authorize`'s, the adapter's, the provider profile's. */
  user: User
  account: Account | null
  /** The first factor was a passkey that verified its user (PIN, biometrics): with the policy's leave, two at once. */
  passkeyVerified: boolean
  /**
   * The attempt being checked is the last the challenge allows: set by the reservation, read by the verification
   * of the same request, so a wrong last answer is logged once, as the limit the machine records.
   */
  lastFactorAttempt: boolean
  /** The device type of a passkey that answered the challenge: the session's `amr` tells a synced one apart. */
  passkeyDeviceType: string
}
