/**
 * Whether a passkey stands in for the second factor is the sign-in completion's decision (docs/second-factors.md):
 * `checkSecondFactor` reports whether the authenticator verified its user and what the app set for
 * `passkeyCountsAsTwo`; the guard `isFirstFactorTwo` needs both.
 */
import { transition } from 'xstate'
import { describe, expect, it } from 'vitest'
import { webAuthnMachine, type WebAuthnEvent } from '../../machines/webauthn.js'

const checking = () =>
  webAuthnMachine.resolveState({
    value: { completingSignIn: 'checkingSecondFactor' },
    context: { providerId: 'passkey', action: 'authenticate', user: { id: 'u1', email: 'ada@example.com' } },
  })

/** The check's answer for a user with an authenticator app. */
const enrolled = (passkeyUserVerified: boolean, passkeyCountsAsTwo: boolean): WebAuthnEvent => ({
  type: 'SECOND_FACTOR_CHECKED',
  enrolled: true,
  mustEnrol: false,
  passkeyUserVerified,
  passkeyCountsAsTwo,
  userId: 'u1',
  challenge: 'c1',
  expiresAt: 1_700_000_300,
})

describe('second factor: does the passkey count as two', () => {
  it('a passkey with user verification, and the app lets it count as two: no challenge, the session is issued', () => {
    const [next] = transition(webAuthnMachine, checking(), enrolled(true, true))
    expect(next.value).toEqual({ completingSignIn: 'issuingSession' })
  })

  it('the same passkey when the app said passkeyCountsAsTwo: false: challenged', () => {
    const [next] = transition(webAuthnMachine, checking(), enrolled(true, false))
    expect(next.value).toEqual({ completingSignIn: 'awaitingSecondFactor' })
  })

  it('a passkey without user verification: challenged, whatever the app set', () => {
    const [next] = transition(webAuthnMachine, checking(), enrolled(false, true))
    expect(next.value).toEqual({ completingSignIn: 'awaitingSecondFactor' })
  })
})
