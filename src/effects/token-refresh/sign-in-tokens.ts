/**
 * Keeping a provider's tokens at sign-in, for providers with `tokenRefresh`: in the JWT (Authchart's own claim,
 * added after the app's `jwt` callback ran) or in the account row. A new account row gets them from `linkAccount`;
 * an existing one still holds the tokens of an earlier sign-in, so they are written again.
 */
import type { WrappedAdapter } from '../../types/adapters.js'
import type { Account } from '../../types/index.js'
import type { JWT } from '../../types/jwt.js'
import type { EffectConfig, EffectEnv } from '../shared/effect-env.js'
import { providerTokensOf, withProviderTokens } from './provider-tokens.js'

function refreshes(config: EffectConfig, account: Account | null): account is Account {
  return account !== null && config.tokenRefresh?.has(account.provider) === true
}

/** The token to seal, with the signing-in provider's tokens kept when it has `tokenRefresh`. */
export function keepTokensInJwt(config: EffectConfig, token: JWT, account: Account | null): JWT {
  if (!refreshes(config, account)) return token
  return withProviderTokens(token, account.provider, providerTokensOf(account))
}

/** Writes this sign-in's tokens to the account row when its provider has `tokenRefresh`. */
export async function keepTokensInAccount(env: EffectEnv, adapter: WrappedAdapter, account: Account | null) {
  if (!refreshes(env.config, account)) return
  const tokens = providerTokensOf(account)
  try {
    await adapter.updateAccount({
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      access_token: tokens.access_token ?? null,
      refresh_token: tokens.refresh_token ?? null,
      expires_at: tokens.expires_at ?? null,
      ...(tokens.id_token ? { id_token: tokens.id_token } : {}),
    })
  } catch {
    // Logged by the adapter wrapper. The sign-in stands; the account keeps its earlier tokens until the next one.
  }
}
