/**
 * The `jwt` and `session` callbacks an app gets when it sets none. They are named here, not inlined in the config, so
 * the effects can tell them apart from the app's own: the default `jwt` callback returns the token it was given, so
 * the session check need not compare the token before and after it, and the sign-in flows answer the defaults without
 * waiting on a promise.
 */
import type { Session, SessionCallbackParams } from '../../types/index.js'
import type { JWT } from '../../types/jwt.js'

/** Every sign-in allowed. */
export const defaultSignInCallback = (): boolean => true

/** The token as it is. */
export const defaultJwtCallback = ({ token }: { token: JWT }): JWT => token

/**
 * The client's session, as Auth.js's default answers it: the user's name, e-mail and image as the row holds them (a
 * `null` stays `null` in the JSON) and the expiry (as the JSON carries it), and nothing else of the row or the token;
 * besides, a failed token refresh's `error` (docs/token-refresh.md). The effects build the same session without the
 * call when the app sets no callback; a call (an app that wraps the default, an update) answers it alike.
 */
export const defaultSessionCallback = ({ session }: Pick<SessionCallbackParams, 'session'>): Session => {
  const { user, expires } = session
  const error = 'error' in session ? session.error : undefined
  return {
    user: { name: user.name, email: user.email, image: user.image },
    expires: expires instanceof Date ? expires.toISOString() : expires,
    ...(error !== undefined ? { error } : {}),
  }
}
