/**
 * Provider tokens of a database session: they live in the user's account row of the provider, which every session
 * of the user shares. Renewed tokens are written there inside the single refresh, before any other request can
 * see them; a refusal clears both tokens, which marks every session of the user.
 */
import type { AdapterAccount, WrappedAdapter } from '../../types/adapters.js'
import { emitAppEvent } from '../shared/app-events.js'
import type { EffectEnv } from '../shared/effect-env.js'
import { providerTokensOf, type ProviderTokens } from './provider-tokens.js'
import type { SessionTokenStore } from './token-refresh-flow.js'

/** The account of `providerId` among a user's accounts (the first one, should the user have linked two). */
function accountOf(accounts: AdapterAccount[], providerId: string): AdapterAccount | undefined {
  return accounts.find((account) => account.provider === providerId)
}

/** The store for one request; `sessionToken` is the session cookie's value, if any. */
export function databaseSessionTokens(
  env: EffectEnv,
  adapter: WrappedAdapter,
  providerId: string,
  sessionToken: string | undefined,
): SessionTokenStore {
  let userId = ''
  let account: Pick<AdapterAccount, 'provider' | 'providerAccountId'> | undefined

  const write = (tokens: ProviderTokens | null) => {
    const { provider, providerAccountId } = account as AdapterAccount
    return adapter.updateAccount({
      provider,
      providerAccountId,
      access_token: tokens?.access_token ?? null,
      refresh_token: tokens?.refresh_token ?? null,
      expires_at: tokens?.expires_at ?? null,
      ...(tokens?.id_token ? { id_token: tokens.id_token } : {}),
    })
  }

  return {
    async load() {
      if (!sessionToken) return 'no-session'
      const found = await adapter.getSessionAndUser(sessionToken)
      if (!found || found.session.expires.getTime() <= env.now * 1000) return 'no-session'
      userId = found.user.id
      const owned = accountOf(await adapter.listAccountsByUserId(userId), providerId)
      if (!owned) return 'no-tokens'
      account = { provider: owned.provider, providerAccountId: owned.providerAccountId }
      return providerTokensOf(owned)
    },
    async persist(tokens) {
      await write(tokens)
    },
    async reread() {
      const owned = (await adapter.listAccountsByUserId(userId)).find(
        (candidate) =>
          candidate.provider === account?.provider && candidate.providerAccountId === account.providerAccountId,
      )
      return owned && providerTokensOf(owned)
    },
    // The row was written inside the refresh; the session cookie does not change.
    async save() {},
    async mark() {
      await write(null)
    },
    // The row's dead tokens are dropped as well: every other session of the user ends on its next check.
    async end(writes) {
      writes.clearSession = true
      const deleted = sessionToken ? await adapter.deleteSession(sessionToken) : null
      await emitAppEvent(env, 'signOut', { session: deleted ?? null })
      if (account) await write(null)
    },
  }
}
