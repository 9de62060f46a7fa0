/**
 * The WebAuthn machine decides what an address taken since the options were built means for a signed-out
 * registration (docs/passkeys.md): the handler only reports whether a stored user holds it now.
 */
import { transition } from 'xstate'
import { describe, expect, it } from 'vitest'
import { webAuthnMachine, type WebAuthnContext } from '../../machines/webauthn.js'

const context: WebAuthnContext = {
  providerId: 'passkey',
  action: 'register',
  callbackUrl: 'http://localhost:3000/dashboard',
  user: { email: 'late@example.com' },
  subject: { email: 'late@example.com' },
}

const at = (value: string, extra: Partial<WebAuthnContext> = {}) =>
  webAuthnMachine.resolveState({ value: { completingSignIn: value }, context: { ...context, ...extra } })

describe('webauthn: the address of a signed-out registration', () => {
  it('taken since the options were built: refused, nothing saved', () => {
    const [next, actions] = transition(webAuthnMachine, at('checkingAddress'), { type: 'ADDRESS_CHECKED', taken: true })
    expect(next.value).toBe('failed')
    expect(next.context).toMatchObject({ error: 'WebAuthnVerificationError', refusal: 'webauthn-registration' })
    expect(actions.map((action) => action.type)).not.toContain('saveRegistration')
  })

  it('still free: the registration is saved', () => {
    const [next, actions] = transition(webAuthnMachine, at('checkingAddress'), {
      type: 'ADDRESS_CHECKED',
      taken: false,
    })
    expect(next.value).toEqual({ completingSignIn: 'savingRegistration' })
    expect(actions.map((action) => action.type)).toContain('saveRegistration')
  })

  it('is looked up again once the signIn callback allowed the sign-up', () => {
    const [next, actions] = transition(webAuthnMachine, at('checkingSignIn'), { type: 'SIGNIN_ALLOWED' })
    expect(next.value).toEqual({ completingSignIn: 'checkingAddress' })
    expect(actions.map((action) => action.type)).toContain('lookUpAddress')
  })

  it('a signed-in user adding a passkey, or a registration naming no address, creates no user: no lookup', () => {
    for (const extra of [{ signedInUserId: 'u1' }, { user: { name: 'Ada' } }]) {
      const [next] = transition(webAuthnMachine, at('checkingSignIn', extra), { type: 'SIGNIN_ALLOWED' })
      expect(next.value).toEqual({ completingSignIn: 'savingRegistration' })
    }
  })
})
