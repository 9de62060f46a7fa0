/**
 * The logout stores behave alike: a logout token id is accepted once, revocations keep their latest time and lapse
 * with their lifetime, and database sessions indexed under an OP account are handed out once. Memory and a real
 * Redis.
 */
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryLogoutStore, RedisLogoutStore, type LogoutStore } from '../../../src/flow/stores/logout.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../../support/services.js'

function sharedBehaviour(name: string, make: () => { store: LogoutStore; advance(seconds: number): Promise<void> }) {
  describe(`${name} logout store`, () => {
    it('accepts a token id once, until its lifetime has passed', async () => {
      const { store, advance } = make()
      expect(await store.claimTokenId('iss:jti-1', 2)).toBe(true)
      expect(await store.claimTokenId('iss:jti-1', 2)).toBe(false)
      expect(await store.claimTokenId('iss:jti-2', 2)).toBe(true)
      await advance(3)
      expect(await store.claimTokenId('iss:jti-1', 2)).toBe(true)
    })

    it('gives a released token id back, and only that one', async () => {
      const { store } = make()
      expect(await store.claimTokenId('iss:jti-r1', 60)).toBe(true)
      expect(await store.claimTokenId('iss:jti-r2', 60)).toBe(true)
      await store.releaseTokenId?.('iss:jti-r1')
      expect(store.releaseTokenId).toBeTypeOf('function')
      expect(await store.claimTokenId('iss:jti-r1', 60)).toBe(true)
      expect(await store.claimTokenId('iss:jti-r2', 60)).toBe(false)
    })

    it('answers the latest revocation among the keys, and nothing for keys never revoked', async () => {
      const { store } = make()
      expect(await store.revokedAt(['sub:idp:alice', 'sid:idp:s1'])).toBeUndefined()
      await store.revoke(['sub:idp:alice'], 2_000, 60)
      await store.revoke(['sid:idp:s1'], 5_000, 60)
      await store.revoke(['sub:idp:alice'], 1_000, 60)
      expect(await store.revokedAt(['sub:idp:alice'])).toBe(2_000)
      expect(await store.revokedAt(['sub:idp:alice', 'sid:idp:s1'])).toBe(5_000)
      expect(await store.revokedAt(['sub:idp:bob'])).toBeUndefined()
      expect(await store.revokedAt([])).toBeUndefined()
    })

    it('forgets a revocation after its lifetime', async () => {
      const { store, advance } = make()
      await store.revoke(['sub:idp:carol'], 1_000, 1)
      await advance(2)
      expect(await store.revokedAt(['sub:idp:carol'])).toBeUndefined()
    })

    it('hands out the sessions indexed under a key once, across keys without duplicates', async () => {
      const { store } = make()
      await store.addSession(['sub:idp:dave', 'sid:idp:d1'], 'token-1', 60)
      await store.addSession(['sub:idp:dave', 'sid:idp:d2'], 'token-2', 60)
      expect((await store.takeSessions(['sid:idp:d1'])).sort()).toEqual(['token-1'])
      expect((await store.takeSessions(['sub:idp:dave', 'sid:idp:d2'])).sort()).toEqual(['token-1', 'token-2'])
      expect(await store.takeSessions(['sub:idp:dave'])).toEqual([])
    })
  })
}

sharedBehaviour('memory', () => {
  let now = 1_700_000_000_000
  return {
    store: new MemoryLogoutStore({ now: () => now }),
    advance: async (seconds) => {
      now += seconds * 1000
    },
  }
})

const clients: Redis[] = []
const prefixes: string[] = []
afterAll(async () => {
  for (const client of clients) {
    for (const prefix of prefixes) {
      const keys = await client.keys(`${prefix}*`)
      if (keys.length) await client.del(...keys)
    }
    client.disconnect()
  }
})

await describeWithService('redis', probeRedis, () => {
  sharedBehaviour('redis', () => {
    const client = new Redis(redisUrl())
    clients.push(client)
    const prefix = `${scratchName('logout')}:{logout}:`
    prefixes.push(prefix)
    // Redis keeps time itself: waiting is the only way to let a key's lifetime pass.
    return {
      store: new RedisLogoutStore(client, { prefix }),
      advance: (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
    }
  })
})
