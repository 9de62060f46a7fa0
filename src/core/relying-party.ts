/** The WebAuthn relying party of a request: for the passkey sign-in and for a passkey answering a second factor. */
import type { RelyingParty, WebAuthnConfig } from '../types/providers.js'
import type { RequestContext } from './context.js'

/** The relying party of this request: the provider's function, else its fixed fields, else this site's own origin. */
export function relyingPartyOf(ctx: RequestContext, provider: WebAuthnConfig): RelyingParty {
  if (typeof provider.getRelayingParty === 'function')
    return provider.getRelayingParty({ origin: ctx.origin, provider }, ctx.req.request)
  const fixed = provider.relayingParty ?? {}
  const host = new URL(ctx.origin).hostname
  return { id: fixed.id ?? host, name: fixed.name ?? host, origin: fixed.origin ?? ctx.origin }
}
