/**
 * A passkey answering the second-factor challenge of a sign-in made by another method (password, e-mail link,
 * OAuth): the request options for the stopped sign-in, and the verification of the browser's assertion. It is the
 * passkey sign-in's own ceremony (passkey-assertion.ts) and counter rule (`isAuthenticatorCounterRegressed`), with
 * two differences: the WebAuthn challenge is the one derived from the second-factor challenge's id
 * (src/factors/passkey-challenge.ts), and the passkey must belong to the user the sign-in stopped for.
 */
import { isPasskeyChallengeOf, passkeyChallengeFor } from '../../factors/passkey-challenge.js'
import { isAuthenticatorCounterRegressed } from '../../security/flow-guards.js'
import type { WrappedAdapter } from '../../types/adapters.js'
import type { RelyingParty, WebAuthnConfig } from '../../types/providers.js'
import type { PasskeyAnswerer, PasskeyAnswerResult } from '../shared/second-factor.js'
import { credentialIdToBase64 } from '../webauthn-encoding.js'
import { authenticationOptions, postedCredential, verifyAssertion } from './passkey-assertion.js'

export interface PasskeySecondFactorInput {
  provider: WebAuthnConfig
  relyingParty: RelyingParty
  adapter: Pick<WrappedAdapter, 'getAuthenticator' | 'listAuthenticatorsByUserId' | 'updateAuthenticatorCounter'>
  /** The app's secrets, newest first: the options use the newest, an answer may match any. */
  secrets: readonly string[]
}

/** The passkey answer of one request. */
export function passkeySecondFactor(input: PasskeySecondFactorInput): PasskeyAnswerer {
  const { provider, relyingParty, adapter, secrets } = input
  return {
    async held(userId) {
      return (await adapter.listAuthenticatorsByUserId(userId)).length > 0
    },

    async options({ userId, challenge }) {
      const held = await adapter.listAuthenticatorsByUserId(userId)
      if (held.length === 0) return undefined
      // Only the user's own passkeys are offered; the verification refuses any other anyway.
      return authenticationOptions({
        provider,
        relyingParty,
        challenge: passkeyChallengeFor(secrets[0], challenge),
        held,
      })
    },

    async verify({ userId, challenge, data }): Promise<PasskeyAnswerResult> {
      const response = postedCredential(data)
      if (!response) return { ok: false, reason: 'the body carries no authentication response' }
      const stored = await adapter.getAuthenticator(credentialIdToBase64(response.id))
      // Another user's passkey answers nothing, and says nothing about whose it is.
      if (!stored || stored.userId !== userId) return { ok: false, reason: 'not a passkey of this user' }
      const verified = await verifyAssertion({
        provider,
        relyingParty,
        stored,
        response,
        expectedChallenge: (signed) => isPasskeyChallengeOf(secrets, challenge, signed),
      })
      if (!verified.verified) return { ok: false, reason: verified.reason }
      const storedCounter = Number(stored.counter) || 0
      if (isAuthenticatorCounterRegressed({ context: { storedCounter }, event: { newCounter: verified.newCounter } }))
        return { ok: false, reason: 'the signature counter did not move past the stored one' }
      await adapter.updateAuthenticatorCounter(stored.credentialID, verified.newCounter)
      return { ok: true, deviceType: stored.credentialDeviceType }
    },
  }
}
