/**
 * The `autocomplete` token of each sign-in field, so password managers and the browser's passkey autofill know what
 * to offer: an app's own value always wins; otherwise it is derived from the field's type and name.
 */
import type { CredentialInput, WebAuthnFormField } from '../types/providers.js'

/** Field names that hold the account's identifier on a sign-in form. */
const identifierNames = /^(user(name)?|login|email|e-?mail|identifier|account|handle|phone)$/i
/** Field names that hold a code from an authenticator app, a text message or an e-mail. */
const oneTimeCodeNames = /^(otp|totp|code|one-?time-?code|verification-?code|2fa|mfa-?code)$/i

function ownAutocomplete(field: Record<string, unknown>): string | undefined {
  const value = field.autocomplete
  return typeof value === 'string' && value.trim() ? value.trim() : undefined
}

/**
 * A credentials field: `current-password` for the password, `one-time-code` for a code, `username` for the account
 * identifier (the sign-in form's username field, even when it holds an e-mail address: that is how password managers
 * pair it with the password). Other fields get none.
 */
export function credentialAutocomplete(
  name: string,
  field: CredentialInput,
  fields: Array<[string, CredentialInput]>,
): string | undefined {
  const own = ownAutocomplete(field)
  if (own) return own
  if (field.type === 'password') return 'current-password'
  if (oneTimeCodeNames.test(name)) return 'one-time-code'
  if (identifierNames.test(name) || field.type === 'email') return 'username'
  // A form whose only text field is not named like an identifier: it still is the one that names the account.
  const texts = fields.filter(([, f]) => f.type === undefined || f.type === 'text' || f.type === 'email')
  const hasPassword = fields.some(([, f]) => f.type === 'password')
  return hasPassword && texts.length === 1 && texts[0]?.[1] === field ? 'username' : undefined
}

/**
 * A passkey form field: the app's value; else, unless some field already carries `webauthn`, `username webauthn` on
 * the first field the app left without a value (the one that names the account), so the browser offers passkeys in
 * its autofill there.
 */
export function passkeyAutocomplete(
  field: WebAuthnFormField,
  fields: Array<[string, WebAuthnFormField]>,
): string | undefined {
  const own = ownAutocomplete(field)
  if (own) return own
  if (fields.some(([, f]) => ownAutocomplete(f)?.split(/\s+/).includes('webauthn'))) return undefined
  return fields.find(([, f]) => !ownAutocomplete(f))?.[1] === field ? 'username webauthn' : undefined
}
