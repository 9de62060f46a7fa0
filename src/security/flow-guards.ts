/**
 * Security checks as named guards for the machines. They are inline guards (not extension points): `provide()`
 * cannot replace them, and the diagrams show their names.
 */
import { constantTimeEqual } from './constant-time.js'

/** OWASP double-submit cookie: the HTTP layer compared the form's token with the CSRF cookie and put the verdict in the event. */
export function isCsrfVerified({ event }: { event: object }): boolean {
  return 'csrfVerified' in event && event.csrfVerified === true
}

/**
 * The field naming the account held text (or nothing): a JSON body's `username: ["ada"]` would reach `authorize`
 * under no account key, outside the per-account limit.
 */
export function isAccountReadable({ event }: { event: object }): boolean {
  return 'accountReadable' in event && event.accountReadable === true
}

/** Whether the flow outlived its own deadline (`expiresAt`, epoch seconds), checked with the request's `now`. */
export function isFlowExpired({ context, event }: { context: object; event: object }): boolean {
  const expiresAt = 'expiresAt' in context ? context.expiresAt : undefined
  const now = 'now' in event ? event.now : undefined
  return typeof expiresAt !== 'number' || typeof now !== 'number' || now >= expiresAt
}

/** RFC 6749 §10.12: `state` binds the callback to the browser that began the flow. Skipped only when the provider's checks leave `state` out. */
export function hasMatchingState({ context, event }: { context: object; event: object }): boolean {
  const expected = 'state' in context ? context.state : undefined
  if (expected === undefined) return true
  const received = 'state' in event ? event.state : undefined
  return typeof expected === 'string' && typeof received === 'string' && constantTimeEqual(expected, received)
}

/** A callback must arrive at the provider that began the flow: a flow begun with one provider cannot finish with another. */
export function isCallbackForFlowProvider({ context, event }: { context: object; event: object }): boolean {
  const begun = 'providerId' in context ? context.providerId : undefined
  const called = 'providerId' in event ? event.providerId : undefined
  return typeof begun === 'string' && begun === called
}

/** A session whose expiry (`expiresAt`, epoch seconds, reported by the store) is not after the request's `now`. */
export function isSessionExpired({ context, event }: { context: object; event: object }): boolean {
  const expiresAt = 'expiresAt' in event ? event.expiresAt : undefined
  const now = 'now' in context ? context.now : undefined
  return typeof expiresAt !== 'number' || typeof now !== 'number' || expiresAt <= now
}

/** A provider account that belongs to one user, presented while another user is signed in here: never re-assigned. */
export function isAccountOfAnotherSignedInUser({ event }: { event: object }): boolean {
  const owner = 'ownerId' in event ? event.ownerId : undefined
  const signedIn = 'signedInUserId' in event ? event.signedInUserId : undefined
  return typeof signedIn === 'string' && signedIn !== owner
}

/** The provider's `allowDangerousEmailAccountLinking`: an e-mail match may link only when the app said so. */
export function isDangerousEmailLinkingAllowed({ context }: { context: object }): boolean {
  return 'dangerousEmailLinking' in context && context.dangerousEmailLinking === true
}

/** Longest address accepted (RFC 5321 §4.5.3.1: 64 octets of local part, 255 of domain, and the `@`). */
const maxAddressLength = 320

/**
 * Exactly one plain address: one `@`, no quotes, commas, semicolons, angle brackets, brackets or whitespace. Given
 * `a,b@x.test`, a mailer splits the list and delivers to `b@x.test` while the token is stored for the whole string;
 * a quoted local part hides a second `@`. A provider's own `normalizeIdentifier` replaces this rule (`customRule`).
 */
export function isSingleMailAddress({ event }: { event: object }): boolean {
  const identifier = 'identifier' in event ? event.identifier : undefined
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > maxAddressLength) return false
  if ('customRule' in event && event.customRule === true) return true
  const at = identifier.indexOf('@')
  if (at <= 0 || at !== identifier.lastIndexOf('@') || at === identifier.length - 1) return false
  if (/[\s",;:<>()[\]\\]/.test(identifier)) return false
  const domain = identifier.slice(at + 1)
  return !domain.startsWith('.') && !domain.endsWith('.') && !domain.includes('..')
}

/** A consumed verification token past its expiry (`expiresAt`, epoch seconds) at the request's `now`. */
export function isVerificationTokenExpired({ context, event }: { context: object; event: object }): boolean {
  const expiresAt = 'expiresAt' in event ? event.expiresAt : undefined
  const now = 'now' in context ? context.now : undefined
  return typeof expiresAt !== 'number' || typeof now !== 'number' || expiresAt <= now
}

/** A link that names an address (`email=`) must carry a token stored for that address, not another one's. */
export function isVerificationTokenForLinkAddress({ context, event }: { context: object; event: object }): boolean {
  const stored = 'identifier' in event ? event.identifier : undefined
  const linked = 'linkIdentifier' in context ? context.linkIdentifier : undefined
  if (typeof stored !== 'string') return false
  return linked === undefined || (typeof linked === 'string' && constantTimeEqual(linked, stored))
}

/** The count a `REQUESTS_COUNTED` event reports is a number within `max`. */
function countWithin(event: object, max: unknown): boolean {
  const count = 'count' in event ? event.count : undefined
  return typeof count === 'number' && typeof max === 'number' && count <= max
}

/** Requests from one client within the window stay within the per-client limit. */
export function isWithinClientRequestLimit({ context, event }: { context: object; event: object }): boolean {
  return countWithin(event, 'clientLimit' in context ? context.clientLimit : undefined)
}

/** Requests for one address from one client within the window stay within the per-address limit. */
export function isWithinAddressRequestLimit({ context, event }: { context: object; event: object }): boolean {
  return countWithin(event, 'addressLimit' in context ? context.addressLimit : undefined)
}

/** Requests for one address from every client within the window stay under the per-address ceiling. */
export function isWithinAddressCeiling({ context, event }: { context: object; event: object }): boolean {
  return countWithin(event, 'addressCeiling' in context ? context.addressCeiling : undefined)
}

/**
 * WebAuthn §6.1.1: a signature counter that did not move past the stored one (when either is non-zero) means two
 * copies of one credential exist, so a possible cloned authenticator. Authenticators that keep no counter report 0.
 */
export function isAuthenticatorCounterRegressed({ context, event }: { context: object; event: object }): boolean {
  const stored = 'storedCounter' in context ? context.storedCounter : undefined
  const presented = 'newCounter' in event ? event.newCounter : undefined
  if (typeof stored !== 'number' || typeof presented !== 'number') return true
  return (stored > 0 || presented > 0) && presented <= stored
}

/** A WebAuthn response must answer the ceremony the options began (registration or authentication), not the other. */
export function isResponseForFlowAction({ context, event }: { context: object; event: object }): boolean {
  const decided = 'action' in context ? context.action : undefined
  const answered = 'action' in event ? event.action : undefined
  return typeof decided === 'string' && decided === answered
}

/**
 * A registration attaches a passkey to the user signed in when its options were asked for (or makes a new user when
 * nobody was): it finishes only if the callback comes from that same session. Otherwise a flow begun before sign-out
 * would attach the next person's authenticator to the account just left. Authentication does not depend on it.
 */
export function isRegistrationForCurrentSession({ context, event }: { context: object; event: object }): boolean {
  if (!('action' in context) || context.action !== 'register') return true
  const begun = 'signedInUserId' in context ? context.signedInUserId : undefined
  const current = 'signedInUserId' in event ? event.signedInUserId : undefined
  return (begun ?? null) === (current ?? null)
}

/**
 * The user found by the sign-in's address holds a passkey and has never proven that address: landing there (unless
 * signed in as that user) would hand the mailbox owner's sign-in to whoever made the passkey.
 */
export function isUnprovenPasskeyAccount({ event }: { event: object }): boolean {
  return 'unprovenPasskeyAccount' in event && event.unprovenPasskeyAccount === true
}

/** The user a sign-in found by address is the one this browser is already signed in as. */
export function isSignedInAsFoundUser({ event }: { event: object }): boolean {
  const found = 'user' in event && typeof event.user === 'object' && event.user !== null ? event.user : undefined
  const id = found && 'id' in found ? found.id : undefined
  return 'signedInUserId' in event && typeof id === 'string' && event.signedInUserId === id
}

/** A credentials sign-in for a locked-out account or client is refused before `authorize` runs. */
export function isLockedOut({ event }: { event: object }): boolean {
  const retryAfter = 'retryAfterSeconds' in event ? event.retryAfterSeconds : undefined
  return typeof retryAfter !== 'number' || !(retryAfter <= 0)
}

/** Failed credentials sign-ins, this one included, are still under the account's and the client's limits. */
export function isWithinFailureLimits({ context }: { context: object }): boolean {
  const account = 'accountFailures' in context ? context.accountFailures : undefined
  const client = 'clientFailures' in context ? context.clientFailures : undefined
  const accountLimit = 'maxFailures' in context ? context.maxFailures : undefined
  const clientLimit = 'maxClientFailures' in context ? context.maxClientFailures : undefined
  return (
    typeof account === 'number' &&
    typeof client === 'number' &&
    typeof accountLimit === 'number' &&
    typeof clientLimit === 'number' &&
    account < accountLimit &&
    client < clientLimit
  )
}

/**
 * The attempt just counted is past the account's or the client's budget: attempts already in flight spent it, so
 * this one must not reach `authorize` (N parallel guesses cost N, and at most the limit are checked). Unreadable
 * counts read as over the budget.
 */
export function isAttemptOverBudget({ context, event }: { context: object; event: object }): boolean {
  const account = 'accountFailures' in event ? event.accountFailures : undefined
  const client = 'clientFailures' in event ? event.clientFailures : undefined
  const accountLimit = 'maxFailures' in context ? context.maxFailures : undefined
  const clientLimit = 'maxClientFailures' in context ? context.maxClientFailures : undefined
  if (typeof account !== 'number' || typeof client !== 'number') return true
  if (typeof accountLimit !== 'number' || typeof clientLimit !== 'number') return true
  return account > accountLimit || client > clientLimit
}

/** Wrong codes one second-factor challenge allows (docs/second-factors.md); kept here so the machine and the tests agree. */
export const factorAttemptsPerChallenge = 5

function numberIn(value: object, key: string): number | undefined {
  const found = key in value ? (value as Record<string, unknown>)[key] : undefined
  return typeof found === 'number' ? found : undefined
}

/** The second-factor check found an enrolled factor: the user is challenged. */
export function isFactorEnrolled({ event }: { event: object }): boolean {
  return 'enrolled' in event && event.enrolled === true
}

/**
 * The first factor already proved two: a passkey whose authenticator verified its user, and the app lets that count
 * as two (`passkeyCountsAsTwo`, the default).
 */
export function isFirstFactorTwo({ event }: { event: object }): boolean {
  return (
    'passkeyUserVerified' in event &&
    event.passkeyUserVerified === true &&
    'passkeyCountsAsTwo' in event &&
    event.passkeyCountsAsTwo === true
  )
}

/** The app's policy wants a second factor this user has not enrolled yet. */
export function mustEnrolFactor({ event }: { event: object }): boolean {
  return 'mustEnrol' in event && event.mustEnrol === true
}

/**
 * The attempt just counted is past what the challenge or the account allows (a count that is not a number is
 * treated as past, never as within): it is refused before the code is looked at.
 */
export function isFactorAttemptOverLimit({ event }: { event: object }): boolean {
  const attempts = numberIn(event, 'attempts')
  const account = numberIn(event, 'accountAttempts')
  const limit = numberIn(event, 'accountLimit')
  if (attempts === undefined || account === undefined || limit === undefined) return true
  return attempts > factorAttemptsPerChallenge || account > limit
}

/** The attempt just counted is the last one the challenge or the account allows. */
export function isLastFactorAttempt({ event }: { event: object }): boolean {
  const attempts = numberIn(event, 'attempts')
  const account = numberIn(event, 'accountAttempts')
  const limit = numberIn(event, 'accountLimit')
  if (attempts === undefined || account === undefined || limit === undefined) return false
  return attempts >= factorAttemptsPerChallenge || account >= limit
}

/** The wrong answer came on the last attempt allowed: the challenge ends. */
export function wasLastFactorAttempt({ context }: { context: object }): boolean {
  return 'secondFactorLastAttempt' in context && context.secondFactorLastAttempt === true
}

/** The second-factor challenge outlived its deadline (`secondFactorExpiresAt`, epoch seconds), by the request's `now`. */
export function isChallengeExpired({ context, event }: { context: object; event: object }): boolean {
  const expiresAt = numberIn(context, 'secondFactorExpiresAt')
  const now = numberIn(event, 'now')
  return expiresAt === undefined || now === undefined || now >= expiresAt
}
