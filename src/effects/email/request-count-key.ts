/**
 * The counter keys of the e-mail request limits (machines/email.ts counts client, address-from-client and address in
 * that order). An address is folded for its keys only, never for the mail: `ada+1@x` and `ada+2@x` reach one inbox,
 * so they share one budget, while the link still goes to the address as typed.
 */
import type { RequestCountScope } from '../../../machines/email.js'
import { counterKey } from '../../providers-internal/email-request-limits.js'

/** The inbox an address reaches, as far as limits care: the `+tag` of the local part dropped (RFC 5233 sub-addressing). */
export function inboxOf(address: string): string {
  const at = address.lastIndexOf('@')
  if (at <= 0) return address
  const plus = address.indexOf('+')
  return plus > 0 && plus < at ? address.slice(0, plus) + address.slice(at) : address
}

/** The key one count of `scope` is kept under; the client key and address never appear in the clear. */
export function requestCountKey(scope: RequestCountScope, address: string, clientKey: string | undefined): string {
  if (scope === 'client') return counterKey('client', clientKey ?? '')
  if (scope === 'address') return counterKey('address', inboxOf(address))
  // A newline cannot occur in an address (the single-address check refuses whitespace), so the pair is unambiguous.
  return counterKey('address-from-client', `${inboxOf(address)}\n${clientKey ?? ''}`)
}
