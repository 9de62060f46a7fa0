/**
 * Authchart's two account-token methods, `listAccountsByUserId` and `updateAccount`, on every adapter it ships and
 * every store they run on (memory, SQLite, PostgreSQL, MariaDB, Redis): token refresh with database sessions reads
 * a user's provider tokens through the first and writes renewed ones through the second (docs/token-refresh.md).
 * What `updateAccount` wrote is read back through `getAccount`, a separate path from the write.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../adapters/memory.js'
import { RedisAdapter } from '../../adapters/redis.js'
import { KyselyAdapter, migrate } from '../../adapters/sql/index.js'
import type { Adapter, AdapterAccount, AdapterUser } from '../../src/types/adapters.js'
import {
  describeWithService,
  probeMysql,
  probePostgres,
  probeRedis,
  redisUrl,
  scratchName,
} from '../support/services.js'
import { openMysql, openPostgres, openSqlite, type ScratchDatabase } from './sql-databases.js'

type Store = Required<Adapter>

function newUser(): AdapterUser {
  return { id: randomUUID(), email: `${randomUUID()}@example.test`, emailVerified: null, name: 'Ada' }
}

function newAccount(userId: string, provider: string): AdapterAccount {
  return {
    userId,
    type: 'oidc',
    provider,
    providerAccountId: randomUUID(),
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    expires_at: 1_700_000_000,
    id_token: 'id-token-1',
    token_type: 'bearer',
    scope: 'openid offline_access',
  }
}

function accountTokenSuite(open: () => Promise<{ adapter: Store; close(): Promise<void> }>) {
  let adapter: Store
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ adapter, close } = await open())
  })
  afterAll(async () => {
    await close?.()
  })

  /** A user with accounts at `providers`, as stored. */
  async function userWith(...providers: string[]) {
    const user = await adapter.createUser(newUser())
    const accounts: AdapterAccount[] = []
    for (const provider of providers) {
      const account = newAccount(user.id, provider)
      await adapter.linkAccount(account)
      accounts.push(account)
    }
    return { user, accounts }
  }

  it('listAccountsByUserId lists every account of the user, and no one else’s', async () => {
    const { user, accounts } = await userWith('idp', 'github')
    await userWith('idp')
    const listed = await adapter.listAccountsByUserId(user.id)
    expect(listed.map((a) => `${a.provider}:${a.providerAccountId}`).sort()).toEqual(
      accounts.map((a) => `${a.provider}:${a.providerAccountId}`).sort(),
    )
    expect(listed.find((a) => a.provider === 'idp')).toMatchObject({
      userId: user.id,
      access_token: 'access-1',
      refresh_token: 'refresh-1',
      expires_at: 1_700_000_000,
    })
  })

  it('listAccountsByUserId answers [] for a user without accounts, and for no user at all', async () => {
    const { user } = await userWith()
    expect(await adapter.listAccountsByUserId(user.id)).toEqual([])
    expect(await adapter.listAccountsByUserId(randomUUID())).toEqual([])
  })

  it('listAccountsByUserId leaves out an unlinked account', async () => {
    const { user, accounts } = await userWith('idp', 'github')
    const [idp] = accounts as [AdapterAccount]
    await adapter.unlinkAccount({ provider: idp.provider, providerAccountId: idp.providerAccountId })
    expect((await adapter.listAccountsByUserId(user.id)).map((a) => a.provider)).toEqual(['github'])
  })

  it('updateAccount writes the given token fields, keeps the others, and returns the account', async () => {
    const { accounts } = await userWith('idp')
    const [account] = accounts as [AdapterAccount]
    const key = { provider: account.provider, providerAccountId: account.providerAccountId }
    const updated = await adapter.updateAccount({
      ...key,
      access_token: 'access-2',
      refresh_token: 'refresh-2',
      expires_at: 1_700_003_600,
    })
    expect(updated).toMatchObject({ ...key, userId: account.userId, access_token: 'access-2' })
    expect(await adapter.getAccount(account.providerAccountId, account.provider)).toMatchObject({
      access_token: 'access-2',
      refresh_token: 'refresh-2',
      expires_at: 1_700_003_600,
      id_token: 'id-token-1',
      scope: 'openid offline_access',
      token_type: 'bearer',
    })
  })

  it('updateAccount clears a field given as null, and leaves one given as undefined', async () => {
    const { accounts } = await userWith('idp')
    const [account] = accounts as [AdapterAccount]
    await adapter.updateAccount({
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      access_token: null,
      refresh_token: null,
      expires_at: null,
      id_token: undefined,
    })
    const stored = await adapter.getAccount(account.providerAccountId, account.provider)
    expect(stored?.access_token).toBeUndefined()
    expect(stored?.refresh_token).toBeUndefined()
    expect(stored?.expires_at).toBeUndefined()
    expect(stored?.id_token).toBe('id-token-1')
  })

  it('updateAccount answers null for an account that does not exist, and creates none', async () => {
    const key = { provider: 'idp', providerAccountId: randomUUID() }
    expect(await adapter.updateAccount({ ...key, access_token: 'x' })).toBeNull()
    expect(await adapter.getAccount(key.providerAccountId, key.provider)).toBeNull()
  })
}

describe('MemoryAdapter', () => {
  accountTokenSuite(async () => ({ adapter: MemoryAdapter(), close: async () => {} }))
})

function sqlSuite(open: () => ScratchDatabase | Promise<ScratchDatabase>) {
  accountTokenSuite(async () => {
    const scratch = await open()
    await migrate(scratch.db)
    return { adapter: KyselyAdapter(scratch.db), close: () => scratch.close() }
  })
}

describe('KyselyAdapter on SQLite', () => {
  sqlSuite(openSqlite)
})

await describeWithService('postgres', probePostgres, () => {
  describe('KyselyAdapter on PostgreSQL', () => {
    sqlSuite(openPostgres)
  })
})

await describeWithService('mysql', probeMysql, () => {
  describe('KyselyAdapter on MariaDB/MySQL', () => {
    sqlSuite(openMysql)
  })
})

await describeWithService('redis', probeRedis, () => {
  describe('RedisAdapter', () => {
    accountTokenSuite(async () => {
      const client = new Redis(redisUrl(), { maxRetriesPerRequest: 1 })
      const prefix = `${scratchName('account-tokens')}:`
      return {
        adapter: RedisAdapter(client, { prefix }),
        close: async () => {
          const keys = await client.keys(`${prefix}*`)
          if (keys.length) await client.del(...keys)
          client.disconnect()
        },
      }
    })
  })
})
