import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe } from 'vitest'
import { RedisAdapter, redisKeys } from '../../adapters/redis.js'
import { describeWithService, probeRedis, redisUrl, scratchName } from '../support/services.js'
import { adapterConformanceSuite } from './conformance.js'
import { deleteKeysWithPrefix } from './redis-keys-cleanup.js'

await describeWithService('redis', probeRedis, () => {
  describe('RedisAdapter (ioredis)', () => {
    const prefix = `${scratchName()}:`
    const keys = redisKeys(prefix)
    let client: Redis

    beforeAll(() => {
      client = new Redis(redisUrl())
    })

    afterAll(async () => {
      await deleteKeysWithPrefix(client, prefix)
      client.disconnect()
    })

    const readJson = async (key: string) => {
      const json = await client.get(key)
      return json === null ? null : JSON.parse(json) as object
    }

    adapterConformanceSuite(async () => ({
      adapter: RedisAdapter(client, { prefix }),
      store: {
        user: (id) => readJson(keys.user(id)),
        account: (provider, providerAccountId) => readJson(keys.account(provider, providerAccountId)),
        session: (sessionToken) => readJson(keys.session(sessionToken)),
        verificationToken: (identifier, token) => readJson(keys.verificationToken(identifier, token)),
        authenticator: (credentialID) => readJson(keys.authenticator(credentialID)),
      },
    }))
  })
})
