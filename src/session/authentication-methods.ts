/**
 * How a session was authenticated, as OpenID Connect names it: `amr` (RFC 8176 values where one exists) and
 * `auth_time`. One pure module so that every sign-in path and the second-factor step compute the same list, and the
 * step-up check (`isRecentAuthentication`) reads it the same way everywhere.
 *
 * Values without an RFC 8176 entry are Authchart's own and documented in docs/step-up.md: `email` for an e-mail link
 * (not `otp`, which a step-up asking for a TOTP must not take from a link in a mailbox) and `fed` for a sign-in at an
 * OAuth / OpenID provider (what the provider itself checked is the provider's claim, not this site's).
 */

/** The second factor a sign-in passed, as the second-factor challenge records it (`otp`: an authenticator app). */
export type SecondFactorMethod = 'otp' | 'recovery' | 'webauthn'

/** What is known of a sign-in when its session is issued. */
export interface SignInAuthentication {
  /** The provider's type: `credentials`, `email`, `oauth`, `oidc` or `webauthn`. */
  providerType: string
  /** The second factor passed in this sign-in, if any. */
  secondFactorMethod?: SecondFactorMethod
  /** A passkey whose key is synced between devices (`multiDevice`) is a software key; otherwise a hardware one. */
  passkeyDeviceType?: 'singleDevice' | 'multiDevice'
  /** A passkey sign-in with user verification counts as two factors unless the app says otherwise. */
  passkeyCountsAsTwoFactors?: boolean
}

/** The key a passkey proves possession of: RFC 8176 `hwk` (hardware) or `swk` (software, a synced passkey). */
function passkeyKey(deviceType: SignInAuthentication['passkeyDeviceType']): string {
  return deviceType === 'multiDevice' ? 'swk' : 'hwk'
}

function firstFactor(input: SignInAuthentication): string[] {
  switch (input.providerType) {
    case 'credentials':
      return ['pwd']
    case 'email':
      return ['email']
    case 'oauth':
    case 'oidc':
      return ['fed']
    // Passkeys are always asked with user verification: possession of the key and the user's gesture (`user`).
    case 'webauthn':
      return [passkeyKey(input.passkeyDeviceType), 'user']
    default:
      return []
  }
}

function secondFactor(input: SignInAuthentication): string[] {
  switch (input.secondFactorMethod) {
    // A recovery code is a one-time password too; it stands in for the TOTP it backs up.
    case 'otp':
    case 'recovery':
      return ['otp']
    case 'webauthn':
      return [passkeyKey(input.passkeyDeviceType), 'user']
    default:
      return []
  }
}

/** The `amr` of a sign-in: its methods, sorted and without repeats, with `mfa` when two factors were passed. */
export function authenticationMethods(input: SignInAuthentication): string[] {
  const methods = new Set([...firstFactor(input), ...secondFactor(input)])
  const passkeyAlone = input.providerType === 'webauthn' && input.passkeyCountsAsTwoFactors !== false
  if (methods.size > 0 && (input.secondFactorMethod !== undefined || passkeyAlone)) methods.add('mfa')
  return [...methods].sort()
}

/** What the step-up check reads of a session: its `authTime` (epoch seconds) and `amr`, as the session shows them. */
export interface SessionAuthentication {
  authTime?: unknown
  amr?: unknown
}

/** What a step-up asks: an authentication at most `maxAge` seconds old, with every method of `factors` in its amr. */
export interface RecentAuthenticationOptions {
  maxAge: number
  factors?: readonly string[]
  /** The clock, epoch seconds; now by default. */
  now?: number
}

/**
 * Whether a session was authenticated recently enough, with the methods asked for. A session without a readable
 * `authTime` (one issued before Authchart recorded it) or with one in the future is never recent: step-up fails
 * closed.
 * @throws RangeError for a `maxAge` that is not a finite number of seconds, 0 or more
 */
export function isRecentAuthentication(
  session: SessionAuthentication | null | undefined,
  options: RecentAuthenticationOptions,
): boolean {
  const { maxAge, factors = [] } = options
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge < 0)
    throw new RangeError('requireRecentAuth: `maxAge` must be a number of seconds, 0 or more')
  if (!session) return false
  const { authTime, amr } = session
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) return false
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (authTime > now || now - authTime > maxAge) return false
  if (factors.length === 0) return true
  const methods = Array.isArray(amr) ? amr.filter((entry): entry is string => typeof entry === 'string') : []
  return factors.every((factor) => methods.includes(factor))
}
