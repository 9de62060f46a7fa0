/**
 * The `jwt` and `session` callbacks an app gets when it sets none. They are named here, not inlined in the config, so
 * the effects can tell them apart from the app's own: the default `jwt` callback returns the token it was given, so
 * the session check need not compare the token before and after it, and the sign-in flows answer the defaults without
 * waiting on a promise.
 */
import type { JWT } from '../../types/jwt.js'

/** Every sign-in allowed. */
export const defaultSignInCallback = (): boolean => true

/** The token as it is. */
export const defaultJwtCallback = ({ token }: { token: JWT }): JWT => token

/**
 * The session it is given. The JWT effects build the client's session from the token before asking it; the database
 * effects, which hand an app's callback the row, answer one built from the user instead of asking it. Either way only
 * name, e-mail and image reach the client.
 */
export const defaultSessionCallback = <S>({ session }: { session: S }): S => session
