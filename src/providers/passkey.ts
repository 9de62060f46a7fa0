/**
 * The passkey provider (experimental): WebAuthn with settings for passkeys, that is discoverable credentials and
 * user verification required. Needs `experimental.enableWebAuthn: true`. See docs/passkeys.md.
 * @module providers/passkey
 */
import type { WebAuthnConfig } from '../types/providers.js'
import { webAuthnDefaults, type WebAuthnUserConfig } from './webauthn.js'

export type { WebAuthnConfig }
export type PasskeyUserConfig = WebAuthnUserConfig

/** A WebAuthn provider with id `passkey` that asks for a resident (discoverable) key and user verification. */
export default function Passkey(config: PasskeyUserConfig = {}): WebAuthnConfig {
  return {
    ...webAuthnDefaults('passkey', 'Passkey'),
    registrationOptions: { authenticatorSelection: { residentKey: 'required', userVerification: 'required' } },
    authenticationOptions: { userVerification: 'required' },
    verifyRegistrationOptions: { requireUserVerification: true },
    verifyAuthenticationOptions: { requireUserVerification: true },
    options: config,
  }
}
