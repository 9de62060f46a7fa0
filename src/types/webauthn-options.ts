/**
 * The body of `GET /webauthn-options/<provider>`: which ceremony the browser runs and its options, in the JSON form
 * WebAuthn Level 3 defines (`PublicKeyCredentialCreationOptionsJSON` / `PublicKeyCredentialRequestOptionsJSON`,
 * binary values as base64url strings). Declared here rather than imported from `@simplewebauthn/server`, an
 * optional peer: an app without passkeys still type-checks against these types.
 * @see https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialcreationoptionsjson
 */

/** A credential the ceremony names (to exclude it, or to allow it). */
export interface WebAuthnCredentialDescriptorJSON {
  id: string
  type: 'public-key'
  transports?: string[]
}

/** Options of the registration ceremony (`navigator.credentials.create`). */
export interface WebAuthnCreationOptionsJSON {
  rp: { id?: string; name: string }
  user: { id: string; name: string; displayName: string }
  challenge: string
  pubKeyCredParams: Array<{ alg: number; type: 'public-key' }>
  timeout?: number
  excludeCredentials?: WebAuthnCredentialDescriptorJSON[]
  authenticatorSelection?: {
    authenticatorAttachment?: string
    residentKey?: string
    requireResidentKey?: boolean
    userVerification?: string
  }
  hints?: string[]
  attestation?: string
  extensions?: Record<string, unknown>
}

/** Options of the authentication ceremony (`navigator.credentials.get`). */
export interface WebAuthnRequestOptionsJSON {
  challenge: string
  timeout?: number
  rpId?: string
  allowCredentials?: WebAuthnCredentialDescriptorJSON[]
  userVerification?: string
  hints?: string[]
  extensions?: Record<string, unknown>
}

/** What `/webauthn-options/<provider>` answers, as Auth.js names the type. */
export type WebAuthnOptionsResponseBody =
  | { action: 'authenticate'; options: WebAuthnRequestOptionsJSON }
  | { action: 'register'; options: WebAuthnCreationOptionsJSON }
