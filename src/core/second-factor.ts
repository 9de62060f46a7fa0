/**
 * The second-factor input of one request: the adapter's
 * factor methods (when it stores factors), the app's secrets (which open the sealed TOTP secrets) and, on the request
 * that answers a challenge, what the browser posted.
 */
import type { FactorStore, PasskeyAnswerer, SecondFactorInput } from '../effects/shared/second-factor.js'
import { passkeySecondFactor } from '../effects/webauthn/passkey-second-factor.js'
import type { RequestContext } from './context.js'
import { relyingPartyOf } from './relying-party.js'

/** The adapter's factor methods, when the app's adapter has the ones the challenge needs. */
function factorStoreOf(ctx: RequestContext): FactorStore | undefined {
  const source = ctx.config.source.adapter
  const adapter = ctx.config.adapter
  const stores =
    typeof source?.listFactorsByUserId === 'function' &&
    typeof source.useTotpStep === 'function' &&
    typeof source.useRecoveryCode === 'function'
  return stores && adapter ? adapter : undefined
}

/**
 * A passkey as an answer, when the app serves passkeys: WebAuthn enabled and a WebAuthn provider (whose relying party
 * and options apply; resolveConfig checked that the adapter keeps authenticators).
 */
function passkeyAnswererOf(ctx: RequestContext): PasskeyAnswerer | undefined {
  const provider = [...ctx.config.providersById.values()].find((p) => p.kind === 'webauthn')
  const adapter = ctx.config.adapter
  if (!ctx.config.webAuthnEnabled || provider?.kind !== 'webauthn' || !adapter) return undefined
  return passkeySecondFactor({
    provider,
    relyingParty: relyingPartyOf(ctx, provider),
    adapter,
    secrets: ctx.config.secrets,
  })
}

/** This request's second-factor input; `answer` only on the request that answers a challenge. */
export function secondFactorInputFor(ctx: RequestContext, answer?: SecondFactorInput['answer']): SecondFactorInput {
  return {
    settings: ctx.config.secondFactor,
    factors: factorStoreOf(ctx),
    secrets: ctx.config.secrets,
    passkey: passkeyAnswererOf(ctx),
    answer,
  }
}
