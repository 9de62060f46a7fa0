import { describe } from 'vitest'
import { createMemoryStore, MemoryAdapter, memoryAccountKey } from '../../adapters/memory.js'
import { adapterConformanceSuite } from './conformance.js'

describe('MemoryAdapter', () => {
  const store = createMemoryStore()
  adapterConformanceSuite(async () => ({
    adapter: MemoryAdapter(store),
    store: {
      user: async (id) => store.users.get(id) ?? null,
      account: async (provider, providerAccountId) =>
        store.accounts.get(memoryAccountKey(provider, providerAccountId)) ?? null,
      session: async (sessionToken) => store.sessions.get(sessionToken) ?? null,
      verificationToken: async (identifier, token) => {
        const stored = store.verificationTokens.get(token)
        return stored?.identifier === identifier ? stored : null
      },
      authenticator: async (credentialID) => store.authenticators.get(credentialID) ?? null,
    },
    factorStore: {
      factor: async (userId, factorId) => {
        const factor = store.factors?.get(factorId)
        return factor?.userId === userId ? factor : null
      },
      recoveryCodeHashes: async (userId) =>
        [...(store.recoveryCodes ?? new Map<string, { userId: string }>())]
          .filter(([, owner]) => owner.userId === userId)
          .map(([hash]) => hash),
    },
  }))
})
