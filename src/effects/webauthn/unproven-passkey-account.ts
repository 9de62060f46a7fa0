/**
 * A passkey account whose address nobody has proven. A signed-out passkey registration needs no mailbox: anyone can
 * make one for an address with no account yet (as Auth.js allows). If a later e-mail link or OAuth sign-in for that
 * address landed in that user, the owner of the mailbox would share an account with whoever holds the passkey: a
 * pre-account takeover. So a user found by address is adopted only once its address is verified (`emailVerified`
 * set, which an e-mail sign-in made from that user's own session does), or when it holds no passkey.
 */
import type { AdapterUser, WrappedAdapter } from '../../types/adapters.js'

/** Whether `user` may not be adopted through its address: unverified, and holding at least one passkey. */
export type UnprovenPasskeyCheck = (user: AdapterUser) => Promise<boolean>

/**
 * The check for one request. `passkeysServed`: a WebAuthn provider is configured, so the adapter has
 * `listAuthenticatorsByUserId` (start-up checks it) and a passkey can sign in; without one, none can.
 */
export function unprovenPasskeyCheck(adapter: WrappedAdapter, passkeysServed: boolean): UnprovenPasskeyCheck {
  return async (user) => {
    if (!passkeysServed || user.emailVerified) return false
    return (await adapter.listAuthenticatorsByUserId(user.id)).length > 0
  }
}
