/**
 * When and how a sign-in authenticated the user (OpenID Connect's `auth_time` and `amr`), computed once, where the
 * shared sign-in completion issues the session (`issueSession`, the one step every sign-in machine composes), for
 * both strategies: the JWT carries it as claims, a database session's record keeps it. It is set here and nowhere
 * else: a session check, a re-sealed cookie or `update()` never moves it, so a step-up reads the sign-in itself.
 */
import { authenticationMethods, type SignInAuthentication } from '../../session/authentication-methods.js'
import type { JWT } from '../../types/jwt.js'
import type { EffectEnv } from '../shared/effect-env.js'

/**
 * What the sign-in adds to its method (the account's provider type): the second factor passed, the kind of passkey.
 * One object, so that the second-factor challenge sets one more field and every sign-in path carries it.
 */
export type SignInFactors = Omit<SignInAuthentication, 'providerType'>

/** The sign-in's `auth_time` (epoch seconds, the request's clock) and `amr`. */
export interface SignInClaims {
  auth_time: number
  amr: string[]
}

/** What a passkey sign-in adds: the kind of passkey (its stored `credentialDeviceType`), when it is a known one. */
export function passkeyFactors(deviceType: string | null | undefined): SignInFactors {
  return deviceType === 'multiDevice' || deviceType === 'singleDevice' ? { passkeyDeviceType: deviceType } : {}
}

/** `auth_time` and `amr` of a sign-in by an account of `providerType`, now (or at `authTime`, a held sign-in's). */
export function signInClaimsOf(
  env: Pick<EffectEnv, 'now'>,
  providerType: string | undefined,
  factors: SignInFactors = {},
  authTime: number = env.now,
): SignInClaims {
  return {
    auth_time: authTime,
    amr: authenticationMethods({ ...factors, providerType: providerType ?? '' }),
  }
}

/**
 * The token's own sign-in claims, kept as they are: what a session check puts back after the app's `jwt` callback,
 * so neither a callback that rebuilds the token nor one that copies `update()` data into it moves them. A token from
 * before Authchart recorded them has none, and gets none: it is not recent.
 */
export function keptSignInClaims(token: JWT): Partial<SignInClaims> {
  const kept: Partial<SignInClaims> = {}
  if (typeof token.auth_time === 'number') kept.auth_time = token.auth_time
  if (Array.isArray(token.amr) && token.amr.every((entry) => typeof entry === 'string')) kept.amr = token.amr
  return kept
}

/** A token without sign-in claims: the start of what a session check may keep of the callback's answer. */
export function withoutSignInClaims(token: JWT): JWT {
  const { auth_time: _authTime, amr: _amr, ...rest } = token
  return rest
}
