/** A memory session store that counts its record writes: for tests that hold the session check free of store writes. */
import { MemorySessionStore } from '../../src/flow/stores/logout.js'
import type { SessionStore } from '../../src/types/session-store.js'

export function countingStore(): { store: SessionStore; puts: () => number } {
  const inner = new MemorySessionStore()
  let puts = 0
  const store: SessionStore = {
    kind: 'memory',
    isRevoked: (userId, id, createdAt) => inner.isRevoked(userId, id, createdAt),
    put: (record) => {
      puts += 1
      return inner.put(record)
    },
    list: (userId) => inner.list(userId),
    revoke: (userId, ids, ttl) => inner.revoke(userId, ids, ttl),
    revokeUser: (userId, at, ttl) => inner.revokeUser(userId, at, ttl),
  }
  return { store, puts: () => puts }
}
