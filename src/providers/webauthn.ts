/**
 * The WebAuthn provider (experimental): users register and sign in with passkeys. Needs
 * `experimental.enableWebAuthn: true` and an adapter with the authenticator methods. See docs/passkeys.md.
 * @module providers/webauthn
 */
import type { RelyingParty, WebAuthnConfig, WebAuthnFormField, WebAuthnUserInfo } from '../types/providers.js'

export type { RelyingParty, WebAuthnConfig, WebAuthnFormField, WebAuthnUserInfo }

/** What `WebAuthn()` accepts: any part of the provider. */
export type WebAuthnUserConfig = Partial<WebAuthnConfig>

/** The defaults shared by the `webauthn` and `passkey` providers. */
export function webAuthnDefaults(id: string, name: string): WebAuthnConfig {
  return {
    id,
    name,
    type: 'webauthn',
    enableConditionalUI: true,
    formFields: { email: { label: 'Email', required: true, autocomplete: 'username webauthn' } },
    registrationOptions: {},
    authenticationOptions: {},
    verifyRegistrationOptions: {},
    verifyAuthenticationOptions: {},
  }
}

/** A WebAuthn provider with id `webauthn`; options given here are merged over the defaults. */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return { ...webAuthnDefaults('webauthn', 'WebAuthn'), options: config }
}
